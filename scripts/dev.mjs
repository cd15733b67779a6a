#!/usr/bin/env node
// `npm run dev [-- --port N]`: prepares local bindings and demo data, then starts the dev server.
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { applyMigrations, ensureDevVars, seed } from "./setup-local.mjs";

const root = resolve(import.meta.dirname, "..");
ensureDevVars();
applyMigrations();
await seed();

const child = spawn(process.execPath, [join(root, "node_modules/.bin/react-router"), "dev", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
