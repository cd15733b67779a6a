#!/usr/bin/env node
// The server the benchmarks measure: the BUILT Worker served by workerd itself, through Miniflare's
// own socket. No `vite preview` / `vite dev` (their Node HTTP server proxies every request to
// workerd) and no `wrangler dev` (it puts a proxy Worker in front). One hop: client → workerd.
//
//   startBenchServer({ stateDir, port, mode, prepare }) → { url, kind, pid, dispose }
//   node scripts/bench-server.mjs [--port 4190] [--mode devtools] [--state .state-bench]   (stand-alone)
//
// Steps: a fresh local state folder (migrations + demo data through setup-local.mjs, then the
// caller's `prepare(stateDir)` for extra rows), a build (`react-router build --mode <mode>`) into
// the state folder (SB_BUILD_DIR; the shared build/ belongs to the Playwright runs), then
// Miniflare configured from the build's build/server/wrangler.json (the file the Cloudflare Vite
// plugin emits; its .dev.vars sits next to it) with the state folder persisted, so the seeded data
// is what the Worker sees.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, readlinkSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const root = resolve(import.meta.dirname, "..");
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
process.env.WRANGLER_SEND_METRICS ??= "false";
const log = (...args) => console.error("[bench-server]", ...args);

/** Migrations and demo data into a fresh `stateDir` (the same steps as scripts/e2e-server.mjs). */
async function freshState(stateDir) {
  rmSync(stateDir, { recursive: true, force: true });
  process.env.SB_STATE_DIR = stateDir;
  // setup-local.mjs reads SB_STATE_DIR when it is first imported: import it after setting it.
  const { ensureDevVars, seed } = await import("./setup-local.mjs");
  ensureDevVars();
  // setup-local's applyMigrations prints wrangler's tables on stdout, where the figures go.
  const migrate = spawnSync(process.execPath, ["node_modules/.bin/wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, CI: "true" },
  });
  if (migrate.status !== 0) throw new Error("applying D1 migrations failed");
  await seed();
}

/** Builds the app into `target` (SB_BUILD_DIR, react-router.config.ts): not the shared build/ that Playwright runs use. */
function buildInto(target, mode) {
  rmSync(target, { recursive: true, force: true });
  const result = spawnSync(process.execPath, ["node_modules/.bin/react-router", "build", "--mode", mode], {
    cwd: root,
    env: { ...process.env, SB_BUILD_DIR: target },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (result.status !== 0) throw new Error(`build failed (exit ${result.status})`);
}

/** The Worker's modules as the build wrote them: the entry first, its chunks, the WebAssembly. */
function serverModules(serverDir, main) {
  const files = readdirSync(serverDir, { recursive: true }).filter((f) => /\.(m?js|wasm)$/.test(f));
  const ordered = [main, ...files.filter((f) => f !== main)];
  return ordered.map((f) => ({ type: f.endsWith(".wasm") ? "CompiledWasm" : "ESModule", path: f }));
}

/** The process that owns the listening TCP port: proves which server answers. */
function listenerOf(port) {
  try {
    const out = execFileSync("ss", ["-ltnpH", `sport = :${port}`], { encoding: "utf8" });
    const m = out.match(/users:\(\("([^"]+)",pid=(\d+)/);
    if (m) return `${m[1]} (pid ${m[2]})`;
  } catch {}
  // No ss: look the socket's inode up in /proc.
  try {
    const hex = Number(port).toString(16).toUpperCase().padStart(4, "0");
    const inodes = new Set(
      readFileSync("/proc/net/tcp", "utf8")
        .split("\n")
        .filter((l) => l.includes(`:${hex} `) && l.trim().split(/\s+/)[3] === "0A")
        .map((l) => l.trim().split(/\s+/)[9]),
    );
    for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
      try {
        for (const fd of readdirSync(`/proc/${pid}/fd`)) {
          const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
          const inode = link.match(/^socket:\[(\d+)\]$/)?.[1];
          if (inode && inodes.has(inode)) return `${readFileSync(`/proc/${pid}/comm`, "utf8").trim()} (pid ${pid})`;
        }
      } catch {}
    }
  } catch {}
  return "unknown";
}

/**
 * Starts the built Worker on workerd. `prepare(stateDir)` runs after the demo data and before the
 * server opens the state (e.g. to add many users). Returns the base URL and a dispose function.
 */
export async function startBenchServer({
  stateDir = ".state-bench",
  port = 4190,
  mode = "devtools",
  prepare,
  reuse = false,
  inspectorPort = process.env.BENCH_INSPECT,
} = {}) {
  const state = resolve(root, stateDir);
  const buildCopy = join(state, "build");
  if (reuse && existsSync(join(buildCopy, "server/wrangler.json"))) {
    // BENCH_REUSE=1: the state and build of the previous run (quicker while iterating on a bench).
    log(`reusing ${stateDir} and its build`);
  } else if (process.env.BENCH_REBUILD === "1" && existsSync(join(state, "v3"))) {
    // BENCH_REBUILD=1: the state of the previous run, the code as it is now (an A/B of a change on the same data).
    log(`reusing ${stateDir}, building (${mode}) into ${stateDir}/build…`);
    buildInto(buildCopy, mode);
  } else {
    log(`fresh state in ${stateDir} (migrations, demo data)…`);
    await freshState(state);
    if (prepare) await prepare(state);
    log(`building (${mode}) into ${stateDir}/build…`);
    buildInto(buildCopy, mode);
  }

  const { unstable_getMiniflareWorkerOptions } = await import("wrangler");
  const { Miniflare, convertV4MiniflareOptions } = await import("miniflare");
  const configPath = join(buildCopy, "server/wrangler.json");
  const { workerOptions, main } = unstable_getMiniflareWorkerOptions(configPath);
  // modulesRules cannot be converted to Miniflare 5's options: list the build's modules instead.
  const { modulesRules: _rules, ...withoutRules } = workerOptions;
  const serverDir = join(buildCopy, "server");
  // wrangler hands Miniflare 5 its options in the v4 shape too (convertV4MiniflareOptions).
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      workers: [{ ...withoutRules, name: "shortbeat", modulesRoot: serverDir, modules: serverModules(serverDir, main) }],
      host: "127.0.0.1",
      port: Number(port),
      resourcePersistencePath: join(state, "v3"),
      cf: false,
      // inspectorPort (or BENCH_INSPECT=<port>): the DevTools protocol of workerd, to take a CPU profile of the Worker.
      ...(inspectorPort ? { inspectorPort: Number(inspectorPort) } : {}),
    }),
  );
  const url = (await mf.ready).origin;
  const workerdVersion = JSON.parse(readFileSync(join(root, "node_modules/workerd/package.json"), "utf8")).version;
  const miniflareVersion = JSON.parse(readFileSync(join(root, "node_modules/miniflare/package.json"), "utf8")).version;
  const owner = listenerOf(new URL(url).port);
  const kind = `workerd ${workerdVersion} via Miniflare ${miniflareVersion} (built Worker, ${mode} build, ${configPath.replace(`${root}/`, "")}); ${url} is served by ${owner}; no Node proxy`;
  log(`server: ${kind}`);
  // The workerd process itself (its threads' CPU time: scripts/bench-notifications.mjs).
  const pid = Number(owner.match(/pid (\d+)/)?.[1]) || null;
  return { url, kind, mf, pid, dispose: () => mf.dispose() };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "4190" },
      mode: { type: "string", default: "devtools" },
      state: { type: "string", default: ".state-bench" },
    },
  });
  const server = await startBenchServer({ stateDir: values.state, port: values.port, mode: values.mode, reuse: process.env.BENCH_REUSE === "1" });
  console.log(`ready ${server.url}`);
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, async () => {
      await server.dispose();
      process.exit(0);
    });
  }
}
