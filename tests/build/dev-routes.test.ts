import { existsSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildProject } from "./project-build";
import { present } from "../helpers/present";

// The development tools (/dev/*: mailbox, stand-in Google provider, factory, password bench, throw)
// are absent from the production build, not just refused at run time; the `devtools` build (the one
// the browser tests and benchmarks serve) has them. See app/dev/build-mode.ts and
// docs/decisions/0009-dev-routes-build-mode.md.
//
// Each build runs in its own copy of the project in a temporary folder (node_modules linked), so it
// never touches build/ or .wrangler/deploy/ of the working tree, which a running Playwright server uses.

const DEV_ROUTE_IDS = [
  "routes/dev/throw",
  "routes/dev/mailbox",
  "routes/dev/factory",
  "routes/dev/bench",
  "routes/dev/oauth-authorize",
  "routes/dev/oauth",
  "routes/dev/stripe",
  "routes/dev/stripe-onboarding",
  "routes/dev/stripe-api",
];

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
  const clientFiles = files(client).filter((f) => f.endsWith(".js"));
  return {
    clientRouteIds: Object.keys(manifest.routes),
    clientPaths: Object.values(manifest.routes).map((r) => r.path ?? ""),
    serverRouteIds: [...server.matchAll(/"(routes\/[\w./-]+)"\s*:/g)].map((m) => present(m[1], "a server route id")),
    serverPaths: [...server.matchAll(/\bpath:\s*"([^"]*)"/g)].map((m) => present(m[1], "a server route path")),
    serverChunks: serverFiles.map((f) => f.slice(dir.length)),
    clientChunks: readdirSync(client),
    serverSource: server,
    clientSource: clientFiles.map((f) => readFileSync(f, "utf8")).join("\n"),
    serverBytes: serverFiles.reduce((s, f) => s + statSync(f).size, 0),
    stripeChunkBytes: serverFiles.filter((f) => /stripe\.esm\.worker/.test(f)).reduce((s, f) => s + statSync(f).size, 0),
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
    expect(production.serverSource).not.toContain("handleDevStripeApi");
    expect(production.serverChunks.filter((f) => /dev-stripe/.test(f))).toEqual([]);
    // The stand-ins are registered by the development wiring behind __DEV_TOOLS_BUILD__ (decision 0330): gone with it.
    for (const name of ["registerDevStandIns", "handleStandInSms", "handleStandInSocial", "standInAiCalls"]) {
      expect(production.serverSource).not.toContain(name);
    }
  });

  it("the stripe package is server-only: in the Worker, in no browser chunk (issue 29)", () => {
    for (const b of [production, devtools]) {
      expect(b.serverSource).toContain("api.stripe.com");
      expect(b.clientSource).not.toContain("api.stripe.com");
      expect(b.clientSource).not.toContain("Stripe-Signature");
    }
    // The SDK is a chunk of its own, loaded on first use (app/platform/stripe.server.ts), not at every request.
    expect(production.serverChunks.filter((f) => /stripe\.esm\.worker/.test(f))).toHaveLength(1);
    // Its cost, for the record (decision 0224).
    console.log(
      `production Worker: ${(production.serverBytes / 1024).toFixed(0)} KiB, the Stripe SDK's chunk: ${(production.stripeChunkBytes / 1024).toFixed(0)} KiB`,
    );
  });

  it("the devtools build (browser tests, benchmarks) has every /dev route", () => {
    for (const id of DEV_ROUTE_IDS) {
      expect(devtools.clientRouteIds).toContain(id);
      expect(devtools.serverRouteIds).toContain(id);
    }
    expect(devtools.serverPaths).toEqual(expect.arrayContaining(["dev/mailbox", "dev/throw", "dev/factory", "dev/oauth/*"]));
    expect(devtools.serverSource).toContain("handleDevOAuthApi");
    expect(devtools.serverSource).toContain("handleDevStripeApi");
    expect(devtools.serverSource).toContain("handleStandInSms");
    expect(devtools.serverSource).toContain("handleStandInSocial");
  });
});
