import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// Every setting and binding is read through the Env type (issue 44 §3): the ones `wrangler types`
// generates from wrangler.toml and .dev.vars.example, and the optional ones a deployment may leave
// out, declared in env.d.ts. A cast of `env` (`env as unknown as Record<string, unknown>`) hides a
// misspelt name from the typecheck; none is left.

const root = resolve(import.meta.dirname, "../../..");

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : /\.(ts|tsx)$/.test(name) ? [p] : [];
  });
}

describe("the Worker's env", () => {
  it("is never cast: every read goes through Env", () => {
    const casts = ["app", "workers"]
      .flatMap((d) => walk(join(root, d)))
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .map((line, i) => ({ where: `${relative(root, file)}:${i + 1}`, line }))
          .filter(({ line }) => /\b(env|workerEnv)\s+as\s+(unknown|Record|\{)/.test(line)),
      )
      .map(({ where, line }) => `${where}: ${line.trim()}`);
    expect(casts).toEqual([]);
  });

  it("declares the optional settings the code reads by name", () => {
    const declared = readFileSync(join(root, "env.d.ts"), "utf8");
    for (const name of ["AI", "AI_STAND_IN", "GOOGLE_REVOKE_URL", "YOUTUBE_VIDEOS_URL"]) expect(declared).toMatch(new RegExp(`\\b${name}\\?:`));
  });
});
