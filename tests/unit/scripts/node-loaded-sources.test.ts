import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// `npm run dev` (scripts/dev.mjs → scripts/setup-local.mjs) loads some app/ sources in plain Node
// (type stripping, no bundler): the demo seed and the password policy. Node resolves no "~/" alias,
// so one such import anywhere in their graph stops the README's first command with
// ERR_MODULE_NOT_FOUND (it happened on 2026-12-06: app/dev/music-seed.ts imported "~/lib/arrays").

const root = resolve(import.meta.dirname, "../../..");
const ENTRIES = ["app/dev/seed.server.ts", "app/modules/accounts/password-policy.ts"];
const IMPORT = /^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm;

/** Every file Node reaches from the entries through value imports (type-only imports are erased). */
function nodeGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const queue = ENTRIES.map((e) => join(root, e));
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (graph.has(file)) continue;
    const specifiers = [...readFileSync(file, "utf8").matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
    graph.set(file, specifiers);
    for (const s of specifiers) {
      if (!s.startsWith(".")) continue;
      const target = resolve(dirname(file), s);
      if (existsSync(target)) queue.push(target);
    }
  }
  return graph;
}

describe("the sources npm run dev loads in Node", () => {
  it("import nothing through the ~/ alias, and name their files with the extension Node needs", () => {
    const graph = nodeGraph();
    expect(graph.size).toBeGreaterThan(5);
    const offenders = [...graph].flatMap(([file, specifiers]) =>
      specifiers.filter((s) => s.startsWith("~/") || (s.startsWith(".") && !/\.(ts|tsx|mjs|js|json)$/.test(s))).map((s) => `${relative(root, file)}: ${s}`),
    );
    expect(offenders).toEqual([]);
  });
});
