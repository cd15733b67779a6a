import { existsSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildProject } from "./project-build";

// The development tools (/dev/*: mailbox, stand-in Google provider, factory, password bench, throw)
// are absent from the production build, not just refused at run time; the `devtools` build (the one
// the browser tests and benchmarks serve) has them. See app/dev/build-mode.ts and
// docs/decisions/0009-dev-routes-build-mode.md.
//
// Each build runs in its own copy of the project in a temporary folder (node_modules linked), so it
// never touches build/ or .wrangler/deploy/ of the working tree, which a running Playwright server uses.

const DEV_ROUTE_IDS = ["routes/dev/throw", "routes/dev/mailbox", "routes/dev/factory", "routes/dev/bench", "routes/dev/oauth-authorize", "routes/dev/oauth"];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/** What a build contains, read from its output: route ids and paths of both manifests, chunk names. */
function inspect(dir: string) {
  const client = join(dir, "build/client/assets");
  const manifestFile = readdirSync(client).find((f) => /^manifest-.*\.js$/.test(f));
  if (!manifestFile) throw new Error("no client route manifest in the build");
  const manifestJs = readFileSync(join(client, manifestFile), "utf8");
  const manifest = JSON.parse(manifestJs.replace(/^window\.__reactRouterManifest=/, "").replace(/;\s*$/, "")) as {
    routes: Record<string, { id: string; path?: string }>;
  };
  const serverFiles = files(join(dir, "build/server")).filter((f) => f.endsWith(".js"));
  const server = serverFiles.map((f) => readFileSync(f, "utf8")).join("\n");
  return {
    clientRouteIds: Object.keys(manifest.routes),
    clientPaths: Object.values(manifest.routes).map((r) => r.path ?? ""),
    serverRouteIds: [...server.matchAll(/"(routes\/[\w./-]+)"\s*:/g)].map((m) => m[1]),
    serverPaths: [...server.matchAll(/\bpath:\s*"([^"]*)"/g)].map((m) => m[1]),
    serverChunks: serverFiles.map((f) => f.slice(dir.length)),
    clientChunks: readdirSync(client),
    serverSource: server,
  };
}

describe("development tools and the build mode", () => {
  let production: ReturnType<typeof inspect>;
  let devtools: ReturnType<typeof inspect>;
  const dirs: string[] = [];

  beforeAll(async () => {
    // One after the other: two parallel builds on a 2-core machine are no faster and twice the memory.
    const prodDir = await buildProject();
    dirs.push(prodDir);
    production = inspect(prodDir);
    const devDir = await buildProject("devtools");
    dirs.push(devDir);
    devtools = inspect(devDir);
  }, 600_000);

  afterAll(() => {
    for (const d of dirs) if (existsSync(d)) rmSync(d, { recursive: true, force: true });
  });

  it("reads the route manifests of a build (the probes see ordinary routes)", () => {
    for (const b of [production, devtools]) {
      expect(b.clientRouteIds).toContain("routes/_app/dashboard");
      expect(b.serverRouteIds).toContain("routes/_app/dashboard");
      expect(b.clientPaths).toContain("dashboard");
      expect(b.serverPaths).toContain("dashboard");
    }
  });

  it("the production build has no /dev route, no dev route module and no stand-in provider code", () => {
    const isDev = (s: string) => s.startsWith("routes/dev/") || s.startsWith("dev/");
    expect(production.clientRouteIds.filter(isDev)).toEqual([]);
    expect(production.clientPaths.filter(isDev)).toEqual([]);
    expect(production.serverRouteIds.filter(isDev)).toEqual([]);
    expect(production.serverPaths.filter(isDev)).toEqual([]);
    expect(production.clientChunks.filter((f) => /^(throw|mailbox|oauth|oauth-authorize)-/.test(f))).toEqual([]);
    expect(production.serverChunks.filter((f) => /dev-oauth/.test(f))).toEqual([]);
    expect(production.serverSource).not.toContain("handleDevOAuthApi");
  });

  it("the devtools build (browser tests, benchmarks) has every /dev route", () => {
    for (const id of DEV_ROUTE_IDS) {
      expect(devtools.clientRouteIds).toContain(id);
      expect(devtools.serverRouteIds).toContain(id);
    }
    expect(devtools.serverPaths).toEqual(expect.arrayContaining(["dev/mailbox", "dev/throw", "dev/factory", "dev/oauth/*"]));
    expect(devtools.serverSource).toContain("handleDevOAuthApi");
  });
});
