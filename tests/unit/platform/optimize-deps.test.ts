import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The dev server pre-bundles the browser's packages (vite.config.ts optimizeDeps.include). A package
// the browser's code imports that is missing there is found only when a page first asks for it:
// Vite re-bundles while the page runs, and the page holds two copies of React ("Invalid hook call",
// hydration errors; issue 42 §4, reproduced on /admin with an empty Vite cache).

const root = resolve(import.meta.dirname, "../../..");

/** Packages that app/ imports outside *.server.* files but that never reach the browser, with why. */
const NOT_IN_THE_BROWSER: Record<string, string> = {
  "drizzle-orm": "the tables (app/db) and SQL built in server modules",
  "cloudflare:workers": "the Worker runtime",
  "react-dom/server.node": "the server renderer (app/entry.server.tsx)",
  "@react-router/dev": "app/routes.ts, read at build time",
  isbot: "app/entry.server.tsx",
  "@oslojs/encoding": "server modules",
  "@oslojs/crypto": "server modules",
  arctic: "server modules",
  stripe: "server modules",
  papaparse: "server modules",
  "@phi-ag/argon2": "server modules",
  uqr: "server modules (the licence certificate)",
  "@breezystack/lamejs": "the server's preview job",
  "@fontsource": "font files imported as ?url (assets, not modules)",
  "@mediapipe/selfie_segmentation": "the model file imported as ?url",
};

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : /\.(ts|tsx)$/.test(name) && !/\.server\.tsx?$/.test(name) ? [p] : [];
  });
}

/** The package a bare specifier names: "@scope/name" or "name" (a ?url asset import is not a module). */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith(".") || specifier.startsWith("~/") || specifier.includes("?")) return null;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? null);
}

const IMPORT = /^\s*import\s+(?!type\b)[^'"]*?from\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm;

describe("the dev server's pre-bundled packages", () => {
  it("include every package the browser's code imports", () => {
    const config = readFileSync(join(root, "vite.config.ts"), "utf8");
    const listed = /include:\s*\[([\s\S]*?)\]/.exec(config)?.[1] ?? "";
    const included = new Set([...listed.matchAll(/"([^"]+)"/g)].map((m) => packageOf(m[1] ?? "")));
    const missing = new Set<string>();
    for (const file of walk(join(root, "app"))) {
      for (const m of readFileSync(file, "utf8").matchAll(IMPORT)) {
        const specifier = m[1] ?? m[2] ?? "";
        const pkg = packageOf(specifier);
        if (!pkg || pkg.startsWith("node:") || included.has(pkg)) continue;
        if (Object.keys(NOT_IN_THE_BROWSER).some((p) => pkg === p || specifier.startsWith(p))) continue;
        missing.add(`${pkg} (${relative(root, file)})`);
      }
    }
    expect([...missing]).toEqual([]);
  });
});
