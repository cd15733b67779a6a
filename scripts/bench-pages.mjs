#!/usr/bin/env node
// Page benchmark on workerd: the built Worker served by workerd itself (scripts/bench-server.mjs,
// no Node proxy), its own state with the demo data. Every main page (scripts/bench-pages.routes.mjs)
// is loaded as the right user (a session cookie from signing in through the form) and measured
// against /healthz IN THE SAME RUN: each page's time is cut into slices that alternate with
// /healthz slices, so a machine shared with other work loads both alike. Then the Worker's CPU time
// per request of every page, from workerd's inspector (scripts/bench-cpu.mjs: the app isolate's
// sampled busy time, request by request, the local D1 shim left out), one line per page that a
// script can read:
//   cpu <path> p50 <ms> ms p95 <ms> ms
// Prints figures; asserts nothing. Goals (issue 32): every signed-in page ≤ 5 ms CPU p50,
// /dashboard ≤ 3 ms (the Free plan stops a request at 10 ms).
//   npm run bench:pages [-- --duration 10 --slices 2 --connections 20 --only /dashboard,/]
//   npm run bench:pages -- --cpu-only [--requests 200]        (CPU lines only, no throughput slices)
//   BENCH_REUSE=1 npm run bench:pages -- --state <folder>     (that folder's state and build again)
//   npm run bench:pages -- --cpu-only --against <folder>      (A/B: also serves that folder's state and build on
//                                                              workerd of its own; requests alternate between the two)
//   npm run bench:pages -- --cpu-only --against-tree <worktree> (A/B of two trees on the same data: that worktree (e.g.
//                                                              `git worktree add --detach ../old main`, node_modules linked)
//                                                              is built into <state>-against with a copy of this run's
//                                                              fresh state, then served as with --against)
//   (the other build's workerd listens on --port + 1 and --inspector + 1, or on --against-port / --against-inspector)
import autocannon from "autocannon";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { cpuPerRequest } from "./bench-cpu.mjs";
import { benchArgs, pct, printLoadAverage, printYardstick, signIn } from "./bench-lib.mjs";
import { ACCOUNTS, ROUTES } from "./bench-pages.routes.mjs";
import { startBenchServer } from "./bench-server.mjs";

const { values, base } = benchArgs({
  duration: { type: "string", default: "10" },
  slices: { type: "string", default: "2" },
  connections: { type: "string", default: "20" },
  port: { type: "string", default: "4180" },
  mode: { type: "string", default: "devtools" },
  only: { type: "string" },
  state: { type: "string", default: ".state-bench" },
  inspector: { type: "string", default: "9180" },
  requests: { type: "string", default: "100" },
  interval: { type: "string", default: "100" },
  "cpu-only": { type: "boolean", default: false },
  against: { type: "string" },
  "against-tree": { type: "string" },
  // The other build's workerd: the next ports by default (--against-port / --against-inspector when those are taken).
  "against-port": { type: "string" },
  "against-inspector": { type: "string" },
});
if (values["against-tree"]) values.against = `${values.state}-against`;
process.env.BENCH_INSPECT = values.inspector;
const SLICES = Math.max(1, Number(values.slices));
const SLICE_S = Math.max(1, Number(values.duration) / SLICES);
const CONNECTIONS = Number(values.connections);

function run(path, headers = {}, seconds = SLICE_S) {
  return new Promise((resolvePromise, reject) => {
    autocannon({ url: base + path, duration: seconds, connections: CONNECTIONS, headers }, (err, result) => (err ? reject(err) : resolvePromise(result)));
  });
}

/** The mean of the middle 80 % of sorted figures (the fastest and slowest tenth left out). */
const middleMean = (sorted) => {
  const cut = Math.floor(sorted.length / 10);
  const mid = sorted.slice(cut, sorted.length - cut);
  return mid.reduce((a, b) => a + b, 0) / Math.max(1, mid.length);
};

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * --against-tree: the other tree built into `<state>-against`, on a copy of this run's fresh state
 * (the same rows, ids and sessions' users), before either server opens it. Its .dev.vars is this
 * tree's, so both builds carry the same secrets.
 */
function buildOtherTree(stateDir) {
  const tree = resolve(values["against-tree"]);
  const target = resolve(values.against);
  rmSync(target, { recursive: true, force: true });
  cpSync(join(stateDir, "v3"), join(target, "v3"), { recursive: true });
  if (existsSync(".dev.vars")) cpSync(".dev.vars", join(tree, ".dev.vars"));
  console.error(`[bench] building ${tree} (${values.mode}) into ${values.against}/build…`);
  const built = spawnSync(process.execPath, ["node_modules/.bin/react-router", "build", "--mode", values.mode], {
    cwd: tree,
    env: { ...process.env, SB_BUILD_DIR: join(target, "build") },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (built.status !== 0) throw new Error(`building ${tree} failed (exit ${built.status})`);
}

const server = await startBenchServer({
  stateDir: values.state,
  port: values.port,
  mode: values.mode,
  reuse: process.env.BENCH_REUSE === "1",
  prepare: values["against-tree"] ? buildOtherTree : undefined,
});
// --against: the other build of an A/B, its own workerd on the next ports (always its folder's state and build as they are).
const otherPort = Number(values["against-port"] ?? Number(values.port) + 1);
const otherInspector = Number(values["against-inspector"] ?? Number(values.inspector) + 1);
const other = values.against ? await startBenchServer({ stateDir: values.against, port: otherPort, inspectorPort: otherInspector, reuse: true }) : null;
try {
  const only = values.only?.split(",");
  const routes = ROUTES.filter((r) => !only || only.includes(r.path));
  const cookies = {};
  const otherCookies = {};
  for (const kind of new Set(routes.map((r) => r.as).filter(Boolean))) {
    cookies[kind] = await signIn(base, ACCOUNTS[kind]);
    if (other) otherCookies[kind] = await signIn(other.url, ACCOUNTS[kind]);
  }

  const rows = [];
  const cpuRows = [];
  const spacings = [];
  for (const r of routes) {
    const headers = r.as ? { Cookie: cookies[r.as] } : {};
    const check = await fetch(base + r.path, { headers, redirect: "manual" });
    await check.arrayBuffer();
    await run(r.path, headers, 1); // warm-up, discarded
    const targets = [{ inspectorPort: values.inspector, url: base + r.path, headers }];
    if (other) targets.push({ inspectorPort: otherInspector, url: other.url + r.path, headers: r.as ? { Cookie: otherCookies[r.as] } : {} });
    const [cpu, otherCpu] = (await cpuPerRequest(targets, { requests: Number(values.requests), interval: Number(values.interval) })).map((xs) =>
      xs.sort((a, b) => a - b),
    );
    cpuRows.push({ path: r.path, as: r.as ?? "-", status: check.status, p50: pct(cpu, 50), p95: pct(cpu, 95), all: cpu, other: otherCpu });
    spacings.push(cpu.spacingUs);
    // A request that took no sample at all did run: on a machine too busy for the sampler's thread,
    // samples are lost and every figure reads low. Say so rather than print it as a measurement.
    const empty = cpu.filter((ms) => ms === 0).length;
    if (empty > cpu.length / 3)
      console.log(`warning: ${empty} of ${cpu.length} requests to ${r.path} took no sample: the machine is too busy for the sampler, so its figures read low`);
    console.error(`[bench] ${r.path}: CPU p50 ${pct(cpu, 50).toFixed(1)} ms${otherCpu ? ` (${values.against}: ${pct(otherCpu, 50).toFixed(1)} ms)` : ""}`);
    if (values["cpu-only"]) continue;
    let pageRequests = 0;
    let healthRequests = 0;
    const p99Ratios = [];
    const p50s = [];
    const p99s = [];
    let non2xx = 0;
    let errors = 0;
    for (let i = 0; i < SLICES; i++) {
      const h = await run("/healthz");
      const p = await run(r.path, headers);
      healthRequests += h.requests.total;
      pageRequests += p.requests.total;
      p99Ratios.push(p.latency.p99 / Math.max(1, h.latency.p99));
      p50s.push(p.latency.p50);
      p99s.push(p.latency.p99);
      non2xx += p.non2xx;
      errors += p.errors;
    }
    const ratio = pageRequests / Math.max(1, healthRequests);
    rows.push({
      page: r.path,
      as: r.as ?? "-",
      status: check.status,
      "req/s": Math.round(pageRequests / (SLICES * SLICE_S)),
      "/healthz req/s": Math.round(healthRequests / (SLICES * SLICE_S)),
      "throughput ×": ratio.toFixed(2),
      "p50 ms": median(p50s),
      "p99 ms": median(p99s),
      "p99 ×": median(p99Ratios).toFixed(1),
      "non-2xx": non2xx,
      errors,
    });
    console.error(`[bench] ${r.path}: ${ratio.toFixed(2)}× /healthz`);
  }
  console.log(`\nPages on ${server.kind}`);
  if (!values["cpu-only"]) {
    console.log(`${CONNECTIONS} connections; per page ${SLICES} × (${SLICE_S} s /healthz + ${SLICE_S} s page), ratios from those paired slices.`);
    console.table(rows);
  }
  console.log(
    `\nWorker CPU time per request (V8 inspector of the app's isolate, samples asked every ${values.interval} µs and counted at their median spacing, ${spacings.length ? `${Math.min(...spacings)}–${Math.max(...spacings)} µs` : "none"}; ${values.requests} requests one at a time, local D1 shim not counted):`,
  );
  for (const c of cpuRows) console.log(`cpu ${c.path} p50 ${c.p50.toFixed(1)} ms p95 ${c.p95.toFixed(1)} ms`);
  if (other) {
    const otherName = values["against-tree"] ? `${values["against-tree"]} (its build, on a copy of the same data)` : values.against;
    console.log(`\nA/B, requests alternating: ${values.state} (this build) against ${otherName} (${other.kind})`);
    console.table(
      cpuRows.map((c) => ({
        page: c.path,
        [`${values.state} p50`]: c.p50.toFixed(2),
        [`${values.against} p50`]: pct(c.other, 50).toFixed(2),
        "p50 ×": (c.p50 / pct(c.other, 50)).toFixed(2),
        // p50 moves in whole samples (about 0.2 ms, 4 % of a 5 ms page); the mean of the middle 80 %
        // of the requests does not, and is what a change of a few per cent shows in.
        "mid-80 % mean ×": (middleMean(c.all) / middleMean(c.other)).toFixed(3),
        [`${values.state} p95`]: c.p95.toFixed(2),
        [`${values.against} p95`]: pct(c.other, 95).toFixed(2),
      })),
    );
  }
  await printYardstick(base, { inspectorPort: values.inspector, interval: Number(values.interval), mode: values.mode });
  const signedIn = cpuRows.filter((c) => c.as !== "-");
  const over = signedIn.filter((c) => c.p50 > (c.path === "/dashboard" ? 3 : 5)).map((c) => `${c.path} ${c.p50.toFixed(1)} ms`);
  console.log(`goals: /dashboard ≤ 3 ms p50, every signed-in page ≤ 5 ms p50: ${over.length ? `over: ${over.join(", ")}` : "met"}`);
  printLoadAverage();
} finally {
  await server.dispose();
  await other?.dispose();
}
process.exit(0);
