import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

// The build tests build the app in a temporary copy of the project (node_modules linked), so they
// never touch build/ or .wrangler/deploy/ of the working tree, which a running Playwright server uses.

export const root = resolve(import.meta.dirname, "../..");
const PROJECT_FILES = ["app", "workers", "public", "package.json", "tsconfig.json", "vite.config.ts", "react-router.config.ts", "wrangler.toml"];

/** A clean environment: vitest's NODE_ENV=test would make a development bundle. No colours in what the tools print. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => k !== "NODE_ENV" && !k.startsWith("VITEST") && k !== "TEST" && k !== "FORCE_COLOR"),
  );
  return { ...env, NO_COLOR: "1", WRANGLER_SEND_METRICS: "false" } as unknown as NodeJS.ProcessEnv;
}

/** Runs a command in `cwd`; resolves with its stdout, rejects with the end of its output. */
export function run(cwd: string, args: string[], what: string): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("exit", (code) => (code === 0 ? done(stdout) : fail(new Error(`${what} failed:\n${(stdout + stderr).slice(-4000)}`))));
  });
}

/** `react-router build [--mode mode]` in a fresh copy of the project; returns the copy's folder. */
export async function buildProject(mode?: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "shortbeat-build-"));
  for (const f of PROJECT_FILES) cpSync(join(root, f), join(dir, f), { recursive: true });
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  await run(dir, [join(root, "node_modules/.bin/react-router"), "build", ...(mode ? ["--mode", mode] : [])], `react-router build ${mode ?? ""}`);
  return dir;
}
