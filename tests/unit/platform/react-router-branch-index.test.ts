import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import appRoutes from "../../../app/routes";
import { branchIndex } from "../../../tooling/react-router-branch-index";

// The build's transform of React Router's matching (tooling/react-router-branch-index.ts,
// docs/decisions/0276): matchRoutesImpl looks only at the branches whose first segment can match
// the URL. It must find the same match as React Router's own loop for every URL: each of the app's
// routes (its parameters filled in, in other letter cases, with slashes added or doubled), URLs
// that match nothing, and a tree with optional segments, a splat and a case-sensitive route.

const root = join(import.meta.dirname, "../../..");
const DIR = join(root, "node_modules/react-router/dist/production/lib/router");

type Branch = unknown;
type Match = { route: { id: string }; params: Record<string, string | undefined>; pathname: string; pathnameBase: string };
type Utils = {
  flattenAndRankRoutes: (routes: unknown[]) => Branch[];
  matchRoutesImpl: (routes: unknown[], location: string, basename: string, allowPartial: boolean, branches?: Branch[]) => Match[] | null;
};

let tmp = "";
let original: Utils;
let transformed: Utils;

beforeAll(async () => {
  // A copy of the module beside React Router's own (under node_modules, so "react" resolves), transformed.
  mkdirSync(join(root, "node_modules/.cache"), { recursive: true });
  tmp = mkdtempSync(join(root, "node_modules/.cache/branch-index-"));
  for (const f of ["url.js", "history.js"]) copyFileSync(join(DIR, f), join(tmp, f));
  writeFileSync(join(tmp, "utils.js"), branchIndex(readFileSync(join(DIR, "utils.js"), "utf8")));
  original = await import(pathToFileURL(join(DIR, "utils.js")).href);
  transformed = await import(pathToFileURL(join(tmp, "utils.js")).href);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type ConfigEntry = { file: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: ConfigEntry[] };
type RouteObject = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: RouteObject[] };

/** The app's route config (app/routes.ts) as React Router's route objects, under a root route as the build makes them. */
function toRoutes(entries: ConfigEntry[], prefix = ""): RouteObject[] {
  return entries.map((e, i) => ({
    id: `${prefix}${i}:${e.file}`,
    path: e.path,
    index: e.index,
    caseSensitive: e.caseSensitive,
    children: e.children ? toRoutes(e.children, `${prefix}${i}.`) : undefined,
  }));
}

function pathsOf(entries: ConfigEntry[], parent = ""): string[] {
  return entries.flatMap((e) => {
    const path = e.path ? `${parent}/${e.path}` : parent;
    return [path || "/", ...(e.children ? pathsOf(e.children, path) : [])];
  });
}

/** Every URL to try for a route path: parameters filled, other cases, slashes added and doubled. */
function variants(path: string): string[] {
  const filled = path.replace(/:[\w-]+\??/g, "x1").replace(/\*/g, "a/b");
  return [
    filled,
    filled.toUpperCase(),
    `${filled}/`,
    `${filled}//`,
    `/${filled}`,
    `${filled}/extra`,
    filled.replace(/^\/([^/]+)/, "/$1-not"),
    filled.replace(/^\/([^/]+)/, "/%2F$1"),
    path.replace(/:[\w-]+\??/g, "caf%C3%A9").replace(/\*/g, "x"),
  ];
}

function same(routes: unknown[], urls: string[]) {
  const a = original.flattenAndRankRoutes(routes);
  const b = transformed.flattenAndRankRoutes(routes);
  let compared = 0;
  for (const url of urls) {
    for (const partial of [false, true]) {
      const want = original.matchRoutesImpl(routes, url, "/", partial, a);
      const got = transformed.matchRoutesImpl(routes, url, "/", partial, b);
      expect(got, `${url} (allowPartial ${partial})`).toEqual(want);
      compared++;
    }
  }
  return compared;
}

describe("React Router matching through the branch index", () => {
  it("finds the same match as React Router's own loop for every route of the app", () => {
    const config = appRoutes as unknown as ConfigEntry[];
    const routes = [{ id: "root", path: "", children: toRoutes(config) }];
    const paths = [...new Set(pathsOf(config))];
    expect(paths.length).toBeGreaterThan(80);
    const urls = [...paths.flatMap(variants), "/", "//", "", "/nope", "/NOPE/x", "/%", "/music%2Fsubmissions"];
    // React Router warns about "/%" (it cannot be decoded) on every match; the match is still compared.
    vi.spyOn(console, "warn").mockImplementation(() => {});
    // URLs reach most of the app's routes, and some reach only the catch-all "*" (the 404 page):
    // both sides of the index are exercised.
    const ranked = original.flattenAndRankRoutes(routes);
    const leaves = urls.map((u) => original.matchRoutesImpl(routes, u, "/", false, ranked)?.at(-1)?.route.id ?? "none");
    expect(new Set(leaves).size).toBeGreaterThan(paths.length * 0.8);
    expect(leaves.filter((id) => id.endsWith(":routes/_public/not-found.tsx")).length).toBeGreaterThan(10);
    expect(same(routes, urls)).toBe(urls.length * 2);
  });

  it("keeps optional segments, splats, case-sensitive routes and rank order", () => {
    const routes = [
      {
        id: "root",
        path: "",
        children: [
          { id: "home", index: true },
          { id: "lang", path: ":lang?/docs" },
          { id: "optional-static", path: "shop?/cart" },
          { id: "Exact", path: "Exact/:id", caseSensitive: true },
          { id: "exact-lower", path: "exact/:id" },
          { id: "files", path: "files/*" },
          {
            id: "music",
            path: "music",
            children: [
              { id: "music-index", index: true },
              { id: "music-track", path: ":id" },
              { id: "music-new", path: "new" },
            ],
          },
          { id: "abs", path: "/music/abs" },
          { id: "pathless", children: [{ id: "inside", path: "inside/:x" }] },
          { id: "splat", path: "*" },
        ],
      },
    ];
    const urls = [
      "/",
      "/docs",
      "/en/docs",
      "/EN/DOCS",
      "/cart",
      "/shop/cart",
      "/Exact/1",
      "/exact/1",
      "/EXACT/1",
      "/files",
      "/files/a/b",
      "/music",
      "/music/",
      "/music/new",
      "/music/7",
      "/music/abs",
      "/Music/ABS",
      "/inside/1",
      "/elsewhere",
      "/music/7/8",
    ];
    expect(same(routes, urls)).toBe(urls.length * 2);
    // The index does not change which branch wins when two could: "new" outranks ":id", and the splat catches the rest.
    const branches = transformed.flattenAndRankRoutes(routes);
    expect(transformed.matchRoutesImpl(routes, "/music/new", "/", false, branches)?.at(-1)?.route.id).toBe("music-new");
    expect(transformed.matchRoutesImpl(routes, "/elsewhere", "/", false, branches)?.at(-1)?.route.id).toBe("splat");
    expect(transformed.matchRoutesImpl(routes, "/EXACT/1", "/", false, branches)?.at(-1)?.route.id).toBe("exact-lower");
  });

  it("stops the build when React Router's loop is not as expected", () => {
    expect(() => branchIndex("function matchRoutesImpl() {}")).toThrow(/react-router-branch-index: expected one branch with its path .* found 0/);
  });
});
