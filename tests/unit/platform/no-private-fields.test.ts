import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// Our code uses the libraries as shipped, through their public API (issue 43, decisions 0318, 0319):
// no reading of a library object's private fields (drizzle's `_prepare`, a prepared query's
// `stmt` or `mapResult`, anything `_`-prefixed), at run time or in a type. A library release may
// change those without a word; builtOnce once read three of them. None of our own objects has a
// `_`-prefixed field, so any `._x` in app/ or workers/ is a library's.

const root = resolve(import.meta.dirname, "../../..");

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : /\.(ts|tsx|js|mjs)$/.test(name) ? [p] : [];
  });
}

/** Each pattern: a way of reaching into a library's private fields. */
const PRIVATE = [
  { what: "a `_`-prefixed field (`x._name`)", re: /\??\._[A-Za-z$]/ },
  { what: 'a `_`-prefixed field by its name (`x["_name"]`, `_prepare:`)', re: /\[\s*["'`]_[A-Za-z$]+["'`]\s*\]|\b_prepare\b/ },
  { what: 'drizzle\'s type holder `_` (`T["_"]`)', re: /\[\s*["'`]_["'`]\s*\]/ },
  {
    what: "a drizzle prepared query's statement or result mapper (`.stmt`, `.mapResult`)",
    re: /\.(stmt|mapResult|mapAllResult|mapGetResult|joinsNotNullableMap)\b/,
  },
];

/** Every match of a pattern in the files of `dirs`, as "file:line: text". */
function findings(dirs: string[]): string[] {
  const out: string[] = [];
  for (const file of dirs.flatMap((d) => walk(join(root, d)))) {
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, "");
        for (const p of PRIVATE) if (p.re.test(code)) out.push(`${relative(root, file)}:${i + 1}: ${p.what}: ${line.trim()}`);
      });
  }
  return out;
}

describe("libraries through their public API only", () => {
  it("app/ and workers/ read no library's private fields", () => {
    expect(findings(["app", "workers"])).toEqual([]);
  });

  it("the check finds each kind of reach it names", () => {
    const samples = ["q._prepare()", "prepared.stmt.bind(1)", "p.mapResult(r, true)", 'o["_internal"]', 'type R = Q["_"]["result"];', "{ _prepare: () => x }"];
    for (const s of samples)
      expect(
        PRIVATE.some((p) => p.re.test(s)),
        s,
      ).toBe(true);
    expect(PRIVATE.some((p) => p.re.test("const snake_case = a.b_c; x.statement; run_prepare_now"))).toBe(false);
  });
});
