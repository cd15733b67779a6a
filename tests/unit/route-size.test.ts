import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// A route reads as its shape: guard → parse → one call → respond, plus a short page. A screen's
// UI lives in its domain's components/ (app/modules/<domain>/components), so no file under
// app/routes grows past ROUTE_MAX_LINES. Issue 32 §2, docs/decisions/0234.

const ROUTE_MAX_LINES = 350;
const root = resolve(import.meta.dirname, "../..");

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** Lines as `wc -l` counts them: newline characters. */
const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

describe("route files", () => {
  it(`no file under app/routes is over ${ROUTE_MAX_LINES} lines`, () => {
    const files = walk(join(root, "app/routes"));
    expect(files.length).toBeGreaterThan(50);
    const tooLong = files
      .map((f) => ({ file: relative(root, f), lines: lineCount(readFileSync(f, "utf8")) }))
      .filter((f) => f.lines > ROUTE_MAX_LINES)
      .map((f) => `${f.file}: ${f.lines} lines (move its UI into app/modules/<domain>/components)`);
    expect(tooLong).toEqual([]);
  });
});
