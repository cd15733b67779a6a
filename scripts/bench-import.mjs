#!/usr/bin/env node
// A month's revenue report of any size, end to end through the app's own screens (issue 45 §1 and §3,
// docs/decisions/0334, 0335): on a bench state filled for N creators (scripts/scale-state.mjs), a
// generated YouTube content-owner report over their channels (scripts/gen-revenue-report.mjs, reused
// when one of the same month, rows, channels and seed is there) is uploaded as the admin's browser
// uploads it on /admin/payments (app/modules/payments/components/revenue-report.tsx: POST
// /admin/payments/report, intent start with the first 8 MiB part, then part, then complete, each a
// multipart form with the session cookie and our Origin, a 5xx retried as the component retries it),
// the RevenueImportWorkflow reads it while the bench polls GET /admin/payments/report?id=… every 2 s
// and prints rows read, matched, problems and bytes, then the staged preview is committed through the
// page's own form action (POST /admin/payments intent=commit). Then the committed statements are read
// from the state's SQLite file (node:sqlite, read-only) and checked against the generator's expected
// totals exact to the cent: the import's totals, the sum of its ledger entries, and every creator's
// line (net and amount). PASS/FAIL, exit code 1 on FAIL.
//
// Measured: the upload's wall time; parse+stage (complete → staged) wall time; rows per second; and
// per Workflow step its wall time, CPU time and the app isolate's peak JS heap. CPU: workerd's V8
// inspector on the app's isolate (core:user:shortbeat, where the Workflow's steps run: the Workflow
// engine is a Durable Object of Miniflare's that calls our WorkflowEntrypoint in our isolate), its
// CPU profiler sampling every --interval µs, in 10 s chunks; a step's CPU is its busy samples × the
// chunk's median sample spacing (scripts/bench-cpu.mjs explains why a count, not V8's time deltas).
// Step windows come from the report row's `steps` counter and status, watched every 100 ms from the
// SQLite file read-only (no request to the isolate). The local D1's SQLite runs in its own isolate
// and is not counted (on Cloudflare, D1's time is not the Worker's CPU either). Memory: the isolate's
// V8 heap (Runtime.getHeapUsage: used, and the heap's total size) every 250 ms — a sample lands
// between the isolate's tasks, so a peak inside one synchronous stretch can be missed — and workerd's
// whole process peak RSS (VmHWM: every isolate, D1's SQLite, R2's files).
//
//   npm run bench:import [-- --creators 100000 --rows 5000000 --seed 45 --month YYYY-MM --port 5192]
//   nice -n 10 npm run bench:import -- --creators 2000 --rows 20000        (a quick one)
// BENCH_REUSE=1: the state and build of the previous run (the month then defaults to the next one
// back without an import). The state folder is --state (.state-bench-import); reports are kept in
// --reports (.state-import-reports).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { open, stat } from "node:fs/promises";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { benchArgs, pct, root, signIn } from "./bench-lib.mjs";
import { APP_ISOLATE, inspect, sampleSpacing } from "./bench-cpu.mjs";
import { startBenchServer } from "./bench-server.mjs";
import { monthBefore } from "./scale-ids.mjs";
import { d1FileOf, fillScaleState } from "./scale-state.mjs";

const { values } = benchArgs({
  creators: { type: "string", default: "100000" },
  rows: { type: "string", default: "5000000" },
  seed: { type: "string", default: "45" },
  month: { type: "string" },
  port: { type: "string", default: "5192" },
  mode: { type: "string", default: "production" },
  state: { type: "string", default: ".state-bench-import" },
  reports: { type: "string", default: ".state-import-reports" },
  interval: { type: "string", default: "1000" },
});
const CREATORS = Number(values.creators);
const ROWS = Number(values.rows);
const SEED = Number(values.seed);
const PART = 8 * 1024 * 1024; // REPORT_PART_BYTES (app/modules/payments/report-messages.ts)
const reuse = process.env.BENCH_REUSE === "1";
const log = (...args) => console.error("[bench:import]", ...args);
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
const mib = (b) => `${(b / 1024 / 1024).toFixed(1)} MiB`;
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
// https://developers.cloudflare.com/workflows/reference/limits/ — Workers Paid: "Compute time per step:
// 30 seconds (default) / configurable to 5 minutes of active CPU time"; Workers Free: 10 ms.
// https://developers.cloudflare.com/workers/platform/limits/#memory — 128 MB per isolate.
const STEP_CPU_LIMIT_MS = 30_000;
const MEMORY_LIMIT = 128 * 1024 * 1024;

/** A free TCP port for workerd's inspector (not a fixed one: other benches share the machine). */
function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.on("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

/** Peak resident memory of a process so far (VmHWM, bytes). */
function peakRss(pid) {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

// ---------------------------------------------------------------------------------------------
// 1. The state (N creators) and the report (generated, or the one of the same size and seed)
// ---------------------------------------------------------------------------------------------
const inspectorPort = await freePort();
const server = await startBenchServer({
  stateDir: values.state,
  port: values.port,
  mode: values.mode,
  reuse,
  inspectorPort,
  prepare: async (stateDir) => {
    log(`filling ${stateDir} with ${CREATORS.toLocaleString("en-US")} creators (scripts/scale-state.mjs)…`);
    const r = await fillScaleState(stateDir, { creators: CREATORS, seed: SEED, log });
    log(`filled in ${r.seconds.toFixed(0)} s (${(r.bytes / 1024 ** 3).toFixed(2)} GB)`);
  },
});
const base = server.url.replace(/\/$/, "");
const dbFile = d1FileOf(values.state);
const readDb = () => new DatabaseSync(dbFile, { readOnly: true });

/** The month: --month, else the first month back from 13 months ago with no import yet (a reused state has imported the newer ones). */
function chooseMonth() {
  if (values.month) return values.month;
  const db = readDb();
  try {
    for (let k = 13; k < 60; k++) {
      const m = monthBefore(new Date(), k);
      if (!db.prepare("SELECT 1 FROM revenue_imports WHERE month = ? LIMIT 1").get(m)) return m;
    }
  } finally {
    db.close();
  }
  throw new Error("no free month in the last five years");
}
const MONTH = chooseMonth();
const reportFile = resolve(root, values.reports, `youtube-${MONTH}-r${ROWS}-c${CREATORS}-s${SEED}.csv`);
const expectedOf = () => JSON.parse(readFileSync(`${reportFile}.expected.json`, "utf8"));
if (!existsSync(`${reportFile}.expected.json`) || expectedOf().rows !== ROWS) {
  log(`generating ${reportFile.replace(`${root}/`, "")} (scripts/gen-revenue-report.mjs)…`);
  const gen = spawnSync(
    process.execPath,
    ["scripts/gen-revenue-report.mjs", "--rows", String(ROWS), "--channels", String(CREATORS), "--month", MONTH, "--seed", String(SEED), "--out", reportFile],
    { cwd: root, stdio: ["ignore", "inherit", "inherit"] },
  );
  if (gen.status !== 0) throw new Error("generating the report failed");
} else log(`reusing ${reportFile.replace(`${root}/`, "")}`);
const expected = expectedOf();
const size = (await stat(reportFile)).size;
log(`${server.kind}`);
log(`report: ${ROWS.toLocaleString("en-US")} rows, ${mib(size)}, ${MONTH}, over ${CREATORS.toLocaleString("en-US")} creators' channels`);

// ---------------------------------------------------------------------------------------------
// 2. Sign in as the demo admin, then upload as the page's uploader does
// ---------------------------------------------------------------------------------------------
const cookie = await signIn(base, "admin@shortbeat.test");

/** One POST to /admin/payments/report as the component's send(): a 5xx or a dropped connection retried (4 attempts). */
async function send(fields) {
  let last = "";
  for (let attempt = 0; attempt < 4; attempt++) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) {
      if (v instanceof Blob) form.set(k, v, reportFile.split("/").pop());
      else form.set(k, v);
    }
    try {
      const res = await fetch(`${base}/admin/payments/report`, { method: "POST", headers: { Cookie: cookie, Origin: base }, body: form });
      const body = await res.json().catch(() => null);
      if (res.ok && body?.ok) return body;
      if (res.status < 500) throw new Error(`${fields.intent}: HTTP ${res.status} ${JSON.stringify(body)}`);
      last = `HTTP ${res.status} ${JSON.stringify(body)}`;
    } catch (error) {
      if (String(error.message).startsWith(`${fields.intent}:`)) throw error;
      last = error.message;
    }
    await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
  }
  throw new Error(`${fields.intent}: ${last}`);
}

const file = await open(reportFile);
const partCount = Math.max(1, Math.ceil(size / PART));
async function part(n) {
  const from = (n - 1) * PART;
  const buf = Buffer.allocUnsafe(Math.min(size, n * PART) - from);
  await file.read(buf, 0, buf.length, from);
  return new Blob([buf], { type: "text/csv" });
}
const uploadStarted = performance.now();
const first = await send({ intent: "start", month: MONTH, name: reportFile.split("/").pop(), size: String(size), chunk: await part(1) });
const reportId = first.reportId;
const done = new Set(first.uploaded);
for (let n = 1; n <= partCount; n++) {
  if (done.has(n)) continue;
  await send({ intent: "part", reportId, partNumber: String(n), chunk: await part(n) });
  done.add(n);
  if (n % 10 === 0 || n === partCount) process.stderr.write(`\r[bench:import] uploading: part ${n} of ${partCount}   `);
}
process.stderr.write("\n");
await file.close();

// The inspector session and the watchers start before `complete`, which starts the Workflow.
// BENCH_PROFILE=0: no inspector (no CPU or heap figures), to tell the profiler's own cost apart.
const profile = process.env.BENCH_PROFILE !== "0";
const session = profile
  ? await inspect(inspectorPort, APP_ISOLATE)
  : { send: async () => ({ profile: { nodes: [], samples: [], timeDeltas: [], startTime: 0 } }), close() {} };
await session.send("Profiler.enable");
await session.send("Profiler.setSamplingInterval", { interval: Number(values.interval) });
await session.send("Profiler.start");
const busy = []; // [µs timestamp, µs of CPU] of each busy sample
const heap = []; // [µs, usedSize, totalSize]
let profiling = true;
async function profileChunks() {
  let last = performance.now();
  while (profiling) {
    await new Promise((r) => setTimeout(r, 250));
    if (profiling && performance.now() - last >= 10_000) {
      await takeChunk(true);
      last = performance.now();
    }
  }
}
async function takeChunk(again) {
  const { profile } = await session.send("Profiler.stop");
  if (again) await session.send("Profiler.start");
  const spacing = sampleSpacing(profile);
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (!idle.has(profile.samples[i])) busy.push([t, spacing]);
  }
}
// BENCH_GC=1: once every range is read, a full garbage collection before each heap sample, so the
// stage's samples are its live heap (what an isolate's limit bounds), not garbage V8 has not collected
// yet (locally nothing makes it collect early). BENCH_GC=all: before every sample from the upload's
// end, the range steps' too. It costs CPU: take the CPU figures from a run without it.
const gcMode = process.env.BENCH_GC ?? "";
const gcBeforeSample = gcMode === "1" || gcMode === "all";
/** Every range read (the poll loop below sets it). */
let allRead = false;
let gcFailed = false;
async function heapWatch() {
  while (profiling) {
    if (gcBeforeSample && (allRead || gcMode === "all") && !gcFailed)
      await session.send("HeapProfiler.collectGarbage").catch((error) => {
        gcFailed = true;
        log(`HeapProfiler.collectGarbage failed (${error.message}): heap samples include garbage`);
      });
    const h = await session.send("Runtime.getHeapUsage");
    if (h?.usedSize) heap.push([nowUs(), h.usedSize, h.totalSize]);
    await new Promise((r) => setTimeout(r, 250));
  }
}
const profiler = profileChunks();
const heapWatcher = heapWatch();

const uploadMs = performance.now() - uploadStarted;
const completeAtUs = nowUs();
await send({ intent: "complete", reportId });
const readStarted = performance.now();
log(`uploaded ${mib(size)} in ${partCount} parts in ${secs(uploadMs)} (${(size / 1024 / 1024 / (uploadMs / 1000)).toFixed(1)} MiB/s); the Workflow reads it…`);

// ---------------------------------------------------------------------------------------------
// 3. The Workflow: step boundaries from the report row (SQLite, read-only), progress from the app
// ---------------------------------------------------------------------------------------------
const boundaries = [{ us: completeAtUs, steps: 0, status: "reading" }];
const watchDb = readDb();
const rowQuery = watchDb.prepare("SELECT steps, status, next_offset >= size_bytes AS read, stage_step FROM revenue_reports WHERE id = ?");
// After the last range, the keys' slice steps (0344) run while the report still reads 'reading': the
// moment its last key is gone is a boundary of its own ("keys dropped"), so the stage step is timed alone.
const keysLeft = watchDb.prepare("SELECT EXISTS (SELECT 1 FROM revenue_report_keys WHERE report_id = ?) AS left");
let watching = true;
async function stepWatch() {
  while (watching) {
    const r = rowQuery.get(reportId);
    const lastB = boundaries.at(-1);
    // Then the stage's own steps (0350), each named on the report as it starts (stage_step).
    const phase =
      r?.status === "reading" && r.stage_step
        ? r.stage_step
        : r?.status === "reading" && r.read === 1 && keysLeft.get(reportId).left === 0
          ? "keys dropped"
          : r?.status;
    if (r && (r.steps !== lastB.steps || phase !== lastB.status)) boundaries.push({ us: nowUs(), steps: r.steps, status: phase });
    // Every 100 ms while reading; every 20 ms once read, as the stage's steps are short (0350).
    await new Promise((res) => setTimeout(res, allRead ? 20 : 100));
  }
}
const stepWatcher = stepWatch();

let report;
let httpAnswers = 0;
let httpTimeouts = 0;
const pollMs = []; // wall time of each progress poll the app answered (decision 0336)
// Polls after the last range was read: the keys dropped in slice steps, then the stage (decision 0344).
const lastPollMs = [];
let lastTimeouts = 0;
for (;;) {
  await new Promise((r) => setTimeout(r, 2000));
  allRead ||= watchDb.prepare("SELECT next_offset >= size_bytes AS done FROM revenue_reports WHERE id = ?").get(reportId)?.done === 1;
  const afterRanges = allRead;
  // The app's own progress answer; while it does not come within 10 s (it may not while the Workflow
  // runs: decision 0335), the report row read from SQLite, marked "(db)".
  let via = "";
  const asked = performance.now();
  try {
    const res = await fetch(`${base}/admin/payments/report?id=${reportId}`, { headers: { Cookie: cookie }, signal: AbortSignal.timeout(10_000) });
    report = (await res.json()).report;
    httpAnswers++;
    pollMs.push(performance.now() - asked);
    if (afterRanges) lastPollMs.push(performance.now() - asked);
    via = ` (poll ${(performance.now() - asked).toFixed(0)} ms)`;
  } catch {
    httpTimeouts++;
    if (afterRanges) lastTimeouts++;
    via = " (db)";
    const r = watchDb.prepare("SELECT status, next_offset, size_bytes, rows_read, rows_matched, problem_count FROM revenue_reports WHERE id = ?").get(reportId);
    report = {
      status: r.status,
      readBytes: r.next_offset,
      sizeBytes: r.size_bytes,
      rowsRead: r.rows_read,
      rowsMatched: r.rows_matched,
      problemCount: r.problem_count,
    };
    if (r.status !== "reading") {
      const again = await fetch(`${base}/admin/payments/report?id=${reportId}`, { headers: { Cookie: cookie } });
      report = (await again.json()).report;
    }
  }
  const t = (performance.now() - readStarted) / 1000;
  process.stderr.write(
    `\r[bench:import] ${t.toFixed(0)} s${via}  ${report.status}: ${report.rowsRead.toLocaleString("en-US")} rows read, ${report.rowsMatched.toLocaleString("en-US")} matched, ` +
      `${report.problemCount.toLocaleString("en-US")} problems, ${mib(report.readBytes)} of ${mib(report.sizeBytes)} (${((100 * report.readBytes) / report.sizeBytes).toFixed(0)} %)   `,
  );
  if (!process.stderr.isTTY) process.stderr.write("\n");
  if (report.status !== "reading") break;
}
process.stderr.write("\n");
watching = false;
await stepWatcher;
log(`progress polls: ${httpAnswers} answered by the app, ${httpTimeouts} not within 10 s`);
{
  const sorted = [...pollMs].sort((a, b) => a - b);
  log(
    `progress poll wall time while reading: p50 ${pct(sorted, 50)?.toFixed(0)} ms, p95 ${pct(sorted, 95)?.toFixed(0)} ms, max ${sorted.at(-1)?.toFixed(0)} ms`,
  );
}
{
  const sorted = [...lastPollMs].sort((a, b) => a - b);
  log(
    `polls after the last range (keys dropped, stage; 0344): ${lastPollMs.length} answered, ${lastTimeouts} not within 10 s; p50 ${pct(sorted, 50)?.toFixed(0)} ms, p95 ${pct(sorted, 95)?.toFixed(0)} ms, max ${sorted.at(-1)?.toFixed(0)} ms`,
  );
}
const final = rowQuery.get(reportId);
if (final.status !== "reading" && boundaries.at(-1).status !== final.status) boundaries.push({ us: nowUs(), steps: final.steps, status: final.status });
// complete → the report left 'reading' (seen within 100 ms; the progress poll is every 2 s).
const parseStageMs = (boundaries.at(-1).us - completeAtUs) / 1000;
watchDb.close();
if (report.status !== "staged" || !report.preview?.importId) {
  profiling = false;
  await Promise.all([profiler, heapWatcher]);
  session.close();
  await server.dispose();
  console.log(`bench:import — FAIL: the report ended ${report.status}: ${report.error ?? ""} (${report.problemCount} problems)`);
  process.exit(1);
}
const preview = report.preview;
// The Workflow's last slice steps (the sums, the set-aside entries) run on after 'staged': polled
// until the report's sums are gone, as the admin's page would be while they run (0344).
{
  const sumsLeft = readDb();
  const left = sumsLeft.prepare("SELECT count(*) AS n FROM revenue_report_sums WHERE report_id = ?");
  const started = performance.now();
  const ms = [];
  let late = 0;
  while (left.get(reportId).n > 0 && performance.now() - started < 600_000) {
    const asked = performance.now();
    try {
      await (await fetch(`${base}/admin/payments/report?id=${reportId}`, { headers: { Cookie: cookie }, signal: AbortSignal.timeout(10_000) })).json();
      ms.push(performance.now() - asked);
    } catch {
      late++;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  sumsLeft.close();
  ms.sort((a, b) => a - b);
  log(
    `sums dropped ${secs(performance.now() - started)} after 'staged'; polls meanwhile: ${ms.length} answered, ${late} not within 10 s, p50 ${pct(ms, 50)?.toFixed(0) ?? "-"} ms, max ${ms.at(-1)?.toFixed(0) ?? "-"} ms`,
  );
}
log(
  `preview: ${preview.rowCount.toLocaleString("en-US")} rows, ${preview.matched.toLocaleString("en-US")} matched, ${preview.problemCount} problems, ` +
    `${preview.entryCount.toLocaleString("en-US")} statement lines, net ${preview.netCents} cents, creators' share ${preview.amountCents} cents`,
);

// ---------------------------------------------------------------------------------------------
// 4. Commit through the page's form (POST /admin/payments intent=commit)
// ---------------------------------------------------------------------------------------------
const commitStartUs = nowUs();
const commitStarted = performance.now();
const commitForm = new FormData();
commitForm.set("intent", "commit");
commitForm.set("importId", preview.importId);
commitForm.set("replaces", preview.replaces ?? "");
const commitRes = await fetch(`${base}/admin/payments`, { method: "POST", headers: { Cookie: cookie, Origin: base }, body: commitForm, redirect: "manual" });
await commitRes.text();
const commitMs = performance.now() - commitStarted;
const commitEndUs = nowUs();
if (commitRes.status !== 302 && commitRes.status !== 303) throw new Error(`commit: HTTP ${commitRes.status}`);
await new Promise((r) => setTimeout(r, 200));
profiling = false;
await Promise.all([profiler, heapWatcher]);
await takeChunk(false);
session.close();
const workerdPeak = server.pid ? peakRss(server.pid) : Number.NaN;
await server.dispose();

// ---------------------------------------------------------------------------------------------
// 5. The committed statements against the generator's expected totals, to the cent
// ---------------------------------------------------------------------------------------------
const db = readDb();
const imp = db.prepare("SELECT status, net_cents, amount_cents, entry_count, row_count FROM revenue_imports WHERE id = ?").get(preview.importId);
const entries = db.prepare("SELECT user_id, source_id, net_cents, amount_cents, share_bp FROM ledger_entries WHERE import_id = ?").all(preview.importId);
const lines = db
  .prepare(
    "SELECT count(*) AS n, coalesce(sum(v.net_cents), 0) AS net, coalesce(sum(v.amount_cents), 0) AS amount FROM ledger_video_lines v JOIN ledger_entries e ON e.id = v.entry_id WHERE e.import_id = ?",
  )
  .get(preview.importId);
db.close();
const checks = [];
const check = (what, got, want) => checks.push({ what, ok: got === want, got, want });
check("import status", imp?.status, "live");
check("import net (cents)", imp?.net_cents, expected.netCents);
check("import creators' share (cents)", imp?.amount_cents, expected.amountCents);
check("statement lines", entries.length, expected.entries);
check(
  "sum of ledger net (cents)",
  entries.reduce((s, e) => s + e.net_cents, 0),
  expected.netCents,
);
check(
  "sum of ledger amounts (cents)",
  entries.reduce((s, e) => s + e.amount_cents, 0),
  expected.amountCents,
);
check("video lines", lines.n, expected.videoLines);
check("video lines' net = entries' net", lines.net, expected.netCents);
const byUser = new Map(entries.map((e) => [e.user_id, e]));
let wrong = 0;
let firstWrong = "";
for (const line of readFileSync(`${reportFile}.expected-entries.csv`, "utf8").trim().split("\n").slice(1)) {
  const [channel, user, net, share, amount] = line.split(",");
  const e = byUser.get(user);
  if (!e || e.source_id !== channel || e.net_cents !== Number(net) || e.amount_cents !== Number(amount) || e.share_bp !== Number(share)) {
    wrong++;
    firstWrong ||= `${user}: expected ${net}/${amount}, got ${e ? `${e.net_cents}/${e.amount_cents} (${e.source_id})` : "none"}`;
  }
}
check("creators whose line differs", wrong, 0);
const pass = checks.every((c) => c.ok);

// ---------------------------------------------------------------------------------------------
// 6. Per step: wall, CPU, peak heap
// ---------------------------------------------------------------------------------------------
const windows = [];
for (let i = 1; i < boundaries.length; i++) {
  const b = boundaries[i];
  const prev = boundaries[i - 1];
  // After the last range: the keys' slice steps (0344) until the last key is gone, then the stage's
  // steps (0350), each window named by the step that began it.
  const name = prev.status.startsWith("stage ")
    ? prev.status
    : b.status === "reading"
      ? `range ${b.steps - 1}`
      : b.status === "keys dropped"
        ? "drop keys (slice steps)"
        : b.status.startsWith("stage ")
          ? "drop keys (slice steps)"
          : `stage (${b.status})`;
  windows.push({ name, from: boundaries[i - 1].us, to: b.us });
}
windows.push({ name: "commit (request)", from: commitStartUs, to: commitEndUs });
busy.sort((a, b) => a[0] - b[0]);
for (const w of windows) {
  w.cpuMs = busy.filter(([t]) => t >= w.from && t < w.to).reduce((s, [, us]) => s + us, 0) / 1000;
  // A step shorter than the heap's 250 ms: the first sample after it (its garbage not yet collected).
  const inside = heap.filter(([t]) => t >= w.from && t < w.to);
  const hs = inside.length ? inside : heap.filter(([t]) => t >= w.to).slice(0, 1);
  w.heapUsed = Math.max(0, ...hs.map((h) => h[1]));
  w.heapTotal = Math.max(0, ...hs.map((h) => h[2]));
  w.wallMs = (w.to - w.from) / 1000;
}
const ranges = windows.filter((w) => w.name.startsWith("range"));
// One step's window (the keys' slice steps share one window of ~50 steps, printed on their own line).
const oneStep = windows.filter((w) => !w.name.startsWith("drop keys"));
const heaviest = oneStep.reduce((a, b) => (b.cpuMs > a.cpuMs ? b : a));
const peakHeap = windows.reduce((a, b) => (b.heapUsed > a.heapUsed ? b : a));
const rowsPerSec = expected.rows / (parseStageMs / 1000);
const readMs = ranges.reduce((s, w) => s + w.wallMs, 0);
const stageSteps = windows.filter((w) => w.name.startsWith("stage"));
const stage = stageSteps.length ? { wallMs: stageSteps.reduce((t, w) => t + w.wallMs, 0) } : undefined;
const dropKeys = windows.find((w) => w.name.includes("drop keys"));

console.log(
  `bench:import — ${expected.rows.toLocaleString("en-US")} rows, ${mib(size)} (${MONTH}), ${CREATORS.toLocaleString("en-US")} creators; ${server.kind}`,
);
console.log(`  upload            ${secs(uploadMs)} (${partCount} parts of 8 MiB, ${(size / 1024 / 1024 / (uploadMs / 1000)).toFixed(1)} MiB/s)`);
console.log(
  `  parse + stage     ${secs(parseStageMs)} (complete → staged: ${ranges.length} range steps ${secs(readMs)}, keys dropped ${secs(dropKeys?.wallMs ?? Number.NaN)}, stage ${secs(stage?.wallMs ?? Number.NaN)}), ${Math.round(rowsPerSec).toLocaleString("en-US")} rows/s`,
);
console.log(`  commit            ${commitMs.toFixed(0)} ms (POST /admin/payments intent=commit)`);
const avg = (xs) => xs.reduce((s, x) => s + x, 0) / (xs.length || 1);
console.log(
  `  range steps       CPU mean ${avg(ranges.map((w) => w.cpuMs)).toFixed(0)} ms, max ${Math.max(...ranges.map((w) => w.cpuMs)).toFixed(0)} ms; wall mean ${secs(avg(ranges.map((w) => w.wallMs)))}; peak heap ${mib(Math.max(...ranges.map((w) => w.heapUsed)))}`,
);
// The stage's steps by kind (stage match i, stage price i…): how many, wall, the heaviest CPU and heap of any one.
const stageKinds = new Map();
for (const w of stageSteps) {
  const kind = w.name.replace(/ \d+$/, "");
  stageKinds.set(kind, [...(stageKinds.get(kind) ?? []), w]);
}
for (const w of windows.filter((x) => !x.name.startsWith("range") && !x.name.startsWith("stage"))) {
  console.log(`  ${w.name.padEnd(18)}CPU ${w.cpuMs.toFixed(0)} ms, wall ${secs(w.wallMs)}, peak heap used ${mib(w.heapUsed)} (heap size ${mib(w.heapTotal)})`);
}
for (const [kind, ws] of stageKinds) {
  console.log(
    `  ${kind.padEnd(22)}${String(ws.length).padStart(3)} step(s), wall ${secs(ws.reduce((t, w) => t + w.wallMs, 0))}; per step CPU max ${Math.max(...ws.map((w) => w.cpuMs)).toFixed(0)} ms, ` +
      `peak heap used ${mib(Math.max(...ws.map((w) => w.heapUsed)))} (heap size ${mib(Math.max(...ws.map((w) => w.heapTotal)))})`,
  );
}
console.log(
  `  heaviest step     ${heaviest.name}: CPU ${heaviest.cpuMs.toFixed(0)} ms of the ${STEP_CPU_LIMIT_MS / 1000} s a Workflow step may use by default (Workers Paid; up to 5 min configurable) — ${heaviest.cpuMs < STEP_CPU_LIMIT_MS ? "within" : "OVER"}`,
);
console.log(
  `  peak memory       ${peakHeap.name}: V8 heap used ${mib(peakHeap.heapUsed)} (heap size ${mib(peakHeap.heapTotal)})${gcMode === "all" && !gcFailed ? ", live (sampled after a full GC)" : ", incl. garbage not yet collected"} of the isolate's 128 MB — ${peakHeap.heapTotal < MEMORY_LIMIT ? "within" : "OVER"}; workerd process peak RSS ${mib(workerdPeak)} (all isolates, D1, R2)`,
);
if (stageSteps.length) {
  const top = stageSteps.reduce((a, b) => (b.heapUsed > a.heapUsed ? b : a));
  const cpu = stageSteps.reduce((a, b) => (b.cpuMs > a.cpuMs ? b : a));
  console.log(
    `  stage steps       ${stageSteps.length} seen; peak heap ${top.name}: used ${mib(top.heapUsed)} (heap size ${mib(top.heapTotal)})${gcBeforeSample && !gcFailed ? ", live (sampled after a full GC)" : ", incl. garbage not yet collected"} — ${top.heapUsed < MEMORY_LIMIT ? "within" : "OVER"} 128 MB; heaviest CPU ${cpu.name}: ${cpu.cpuMs.toFixed(0)} ms`,
  );
}
console.log(`  CPU sampled every ${values.interval} µs on ${APP_ISOLATE}; steps' windows from the report row every 100 ms; heap every 250 ms`);
for (const c of checks) console.log(`  ${c.ok ? "ok  " : "FAIL"} ${c.what}: ${c.got}${c.ok ? "" : ` (expected ${c.want})`}`);
if (firstWrong) console.log(`  first differing creator: ${firstWrong}`);
console.log(`  exact to the cent against ${`${reportFile}.expected.json`.replace(`${root}/`, "")}: ${pass ? "PASS" : "FAIL"}`);
if (process.env.BENCH_STEPS === "1")
  for (const w of windows) console.log(`    ${w.name}: CPU ${w.cpuMs.toFixed(0)} ms, wall ${secs(w.wallMs)}, heap ${mib(w.heapUsed)}`);
process.exit(pass ? 0 : 1);
