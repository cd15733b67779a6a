import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildProject } from "./project-build";
import { present } from "../helpers/present";

// First-load JavaScript per page, measured on a production build: the bytes a browser must fetch
// (gzip level 9, what a CDN serves) before a page can hydrate. See docs/decisions/0085-bundle-budget.md.
//
// A page's first load = the React Router manifest script + the client entry (and its static
// imports) + every route module of the match (root, the layout, the page) and all their static
// imports, transitively, each file counted once. Chunks behind `import()` (React.lazy charts,
// the thumbnail editor's model) are not first load and are not counted.
//
// The build runs in a temporary copy of the project (node_modules linked), like
// tests/build/dev-routes.test.ts, so it never touches build/ of the working tree.

const KB = 1024;
/**
 * Public pages: landing, legal pages, sign-in/sign-up, password reset, e-mail verification, agency sign-ups.
 * Back at 130 KB: the agreements' text in the sign-up's dialogs loads after hydration (it took /auth to
 * 130.2 KB and /auth/finish-sign-up to 130.4 KB for a day).
 */
const PUBLIC_BUDGET = 130 * KB;
/** Pages of the signed-in shells (routes/_app/layout, routes/admin/layout). */
const SIGNED_IN_BUDGET = 160 * KB;
const SIGNED_IN_LAYOUTS = ["routes/_app/layout", "routes/admin/layout"];

/**
 * Pages left out of the budget, each with its reason. The thumbnail editor will carry an image
 * model and an editor that cannot fit a page budget; it must load them lazily, and only it.
 */
const BUDGET_EXCLUSIONS: { routeId: string; why: string }[] = [
  { routeId: "routes/admin/ai-thumbnail-editor", why: "the AI thumbnail editor and its model (issue 12: excluded, loaded lazily)" },
];

type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean; module: string; imports?: string[]; hasDefaultExport?: boolean };
type BrowserManifest = { url: string; entry: { module: string; imports: string[] }; routes: Record<string, ManifestRoute> };

type PageSize = { routeId: string; url: string; files: number; bytes: number; gzip: number; budget: number | null };

/** The public URL of a route: its parents' paths and its own, joined. */
function urlOf(routes: Record<string, ManifestRoute>, id: string): string {
  const parts: string[] = [];
  for (let r: ManifestRoute | undefined = routes[id]; r; r = r.parentId ? routes[r.parentId] : undefined) if (r.path) parts.unshift(r.path);
  return `/${parts.join("/")}`;
}

function chain(routes: Record<string, ManifestRoute>, id: string): ManifestRoute[] {
  const out: ManifestRoute[] = [];
  for (let r: ManifestRoute | undefined = routes[id]; r; r = r.parentId ? routes[r.parentId] : undefined) out.unshift(r);
  return out;
}

/** Reads a client build and returns the first-load size of every page (a route with a component). */
function measure(clientDir: string): PageSize[] {
  const assets = join(clientDir, "assets");
  const manifestFile = readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f));
  if (!manifestFile) throw new Error("no client route manifest in the build");
  const manifestJs = readFileSync(join(assets, manifestFile), "utf8");
  const manifest = JSON.parse(manifestJs.replace(/^window\.__reactRouterManifest=/, "").replace(/;\s*$/, "")) as BrowserManifest;
  const sizes = new Map<string, { bytes: number; gzip: number }>();
  const sizeOf = (url: string) => {
    let s = sizes.get(url);
    if (!s) {
      const body = readFileSync(join(clientDir, url.replace(/^\//, "")));
      s = { bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
      sizes.set(url, s);
    }
    return s;
  };
  const pages: PageSize[] = [];
  for (const route of Object.values(manifest.routes)) {
    if (!route.hasDefaultExport || route.id === "root" || SIGNED_IN_LAYOUTS.includes(route.id)) continue;
    const matched = chain(manifest.routes, route.id);
    // React Router's manifest lists, per route, its module's static imports already walked transitively.
    const files = new Set<string>([manifest.url, manifest.entry.module, ...manifest.entry.imports]);
    for (const r of matched) for (const f of [r.module, ...(r.imports ?? [])]) files.add(f);
    let bytes = 0;
    let gzip = 0;
    for (const f of files) {
      const s = sizeOf(f);
      bytes += s.bytes;
      gzip += s.gzip;
    }
    const excluded = BUDGET_EXCLUSIONS.some((e) => e.routeId === route.id);
    const signedIn = matched.some((r) => SIGNED_IN_LAYOUTS.includes(r.id));
    pages.push({
      routeId: route.id,
      url: urlOf(manifest.routes, route.id),
      files: files.size,
      bytes,
      gzip,
      budget: excluded ? null : signedIn ? SIGNED_IN_BUDGET : PUBLIC_BUDGET,
    });
  }
  return pages.sort((a, b) => a.url.localeCompare(b.url));
}

const kb = (n: number) => (n / KB).toFixed(1);

function table(pages: PageSize[]): string {
  const rows = pages.map((p) => [
    p.url,
    p.routeId,
    String(p.files),
    kb(p.bytes),
    kb(p.gzip),
    p.budget === null ? "excluded" : kb(p.budget),
    p.budget === null ? "" : p.gzip <= p.budget ? "ok" : "OVER",
  ]);
  const head = ["page", "route", "files", "raw KB", "gzip KB", "budget KB", ""];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => present(r[i], `column ${i} of ${r[0]}`).length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => {
        const width = present(widths[i], `the width of column ${i}`);
        return i >= 2 && i <= 5 ? c.padStart(width) : c.padEnd(width);
      })
      .join("  ");
  return [line(head), ...rows.map(line)].join("\n");
}

describe("first-load JavaScript budget (production build, gzip -9)", () => {
  let dir = "";
  let pages: PageSize[] = [];

  beforeAll(async () => {
    dir = await buildProject();
    pages = measure(join(dir, "build/client"));
    console.log(`First-load JS per page (gzip level 9):\n${table(pages)}`);
  }, 600_000);

  afterAll(() => {
    if (dir && existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  });

  it("measures every page, including the ones it must (sign-in, the signed-in shells)", () => {
    const ids = pages.map((p) => p.routeId);
    expect(ids).toEqual(
      expect.arrayContaining(["routes/_public/landing", "routes/_auth/auth", "routes/_app/dashboard", "routes/_app/analytics", "routes/admin/users"]),
    );
    expect(pages.find((p) => p.routeId === "routes/_auth/auth")?.budget).toBe(PUBLIC_BUDGET);
    expect(pages.find((p) => p.routeId === "routes/_app/channels")?.budget).toBe(SIGNED_IN_BUDGET);
    // Every exclusion names a page that exists, so a renamed route cannot slip out of the budget.
    for (const e of BUDGET_EXCLUSIONS) expect(ids, e.why).toContain(e.routeId);
  });

  it("every page stays within its budget", () => {
    const over = pages.filter((p) => p.budget !== null && p.gzip > p.budget).map((p) => `${p.url} (${p.routeId}): ${kb(p.gzip)} KB > ${kb(p.budget ?? 0)} KB`);
    expect(over, `pages over their first-load JS budget:\n${table(pages)}`).toEqual([]);
  });

  it("the charts are not first load: recharts arrives only through import()", () => {
    const assets = join(dir, "build/client/assets");
    const manifestFile = readdirSync(assets).find((f) => /^manifest-.*\.js$/.test(f)) ?? "";
    const manifest = JSON.parse(
      readFileSync(join(assets, manifestFile), "utf8")
        .replace(/^window\.__reactRouterManifest=/, "")
        .replace(/;\s*$/, ""),
    ) as BrowserManifest;
    const analytics = present(manifest.routes["routes/_app/analytics"], "the analytics route in the browser manifest");
    const firstLoad = [analytics.module, ...(analytics.imports ?? []), manifest.entry.module, ...manifest.entry.imports];
    const withRecharts = firstLoad.filter((f) => /recharts|ResponsiveContainer|CartesianGrid/.test(readFileSync(join(dir, "build/client", f), "utf8")));
    expect(withRecharts).toEqual([]);
  });

  it("ships no MP3 encoder to browsers: LAME in JavaScript (LGPL-3.0) is server code only (issue 40, decision 0289)", () => {
    const assets = join(dir, "build/client/assets");
    // lamejs's own property names, which no minifier renames (LAME's encoder state).
    const lame = /fill_buffer_resample_init|mf_samples_to_encode|lame_encode_frame_init|Mp3Encoder/;
    const shipped = readdirSync(assets).filter((f) => f.endsWith(".js") && lame.test(readFileSync(join(assets, f), "utf8")));
    expect(shipped).toEqual([]);
    // The marker is real: the Worker's own build holds the encoder (the preview job).
    const server = join(dir, "build/server");
    const serverFiles = readdirSync(server, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(".js"));
    expect(serverFiles.some((f) => lame.test(readFileSync(join(server, f), "utf8")))).toBe(true);
  });
});
