#!/usr/bin/env node
// `npm test`: the whole suite, every layer, in order. Stops at the first failing layer.
//   1. unit   — pure rules, in Node
//   2. worker — loaders, actions, bindings, inside workerd with real local D1/KV/R2/DO
//   3. build  — the production build has no /dev/* tools, the devtools build has them (two builds;
//               a layer of its own so it does not compete with the worker tests for the CPU)
//   4. e2e    — journeys in Debian's Chromium against the built app
//   5. e2e on the dev server — one journey per role against `npm run dev` itself (playwright.dev.config.ts)
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const bin = (name) => join(root, "node_modules/.bin", name);
const layers = [
  ["unit + worker", bin("vitest"), ["run", "--project", "unit", "--project", "worker"]],
  ["build", bin("vitest"), ["run", "--project", "build"]],
  ["end-to-end", bin("playwright"), ["test"]],
  ["end-to-end on the dev server", bin("playwright"), ["test", "--config", "playwright.dev.config.ts"]],
];

for (const [name, command, args] of layers) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const result = spawnSync(process.execPath, [command, ...args], { cwd: root, stdio: "inherit", env: { ...process.env } });
  console.log(`=== ${name}: ${result.status === 0 ? "passed" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
  if (result.status !== 0) process.exit(result.status ?? 1);
}
