import { existsSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildProject, root, run } from "./project-build";
import { present } from "../helpers/present";

// The Worker that `wrangler deploy` uploads, measured the way wrangler measures it: a production
// build, then `wrangler deploy --dry-run --outdir <dir>` (which writes the modules it would upload
// and prints "Total Upload: … KiB / gzip: … KiB"), and the gzip of those modules put together.
// Cloudflare refuses a Worker over 3 MB gzip on the Free plan (10 MB on Paid), and every byte the
// isolate loads costs start-up time: the budget is 1.5 MB gzip. Browser-only code (the thumbnail
// editor's segmentation worker and its 13 MB of MediaPipe wasm, the recharts charts) lives in
// `.client` modules, which the server build replaces by empty ones. See docs/decisions/0231.

const KIB = 1024;
const BUDGET_GZIP = 1.5 * KIB * KIB;

type Upload = { modules: { name: string; bytes: number }[]; bytes: number; gzip: number; wranglerLine: string };

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/** The modules wrangler wrote to `outDir` (its README aside), the main module first, as wrangler concatenates them. */
function measure(outDir: string, wranglerOutput: string): Upload {
  const paths = files(outDir).filter((f) => !f.endsWith("README.md"));
  const main = join(outDir, "index.js");
  const ordered = [main, ...paths.filter((p) => p !== main).sort()];
  const contents = ordered.map((p) => readFileSync(p));
  const wranglerLine = wranglerOutput.match(/Total Upload: .*/)?.[0] ?? "";
  return {
    modules: ordered.map((p, i) => ({ name: relative(outDir, p), bytes: present(contents[i], `the contents of ${p}`).length })),
    bytes: contents.reduce((n, c) => n + c.length, 0),
    gzip: gzipSync(Buffer.concat(contents)).length,
    wranglerLine,
  };
}

const kib = (n: number) => `${(n / KIB).toFixed(2)} KiB`;

describe("the Worker upload of a production build", () => {
  let dir = "";
  let upload: Upload;

  beforeAll(async () => {
    dir = await buildProject();
    const outDir = join(dir, "upload");
    const output = await run(dir, [join(root, "node_modules/.bin/wrangler"), "deploy", "--dry-run", "--outdir", outDir], "wrangler deploy --dry-run");
    upload = measure(outDir, output);
    const biggest = [...upload.modules].sort((a, b) => b.bytes - a.bytes).slice(0, 8);
    console.log(
      [
        `Worker upload (production build): ${upload.modules.length} modules, ${kib(upload.bytes)}, gzip ${kib(upload.gzip)} (budget ${kib(BUDGET_GZIP)} gzip)`,
        `wrangler: ${upload.wranglerLine}`,
        ...biggest.map((m) => `  ${kib(m.bytes).padStart(14)}  ${m.name}`),
      ].join("\n"),
    );
  }, 600_000);

  afterAll(() => {
    if (dir && existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  });

  it("measures what wrangler uploads (its own figures agree)", () => {
    const m = upload.wranglerLine.match(/Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/);
    expect(m, "wrangler printed its Total Upload line").not.toBeNull();
    const [size, gzip] = [Number(m?.[1]) * KIB, Number(m?.[2]) * KIB];
    expect(Math.abs(upload.bytes - size)).toBeLessThan(2 * KIB);
    // gzip depends a little on the order the modules are put together in.
    expect(Math.abs(upload.gzip - gzip) / gzip).toBeLessThan(0.02);
    expect(upload.modules.map((m) => m.name)).toContain("index.js");
  });

  it("holds no browser-only code: no MediaPipe, no segmentation worker, no recharts", () => {
    const browserOnly = upload.modules.filter((m) => /vision_wasm|segment\.worker|selfie_segmentation|CartesianChart|LineChart|BarChart/.test(m.name));
    expect(browserOnly).toEqual([]);
  });

  it("runs React, React Router and drizzle as shipped, with React's Node renderer (decision 0318)", () => {
    const code = upload.modules.map((m) => readFileSync(join(dir, "upload", m.name), "utf8")).join("\n");
    // The Node build writes HTML text into a byte view (encodeInto); no code of ours inside a dependency.
    expect(code).toContain("textEncoder.encodeInto(");
    expect(code).toContain("createFakeWritableFromReadableStreamController");
    expect(code).not.toMatch(/__sb[A-Z]\w*|pendingText/);
  });

  it("stays within 1.5 MB gzip", () => {
    expect(upload.gzip, `Worker upload ${kib(upload.gzip)} gzip > ${kib(BUDGET_GZIP)}`).toBeLessThanOrEqual(BUDGET_GZIP);
  });
});
