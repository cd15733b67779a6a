import type { Plugin } from "vite";

// The build's small changes to dependencies' code (docs/decisions/0275, 0276, 0277) share one rule:
// each replacement must match exactly once, or the build fails and names it. A release of the
// dependency that changes that code is looked at again, never silently left half-transformed.

export type Replacement = { name: string; find: RegExp; replace: string };

/** `code` with each replacement made once; throws, naming `tool`, `file` and the replacement, when one does not match exactly once. */
export function replaceOnce(code: string, replacements: readonly Replacement[], where: { tool: string; file: string }): string {
  let out = code;
  for (const r of replacements) {
    const count = out.match(new RegExp(r.find.source, "g"))?.length ?? 0;
    if (count !== 1) {
      throw new Error(
        `${where.tool}: expected one ${r.name} in ${where.file}, found ${count}. The dependency changed: look at tooling/${where.tool}.ts again.`,
      );
    }
    out = out.replace(r.find, r.replace);
  }
  return out;
}

/** A Vite plugin that applies `transform` to the modules whose file path matches `target`, wherever they are bundled. */
export function dependencyTransform(name: string, target: RegExp, transform: (code: string) => string): Plugin {
  return {
    name: `shortbeat:${name}`,
    transform(code, id) {
      if (!target.test(id.split("?")[0])) return null;
      return { code: transform(code), map: null };
    },
  };
}
