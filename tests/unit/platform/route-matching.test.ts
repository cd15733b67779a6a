import { type RouteObject, createStaticHandler } from "react-router";
import { describe, expect, it } from "vitest";
import routeConfig from "~/routes";
import { ROUTE_PATTERN_FLAG, withRoutePatternMatching } from "~/platform/route-matching.server";

// The server matches URLs with React Router's route-pattern matcher, the browser with the default
// one (app/platform/route-matching.server.ts, decision 0230). They must agree: the same route,
// params and pathname for every route of app/routes.ts, filled in many ways. One known difference,
// left out: a path with an empty segment ("//") is the landing page for the default matcher and
// not found for route-pattern; no link of the app makes one.

type Entry = { id?: string; file: string; path?: string; index?: boolean; children?: Entry[] };
const routeId = (e: Entry) => e.id ?? e.file.replace(/\.[jt]sx?$/, "");

function toRoutes(entries: Entry[]): RouteObject[] {
  return entries.map((e) => {
    const route = { id: routeId(e), path: e.path, loader: () => null };
    return e.index ? { ...route, index: true } : { ...route, children: e.children?.length ? toRoutes(e.children) : undefined };
  });
}

function fullPaths(entries: Entry[], parent = ""): string[] {
  return entries.flatMap((e) => {
    const path = e.path ? `${parent}/${e.path}` : parent;
    return [path || "/", ...fullPaths(e.children ?? [], path)];
  });
}

const routes: RouteObject[] = [{ id: "root", path: "", loader: () => null, children: toRoutes(routeConfig as Entry[]) }];
const VALUES = ["x", "northwind", "licences", "signup", "admin", "dashboard", "a b", "%20", "ÄÖ", "music", "dev", "auth"];

function urls(): string[] {
  const out = new Set(["/", "/ADMIN", "/Dashboard/", "/dashboard/x", "/music/licences/", "/media/avatars/", "/media/avatars/a/b.png", "/no/such/page"]);
  for (const p of fullPaths(routeConfig as Entry[])) {
    for (const v of VALUES) {
      const filled = p.replace(/:\w+/g, v).replace(/\*$/, `${v}/more`);
      for (const u of [filled, `${filled}/`, filled.toUpperCase(), `${filled}/extra`]) if (!u.includes("//")) out.add(u || "/");
    }
  }
  return [...out];
}

const matchOf = (handler: ReturnType<typeof createStaticHandler>, url: string) =>
  handler.match(url)?.map((m) => ({ id: m.route.id, params: m.params, pathname: m.pathname })) ?? null;

describe("route matching on the server", () => {
  it("the route-pattern matcher gives the browser's match for every route of app/routes.ts", () => {
    const browser = createStaticHandler(routes);
    const server = createStaticHandler(routes, { future: { [ROUTE_PATTERN_FLAG]: true } });
    const all = urls();
    expect(all.length).toBeGreaterThan(500);
    const differ = all.filter((u) => JSON.stringify(matchOf(server, u)) !== JSON.stringify(matchOf(browser, u)));
    expect(differ).toEqual([]);
    expect(matchOf(server, "/dashboard")?.map((m) => m.id)).toEqual(["root", "routes/_app/layout", "routes/_app/dashboard"]);
  });

  it("turns the flag on for the server alone: the browser's handoff (JSON) does not carry it", () => {
    const build = { future: { v8_middleware: true } } as unknown as Parameters<typeof withRoutePatternMatching>[0];
    const server = withRoutePatternMatching(build);
    expect((server.future as Record<string, unknown>)[ROUTE_PATTERN_FLAG]).toBe(true);
    expect(JSON.parse(JSON.stringify(server.future))).toEqual({ v8_middleware: true });
  });
});
