#!/usr/bin/env node
// Measured at 100,000 creators (issue 45 §3, docs/scale.md, docs/performance.md). On a state filled by
// scripts/scale-state.mjs (N approved creators with a year of ledger, payout accounts, audit log,
// notifications, e-mails), served by the BUILT Worker on workerd (scripts/bench-server.mjs), it prints
// per page the Worker's CPU time per request (bench-cpu.mjs: workerd's inspector, the local D1 shim
// left out, as bench:pages --cpu-only) and the wall time of the same requests (D1 included: a slow
// statement shows there, not in the CPU):
//   cpu <path> p50 <ms> ms p95 <ms> ms wall p50 <ms> ms
// Goal: ≤ 5 ms CPU p50 for each page people use every day at that size.
//
//   npm run bench:scale                                   fresh state (migrations, demo, 100,000 creators), build, measure
//   npm run bench:scale -- --creators 20000               a smaller state
//   BENCH_REUSE=1 npm run bench:scale                     the last run's state and build (the fill takes minutes)
//   BENCH_REBUILD=1 npm run bench:scale                   the last run's state, the code as it is now
//   npm run bench:scale -- --steps pages,import,payout    which benches run (default: pages)
//
// The steps `import` and `payout` are the hooks for the revenue import Workflow and the payout-day
// Workflow (issue 45 §1, §2): benchImport and benchPayoutDay below get the running server, the
// admin's cookie and the state's facts, and print their lines; they say "not measured" until those
// Workflows land.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { cpuPerRequest } from "./bench-cpu.mjs";
import { benchArgs, pct, printLoadAverage, printYardstick, root, signIn } from "./bench-lib.mjs";
import { startBenchServer } from "./bench-server.mjs";
import { scaleEmail } from "./scale-ids.mjs";
import { d1FileOf, fillScaleState, sqliteBytes } from "./scale-state.mjs";

const { values, base } = benchArgs({
  port: { type: "string", default: "4190" },
  inspector: { type: "string", default: "9190" },
  state: { type: "string", default: ".state-scale" },
  creators: { type: "string", default: "100000" },
  seed: { type: "string", default: "45" },
  mode: { type: "string", default: "devtools" },
  requests: { type: "string", default: "60" },
  interval: { type: "string", default: "100" },
  steps: { type: "string", default: "pages" },
  report: { type: "string" },
});
process.env.BENCH_INSPECT = values.inspector;
const CREATORS = Number(values.creators);

/** The pages people use every day, as whom. `creator` is a filled creator (the middle one), not the demo's. */
export const SCALE_PAGES = [
  { path: "/admin", as: "admin", what: "users, first page" },
  { path: "/admin?q=scale4242", as: "admin", what: "users search" },
  { path: "/admin/audit-log", as: "admin", what: "audit log" },
  { path: "/admin/payments", as: "admin", what: "payments" },
  { path: "/payments", as: "creator", what: "a creator's payments" },
  { path: "/dashboard", as: "creator", what: "a creator's dashboard" },
];

/** Wall time of one request, ms (D1 included). */
async function wall(url, headers) {
  const t = performance.now();
  const res = await fetch(url, { headers, redirect: "manual" });
  await res.arrayBuffer();
  return performance.now() - t;
}

/** The CPU and wall time of each page; returns the rows. */
export async function benchPages(ctx) {
  const rows = [];
  for (const page of SCALE_PAGES) {
    const headers = { Cookie: ctx.cookies[page.as] };
    const check = await fetch(base + page.path, { headers, redirect: "manual" });
    await check.arrayBuffer();
    if (check.status !== 200) console.log(`warning: ${page.path} as ${page.as} answered ${check.status}`);
    const walls = [];
    for (let i = 0; i < 5; i++) walls.push(await wall(base + page.path, headers)); // warm-up, and the wall times
    const [cpu] = await cpuPerRequest([{ inspectorPort: values.inspector, url: base + page.path, headers }], {
      requests: Number(values.requests),
      interval: Number(values.interval),
    });
    cpu.sort((a, b) => a - b);
    for (let i = 0; i < 10; i++) walls.push(await wall(base + page.path, headers));
    walls.sort((a, b) => a - b);
    rows.push({ ...page, status: check.status, p50: pct(cpu, 50), p95: pct(cpu, 95), wall: pct(walls, 50), spacing: cpu.spacingUs });
    console.error(`[bench-scale] ${page.path}: CPU p50 ${pct(cpu, 50).toFixed(1)} ms, wall p50 ${pct(walls, 50).toFixed(0)} ms`);
  }
  console.log(
    `\nWorker CPU per request at ${CREATORS.toLocaleString("en-US")} creators (${values.requests} requests a page, one at a time; local D1 shim not counted in cpu, counted in wall):`,
  );
  for (const r of rows)
    console.log(
      `cpu ${r.path} p50 ${r.p50.toFixed(1)} ms p95 ${r.p95.toFixed(1)} ms wall p50 ${r.wall.toFixed(0)} ms  (${r.what}, as ${r.as}, HTTP ${r.status})`,
    );
  // The machine's yardstick, as bench:pages prints it: one argon2id hash and verify (46 ms on the idle 2-core VM of 2026-11-28).
  await printYardstick(base, { inspectorPort: values.inspector, interval: Number(values.interval), mode: values.mode });
  const over = rows.filter((r) => r.p50 > 5).map((r) => `${r.path} ${r.p50.toFixed(1)} ms`);
  console.log(`goal: every page ≤ 5 ms CPU p50: ${over.length ? `over: ${over.join(", ")}` : "met"}`);
  return rows;
}

/**
 * HOOK (issue 45 §1): the revenue report of scripts/gen-revenue-report.mjs (`--report <file>`, its
 * expected totals in <file>.expected.json) uploaded to R2 in parts, read and staged by the import
 * Workflow, previewed and committed through the admin's screens. To print: upload, parse and stage
 * time, rows per second, peak memory and CPU of the heaviest step, and whether the statements' totals
 * equal the expected ones to the cent (expected.netCents, expected.amountCents, expected.entries; per
 * channel in <file>.expected-entries.csv).
 */
export async function benchImport(ctx) {
  const expected = values.report && existsSync(`${values.report}.expected.json`) ? JSON.parse(readFileSync(`${values.report}.expected.json`, "utf8")) : null;
  console.log(
    `import: not measured yet (the import Workflow of issue 45 §1 is not in this tree)${expected ? `; the report expects ${expected.netCents} net cents, ${expected.amountCents} amount cents, ${expected.entries} entries` : ""}`,
  );
  void ctx;
  return null;
}

/**
 * HOOK (issue 45 §2): the payout day for the state's finalized unpaid months (ctx.unpaidPeople
 * payouts) against the Stripe stand-in: wall time, transfers per second, then a kill mid-run and a
 * rerun, checking that each person is paid exactly once (payouts per user per batch, transfers at the
 * stand-in per payout).
 */
export async function benchPayoutDay(ctx) {
  console.log(
    `payout day: not measured yet (the payout Workflow of issue 45 §2 is not in this tree); ${ctx.unpaidPeople.toLocaleString("en-US")} people are due`,
  );
  return null;
}

const STEPS = { pages: benchPages, import: benchImport, payout: benchPayoutDay };

const server = await startBenchServer({
  stateDir: values.state,
  port: values.port,
  mode: values.mode,
  reuse: process.env.BENCH_REUSE === "1",
  prepare: async (stateDir) => {
    const r = await fillScaleState(stateDir, { creators: CREATORS, seed: Number(values.seed) });
    console.log(`state: ${CREATORS.toLocaleString("en-US")} creators filled in ${r.seconds.toFixed(1)} s (${(r.bytes / 1024 ** 3).toFixed(2)} GB of D1)`);
  },
});
try {
  const file = d1FileOf(values.state);
  const facts = new DatabaseSync(file, { readOnly: true });
  const creators = Number(facts.prepare("SELECT count(*) AS n FROM profiles WHERE creator_id LIKE 'SC%'").get().n);
  const unpaidPeople = Number(
    facts.prepare("SELECT count(DISTINCT user_id) AS n FROM ledger_entries WHERE status = 'finalized' AND payout_id IS NULL").get().n,
  );
  facts.close();
  console.log(`\n${server.kind}`);
  console.log(`state: ${values.state}, ${creators.toLocaleString("en-US")} filled creators, D1 file ${(sqliteBytes(file) / 1024 ** 3).toFixed(2)} GB`);
  const middle = Math.floor(Math.max(1, creators) / 2);
  // A state without filled creators (the demo's alone, for a baseline on the same build): the demo creator.
  const cookies = { admin: await signIn(base, "admin@shortbeat.test"), creator: await signIn(base, creators ? scaleEmail(middle) : "creator@shortbeat.test") };
  const ctx = {
    base,
    cookies,
    server,
    creators,
    unpaidPeople,
    stateDir: resolve(root, values.state),
    d1File: file,
    reportFile: values.report ? join(root, values.report) : null,
  };
  for (const step of values.steps.split(",")) {
    if (!STEPS[step]) throw new Error(`unknown step ${step} (pages, import, payout)`);
    await STEPS[step](ctx);
  }
  printLoadAverage();
} finally {
  await server.dispose();
}
process.exit(0);
