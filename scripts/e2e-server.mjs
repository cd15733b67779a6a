#!/usr/bin/env node
// The server the end-to-end suite and the benchmarks run against: a production build of the app in
// the `devtools` mode (production code plus the /dev/* tools the journeys use: mailbox, stand-in
// Google provider, factory; see app/dev/build-mode.ts), served by `vite preview` (workerd), on its
// own fresh local state with migrations and demo data.
import { spawn, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const port = process.env.E2E_PORT ?? "4173";
process.env.SB_STATE_DIR = process.env.SB_STATE_DIR ?? ".state-e2e";
rmSync(join(root, process.env.SB_STATE_DIR), { recursive: true, force: true });

const { applyMigrations, ensureDevVars, seed } = await import("./setup-local.mjs");
ensureDevVars();
applyMigrations();
await seed();

const build = spawnSync(process.execPath, [join(root, "node_modules/.bin/react-router"), "build", "--mode", "devtools"], {
  cwd: root,
  stdio: "inherit",
});
if (build.status !== 0) process.exit(build.status ?? 1);

const child = spawn(process.execPath, [join(root, "node_modules/.bin/vite"), "preview", "--port", port, "--strictPort"], {
  cwd: root,
  stdio: "inherit",
  env: process.env,
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
