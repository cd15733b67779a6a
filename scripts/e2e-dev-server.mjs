#!/usr/bin/env node
// The server of the dev-server browser project (playwright.dev.config.ts; issue 26): the README's
// own first command, `npm run dev -- --port N --strictPort`, on a fresh local state folder of its
// own (.state-e2e-dev), so it starts as a newcomer's first start does (setup, migrations, demo data)
// and leaves the developer's demo data alone.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const port = process.env.E2E_DEV_PORT ?? "5198";
const state = process.env.SB_STATE_DIR ?? ".state-e2e-dev";
rmSync(join(root, state), { recursive: true, force: true });

const child = spawn("npm", ["run", "dev", "--", "--port", port, "--strictPort"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, SB_STATE_DIR: state },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
