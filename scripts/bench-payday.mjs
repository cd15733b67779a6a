#!/usr/bin/env node
// The payout day at scale (issue 45 §3, docs/decisions/0332): N creators (default 100,000) with
// finalized, unpaid balances and Express accounts at the Stripe stand-in (scripts/scale-state.mjs),
// served by the BUILT Worker on workerd (scripts/bench-server.mjs, in a process group of its own so
// it can be killed like a crashed machine).
//
//   npm run bench:payday [-- --creators 2000 --pace 200 --port 5191 --state .state-payday --skip-kill]
//   (run it with `nice -n 10` on a shared machine)
//
// 1. Measure: POST /dev/payout-day date=…&engine=workflow starts the month's Workflow as the cron does;
//    the bench polls the SQLite file (read-only) for payouts gathered / sent / paid and prints the wall
//    time of gathering, of sending, and transfers per second. The queue runs at --pace, a STAND-IN
//    pace (PAYOUT_TRANSFERS_PER_SECOND in the built wrangler.json), not Stripe's; it also prints what
//    production's 16 per second means for N.
// 2. Kill tests, each on a fresh batch (one more finalized month for every creator, written while the
//    server is down): SIGKILL the server's whole process group (node + workerd) half-way through
//    SENDING, and once half-way through GATHERING; start the server again on the same state; run the
//    day again; wait until done; check the SQLite files directly (node:sqlite, read-only): every
//    eligible creator has exactly one payout for the batch, every payout exactly one transfer at the
//    stand-in (its KV, app/dev/dev-stripe.server.ts: devstripe:transfer:<id>, transfer_group = the
//    payout's id), none forgotten, no transfer without a payout. PASS/FAIL lines.
//
// What survives a kill of the local server (read in node_modules/miniflare, 5.20261006):
//   - Workflow instances ARE persisted (the Engine Durable Object's SQLite under v3/workflows/
//     miniflare-workflows-<name>/): status, step log and step results. But the local engine has no
//     alarm and nothing re-runs an instance when workerd starts, so a killed instance stays "running"
//     with nothing running it. Cloudflare's engine resumes it by itself; locally the rerun is the dev
//     route's restart=1 (instance.restart(): the same instance from its first step; every step is
//     idempotent and the same instance id is the same token). Starting the day again with the cron's
//     start alone would only re-queue 2,000 waiting payouts of the run (the daily sweep) and never
//     gather the rest: that is a local-only gap, which is why the bench restarts the instance.
//   - Queued messages are NOT persisted: the queue broker (workers/queues/broker.worker.js) keeps them
//     in an in-memory array with timers; a kill loses every message not yet consumed. Cloudflare's
//     Queues keep them (at-least-once delivery). The rerun re-queues every payout still pending or
//     processing (the Workflow's enqueue steps), so none is forgotten either way.
//   - Locally the broker also runs one consumer batch at a time (max_concurrency is accepted but not
//     applied), so the local ceiling is pace / max_concurrency.
//   - A payout claimed (processing) whose transfer answer was lost in the kill is recovered after 10
//     minutes (RECOVER_AFTER_MS: Stripe is asked for its transfer group) and one whose webhook was lost
//     is reconciled after an hour (RECONCILE_AFTER_MS). Instead of waiting, the bench moves those rows'
//     sent_at back past the window while the server is down, and prints how many: it stands for the
//     time passing, nothing else.
import { spawn } from "node:child_process";
import { existsSync, openSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { startBenchServer } from "./bench-server.mjs";
import { root, waitForServer } from "./bench-lib.mjs";
import { SCALE_USER_PREFIX } from "./scale-ids.mjs";
import { d1FileOf, fillScaleState } from "./scale-state.mjs";

const { values } = parseArgs({
  options: {
    creators: { type: "string", default: "100000" },
    pace: { type: "string", default: "200" },
    port: { type: "string", default: "5191" },
    state: { type: "string", default: ".state-payday" },
    "skip-kill": { type: "boolean", default: false },
    // Which kill tests run after the measured run: "send,gather" (both), "send", "gather" or "none".
    kills: { type: "string", default: "send,gather" },
    // No separate measured run: the kill tests only (their runs' rates are printed too).
    "skip-measure": { type: "boolean", default: false },
    // The measured run's month; the kill tests take the months after it (a reused state's earlier
    // months are paid already, so a rerun on it starts from a later month).
    "from-month": { type: "string", default: "2026-12" },
    // The sending kill lands once this many are paid (default: half). For a run too long to finish.
    "kill-at": { type: "string" },
    // The gathering kill lands once this many are gathered (default: half).
    "kill-gather-at": { type: "string" },
    // The rerun after a kill is followed this many minutes at most; then the checks that hold part
    // way (no payout with two transfers, no transfer without a payout, each paid one with its
    // transfer) are made and the rest is reported as not yet paid (FAIL for "every payout is paid").
    "stop-after-min": { type: "string" },
    reuse: { type: "boolean", default: false },
    // No run: the checks that hold part way, on the state as it is, for a batch a stopped bench left
    // (its server killed): every scale creator one payout of it, no payout two transfers, no orphan.
    "check-batch": { type: "string" },
    // A stopped run's batch taken up again (its server killed, as by --stop-after-min or a stop by hand): the
    // server restarted on the state as it is, the month's instance restarted (restart=1) and followed to the
    // LAST payout, then every check. Its date is --resume-date (the bench's own: <batch>-28).
    "resume-batch": { type: "string" },
    "resume-date": { type: "string" },
  },
});
const CREATORS = Number(values.creators);
const PACE = Number(values.pace);
const PORT = Number(values.port);
const STATE = resolve(root, values.state);
const base = `http://127.0.0.1:${PORT}`;
const PRODUCTION_PACE = 16;
const KILLS = values["skip-kill"]
  ? []
  : values.kills
      .split(",")
      .map((k) => k.trim())
      .filter((k) => k && k !== "none");
// "gather+send": ONE batch killed twice, mid-gathering, then (after the rerun) mid-sending, then rerun to the last payout.
for (const k of KILLS)
  if (k !== "send" && k !== "gather" && k !== "gather+send") throw new Error(`--kills: "send", "gather", "gather+send", "send,gather" or "none", not ${k}`);
/** The month `n` months after --from-month (YYYY-MM). */
function monthAfter(n) {
  const [y, m] = values["from-month"].split("-").map(Number);
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}
const log = (...a) => console.error("[bench-payday]", ...a);
const out = (...a) => console.log(...a);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const fmt = (n) => n.toLocaleString("en-US");

// ---- The state and the server -------------------------------------------------------------------

/** A fresh state folder with N creators and the built Worker in it, the pace var set to the stand-in pace. */
async function prepareState() {
  if (values.reuse && existsSync(join(STATE, "build/server/wrangler.json"))) {
    log(`reusing ${values.state}`);
  } else {
    const t = performance.now();
    const s = await startBenchServer({
      stateDir: values.state,
      port: PORT,
      prepare: (dir) => fillScaleState(dir, { creators: CREATORS, log }),
    });
    await s.dispose();
    log(`state filled and built in ${secs(performance.now() - t)}`);
  }
  const config = join(STATE, "build/server/wrangler.json");
  const json = JSON.parse(readFileSync(config, "utf8"));
  json.vars = { ...json.vars, PAYOUT_TRANSFERS_PER_SECOND: String(PACE) };
  writeFileSync(config, JSON.stringify(json));
}

/** The server in a process group of its own (node + the workerd it spawns): killed with one signal to the group. */
async function startServer(tag) {
  const logFile = openSync(join(STATE, `server-${tag}.log`), "a");
  const child = spawn(process.execPath, ["scripts/bench-server.mjs", "--state", values.state, "--port", String(PORT)], {
    cwd: root,
    env: { ...process.env, BENCH_REUSE: "1" },
    detached: true,
    stdio: ["ignore", logFile, logFile],
  });
  await waitForServer(base);
  return child;
}

/** SIGKILL to the whole process group, then wait until the port is free (workerd gone too). */
async function killServer(child) {
  process.kill(-child.pid, "SIGKILL");
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(500) });
    } catch {
      return;
    }
    await sleep(100);
  }
  throw new Error("the server still answers after SIGKILL");
}

/** A graceful stop (the end of the bench). */
async function stopServer(child) {
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {}
  await sleep(1500);
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {}
}

/** The workerd process a server life runs on (bench-server.mjs logs "served by workerd (pid N)"). */
function workerdPidOf(tag) {
  const text = readFileSync(join(STATE, `server-${tag}.log`), "utf8");
  const all = [...text.matchAll(/served by workerd \(pid (\d+)\)/g)];
  return all.length ? Number(all.at(-1)[1]) : null;
}

/** Peak resident memory (VmHWM) of a server life's workerd, in MB, read just before it is killed or stopped. */
function peakMbOf(tag) {
  const pid = workerdPidOf(tag);
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(status.match(/VmHWM:\s+(\d+) kB/)[1]) / 1024;
  } catch {
    return null;
  }
}

async function devPayoutDay(params) {
  const res = await fetch(`${base}/dev/payout-day`, {
    method: "POST",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(params),
  });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`POST /dev/payout-day ${JSON.stringify(params)}: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function runStatus(id) {
  const res = await fetch(`${base}/dev/payout-day?id=${encodeURIComponent(id)}`);
  return res.ok ? res.json() : null;
}

// ---- Reading the SQLite files directly -----------------------------------------------------------

const d1File = () => d1FileOf(values.state);
const readOnly = () => {
  const db = new DatabaseSync(d1File(), { readOnly: true });
  db.exec("PRAGMA busy_timeout = 5000");
  return db;
};

/** The payout minimum in cents (app_settings, else the constant in app/lib/constants.ts). */
function minimumCents(db) {
  const row = db.prepare("SELECT value FROM app_settings WHERE key = 'payout_minimum_usd'").get();
  const usd = row ? Number(JSON.parse(row.value)) : Number(readFileSync(join(root, "app/lib/constants.ts"), "utf8").match(/PAYOUT_MINIMUM_USD = (\d+)/)[1]);
  return usd * 100;
}

/** The creators the run must pay: scale creators with a finalized, unpaid balance of at least the minimum. */
function eligibleCreators() {
  const db = readOnly();
  try {
    const rows = db
      .prepare(
        `SELECT user_id, sum(amount_cents) AS cents FROM ledger_entries
         WHERE status = 'finalized' AND payout_id IS NULL AND user_id LIKE ? GROUP BY user_id HAVING sum(amount_cents) >= ?`,
      )
      .all(`${SCALE_USER_PREFIX}%`, minimumCents(db));
    return new Map(rows.map((r) => [r.user_id, Number(r.cents)]));
  } finally {
    db.close();
  }
}

/** Payouts of the batch by status (one read-only query; the server keeps writing meanwhile). */
function progress(batch) {
  let db;
  try {
    db = readOnly();
    const rows = db.prepare("SELECT status, count(*) AS n FROM payouts WHERE batch = ? AND user_id LIKE ? GROUP BY status").all(batch, `${SCALE_USER_PREFIX}%`);
    const by = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    const gathered = rows.reduce((s, r) => s + Number(r.n), 0);
    return { gathered, paid: by.paid ?? 0, sent: (by.processing ?? 0) + (by.paid ?? 0) + (by.failed ?? 0), failed: by.failed ?? 0 };
  } catch {
    return null; // busy: the next poll reads it
  } finally {
    db?.close();
  }
}

/** Every transfer the stand-in made: its KV (RATE_LIMITS) keeps devstripe:transfer:<id>, a row in _mf_entries and a blob file. */
function standInTransfers() {
  const kvDir = join(STATE, "v3/kv/miniflare-KVNamespaceObject");
  const file = readdirSync(kvDir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  const blobs = join(STATE, "v3/kv/00000000000000000000000000000000/blobs");
  const kv = new DatabaseSync(join(kvDir, file), { readOnly: true });
  try {
    return kv
      .prepare("SELECT key, blob_id FROM _mf_entries WHERE key LIKE 'devstripe:transfer:%'")
      .all()
      .map((r) => JSON.parse(readFileSync(join(blobs, r.blob_id), "utf8")));
  } finally {
    kv.close();
  }
}

/** While the server is down: one more finalized month for every creator (a fresh batch for a kill test). */
function freshBatch(month) {
  const db = new DatabaseSync(d1File());
  try {
    db.exec("BEGIN");
    const r = db
      .prepare(
        `INSERT INTO ledger_entries (id, user_id, month, source_kind, source_id, net_cents, share_bp, amount_cents, status, created_at)
         SELECT lower(printf('%s-%s-4%s-8%s-%s', hex(randomblob(4)), hex(randomblob(2)), substr(hex(randomblob(2)), 2), substr(hex(randomblob(2)), 2), hex(randomblob(6)))),
                id, ?, 'adjustment', 'bench-payday', 5000, 10000, 5000, 'finalized', ?
         FROM users WHERE id LIKE ?`,
      )
      .run(month, new Date().toISOString(), `${SCALE_USER_PREFIX}%`);
    db.exec("COMMIT");
    return Number(r.changes);
  } finally {
    db.close();
  }
}

/**
 * While the server is down: the payouts the kill left claimed without an answer (processing, no
 * transfer id) or without a webhook (processing, a transfer id) get a sent_at past the recover
 * (10 min) and reconcile (1 h) windows, standing for that time passing.
 */
function ageInFlight(batch) {
  const db = new DatabaseSync(d1File());
  try {
    const unanswered = db
      .prepare(
        "UPDATE payouts SET sent_at = strftime('%Y-%m-%dT%H:%M:%fZ', sent_at, '-11 minutes') WHERE batch = ? AND status = 'processing' AND stripe_transfer_id IS NULL",
      )
      .run(batch).changes;
    const unconfirmed = db
      .prepare(
        "UPDATE payouts SET sent_at = strftime('%Y-%m-%dT%H:%M:%fZ', sent_at, '-61 minutes') WHERE batch = ? AND status = 'processing' AND stripe_transfer_id IS NOT NULL",
      )
      .run(batch).changes;
    return { unanswered: Number(unanswered), unconfirmed: Number(unconfirmed) };
  } finally {
    db.close();
  }
}

// ---- One run ---------------------------------------------------------------------------------------

/**
 * Polls the batch until `until(p)` holds (or every eligible creator is paid). Returns the times (ms
 * after `t0`) gathering ended and sending ended, and the last progress.
 */
async function follow(batch, eligible, t0, { until = () => false, every = 1000, timeoutMs = 3 * 3600_000, label = "" } = {}) {
  let gatheredAt = null;
  let firstSentAt = null;
  let last = null;
  let lastLog = 0;
  while (performance.now() - t0 < timeoutMs) {
    const p = progress(batch);
    if (p) {
      last = p;
      const now = performance.now() - t0;
      if (gatheredAt === null && p.gathered >= eligible) gatheredAt = now;
      if (firstSentAt === null && p.sent > 0) firstSentAt = now;
      if (until(p)) return { gatheredAt, firstSentAt, at: now, last, stopped: true };
      if (p.paid >= eligible) return { gatheredAt, firstSentAt, at: now, last, stopped: false };
      if (now - lastLog > 15_000) {
        lastLog = now;
        log(`${label} ${secs(now)}: gathered ${fmt(p.gathered)}, sent ${fmt(p.sent)}, paid ${fmt(p.paid)} of ${fmt(eligible)}`);
      }
    }
    await sleep(every);
  }
  throw new Error(`${label}: not done after ${secs(timeoutMs)} (last: ${JSON.stringify(last)})`);
}

// ---- The checks ------------------------------------------------------------------------------------

const results = [];
function check(name, ok, detail) {
  results.push(ok);
  out(`${ok ? "PASS" : "FAIL"}  ${name}${detail ? ` — ${detail}` : ""}`);
}

/** Every eligible creator exactly one payout of the batch, paid, with exactly one stand-in transfer; none forgotten, none extra. */
function verify(batch, eligible, label, partial = false) {
  const db = readOnly();
  let payouts;
  let leftover;
  try {
    payouts = db
      .prepare("SELECT id, user_id, status, method, amount_cents, stripe_transfer_id FROM payouts WHERE batch = ? AND user_id LIKE ?")
      .all(batch, `${SCALE_USER_PREFIX}%`);
    leftover = Number(
      db.prepare("SELECT count(*) AS n FROM ledger_entries WHERE status = 'finalized' AND payout_id IS NULL AND user_id LIKE ?").get(`${SCALE_USER_PREFIX}%`).n,
    );
  } finally {
    db.close();
  }
  const perUser = new Map();
  for (const p of payouts) perUser.set(p.user_id, (perUser.get(p.user_id) ?? 0) + 1);
  const missing = [...eligible.keys()].filter((u) => !perUser.has(u)).length;
  const twice = [...perUser.values()].filter((n) => n > 1).length;
  const extra = [...perUser.keys()].filter((u) => !eligible.has(u)).length;
  check(
    `${label}: every eligible creator has exactly one payout for ${batch}`,
    missing === 0 && twice === 0 && extra === 0 && payouts.length === eligible.size,
    `${fmt(eligible.size)} eligible, ${fmt(payouts.length)} payouts, ${missing} missing, ${twice} with two or more, ${extra} not eligible`,
  );
  const wrongAmount = payouts.filter((p) => Number(p.amount_cents) !== eligible.get(p.user_id)).length;
  check(
    `${label}: each payout is the creator's whole finalized balance, and no finalized line is left unpaid`,
    wrongAmount === 0 && leftover === 0,
    `${wrongAmount} amounts differ, ${fmt(leftover)} lines left`,
  );
  const unpaid = payouts.filter((p) => p.status !== "paid").length;
  if (partial)
    out(
      `(stopped part way) ${fmt(unpaid)} payouts not paid yet: ${fmt(payouts.filter((p) => p.status === "pending").length)} pending, ${fmt(payouts.filter((p) => p.status === "processing").length)} processing`,
    );
  else check(`${label}: every payout is paid (webhook received)`, unpaid === 0, `${fmt(unpaid)} not paid`);

  const transfers = standInTransfers();
  const byGroup = new Map();
  for (const t of transfers) if (t.transfer_group) byGroup.set(t.transfer_group, [...(byGroup.get(t.transfer_group) ?? []), t]);
  const ids = new Set(payouts.map((p) => p.id));
  // Part way: only the payouts paid so far must have their transfer; none may have two.
  const mustHave = partial ? payouts.filter((p) => p.status === "paid") : payouts;
  const counts = payouts.map((p) => byGroup.get(p.id)?.length ?? 0);
  const none = mustHave.filter((p) => !byGroup.has(p.id)).length;
  const dup = counts.filter((n) => n > 1).length;
  const mismatch = mustHave.filter(
    (p) => byGroup.get(p.id)?.[0]?.id !== p.stripe_transfer_id || byGroup.get(p.id)?.[0]?.amount !== Number(p.amount_cents),
  ).length;
  const orphans = transfers.filter((t) => t.metadata?.batch === batch && !ids.has(t.transfer_group)).length;
  check(
    partial
      ? `${label}: every PAID payout has exactly one transfer (its id and amount), no payout has two, and no transfer of ${batch} lacks a payout`
      : `${label}: every payout has exactly one transfer at the stand-in (its id and amount), and no transfer of ${batch} lacks a payout`,
    none === 0 && dup === 0 && mismatch === 0 && orphans === 0,
    `${fmt(transfers.filter((t) => t.metadata?.batch === batch).length)} transfers for ${batch}: ${none} payouts without one, ${dup} with two or more, ${mismatch} differing, ${orphans} orphans`,
  );
}

// ---- The phases ------------------------------------------------------------------------------------

/** 1. The measured run. */
async function measure(batch, date) {
  let eligible = eligibleCreators();
  if (eligible.size === 0) {
    // A reused state whose balances were paid: one more finalized month for every creator.
    log(`measure: a fresh batch ${batch}: ${fmt(freshBatch(batch))} finalized lines added`);
    eligible = eligibleCreators();
  }
  const server = await startServer("measure");
  try {
    const t0 = performance.now();
    const started = await devPayoutDay({ date, engine: "workflow" });
    log(`started ${started.id} (${fmt(eligible.size)} eligible creators)`);
    const f = await follow(batch, eligible.size, t0, { label: "measure" });
    let status = await runStatus(started.id);
    for (let i = 0; i < 60 && status?.status !== "complete"; i++) {
      await sleep(1000);
      status = await runStatus(started.id);
    }
    const sending = f.at - f.gatheredAt;
    const rate = eligible.size / (sending / 1000);
    out(`\n== Payout day, ${fmt(CREATORS)} creators (${fmt(eligible.size)} eligible), built Worker on workerd, Stripe stand-in ==`);
    out(`gathering (Workflow steps of 1,000 people): ${secs(f.gatheredAt)}  (${fmt(Math.round(eligible.size / (f.gatheredAt / 1000)))} payouts/s)`);
    out(`queueing + sending + webhooks (gathered → all paid): ${secs(sending)}`);
    out(
      `transfers per second: ${rate.toFixed(1)}  at PAYOUT_TRANSFERS_PER_SECOND=${PACE} — the STAND-IN pace, not Stripe's; Miniflare runs one consumer batch at a time, so the local ceiling is ${PACE / 2}/s`,
    );
    out(`wall time, start → every payout paid: ${secs(f.at)}; Workflow ${status?.status ?? "?"} ${JSON.stringify(status?.output ?? null)}`);
    out(
      `production pace ${PRODUCTION_PACE}/s (Stripe's 25/s per endpoint, wrangler.toml): ${fmt(eligible.size)} transfers ≈ ${(eligible.size / PRODUCTION_PACE / 60).toFixed(0)} min; 100,000 ≈ ${(100_000 / PRODUCTION_PACE / 60).toFixed(0)} min`,
    );
    verify(batch, eligible, "measured run");
  } finally {
    await stopServer(server);
  }
}

/** 2. A kill half-way through `phase` ("sending" or "gathering"), then a rerun, then the checks. */
async function killTest(phase, batch, date) {
  const month = batch; // the fresh batch's own finalized month
  const added = freshBatch(month);
  const eligible = eligibleCreators();
  log(`${phase}: a fresh batch ${batch}: ${fmt(added)} finalized lines added, ${fmt(eligible.size)} eligible`);
  let server = await startServer(`kill-${phase}`);
  const t0 = performance.now();
  const started = await devPayoutDay({ date, engine: "workflow" });
  const half = values["kill-at"] ? Number(values["kill-at"]) : Math.floor(eligible.size / 2);
  const until = phase === "gathering" ? (p) => p.gathered >= half : (p) => p.paid >= half;
  const f = await follow(batch, eligible.size, t0, { until, every: phase === "gathering" ? 50 : 250, label: `kill ${phase}` });
  await killServer(server);
  const at = progress(batch);
  out(`\n== Kill half-way through ${phase} (${batch}) ==`);
  out(
    `SIGKILL to the server's process group at ${secs(f.at)}: gathered ${fmt(at.gathered)}, sent ${fmt(at.sent)}, paid ${fmt(at.paid)} of ${fmt(eligible.size)}`,
  );
  const mid = phase === "gathering" ? at.gathered < eligible.size && at.gathered > 0 : at.paid < eligible.size && at.sent > 0;
  check(
    `kill ${phase}: the kill landed mid-${phase}`,
    mid,
    phase === "gathering" ? `${fmt(at.gathered)} of ${fmt(eligible.size)} gathered` : `${fmt(at.paid)} of ${fmt(eligible.size)} paid`,
  );
  const aged = ageInFlight(batch);
  out(
    `in flight at the kill: ${aged.unanswered} claimed without an answer, ${aged.unconfirmed} sent without a webhook (sent_at moved past the 10 min / 1 h windows, standing for that time passing)`,
  );
  server = await startServer(`rerun-${phase}`);
  try {
    const status = await runStatus(started.id);
    out(
      `after the restart the instance ${started.id} is "${status?.status}" (kept on disk; "running" means nothing runs it any more, "complete" that it had queued everything, and the queue lost what it held)`,
    );
    const t1 = performance.now();
    await devPayoutDay({ date, engine: "workflow", restart: "1" });
    const stopMs = values["stop-after-min"] ? Number(values["stop-after-min"]) * 60_000 : null;
    const g = await follow(batch, eligible.size, t1, { label: `rerun ${phase}`, until: stopMs ? () => performance.now() - t1 > stopMs : undefined });
    if (g.stopped) {
      const now = progress(batch);
      const after = now.paid - at.paid;
      out(
        `rerun STOPPED after ${secs(g.at)} (--stop-after-min): paid ${fmt(now.paid)} of ${fmt(eligible.size)} (${fmt(after)} since the restart: ${(after / (g.at / 1000)).toFixed(1)} transfers/s, restart and re-queueing included); at that rate the rest takes ${((eligible.size - now.paid) / (after / (g.at / 1000)) / 3600).toFixed(1)} h`,
      );
    } else out(`rerun (restart of ${started.id}) → every payout paid: ${secs(g.at)}`);
    if (phase === "sending") {
      const before =
        f.gatheredAt !== null
          ? `${(at.paid / ((f.at - f.gatheredAt) / 1000)).toFixed(1)} transfers/s before the kill (${fmt(at.paid)} paid in ${secs(f.at - f.gatheredAt)} after gathering ended at ${secs(f.gatheredAt)})`
          : "";
      // Stopped part way, the rerun's own rate is on the STOPPED line above.
      const rerun = g.stopped
        ? ""
        : `; after the rerun ${((eligible.size - at.paid) / (g.at / 1000)).toFixed(1)} transfers/s (${fmt(eligible.size - at.paid)} left, restart and re-queueing included)`;
      out(`${before}${rerun}`);
    }
    verify(batch, eligible, `kill ${phase}`, g.stopped);
  } finally {
    await stopServer(server);
  }
}

/**
 * 3. ONE batch killed twice (--kills gather+send): SIGKILL half-way through gathering (or at
 * --kill-gather-at gathered), restart the server, rerun (restart=1); SIGKILL again once --kill-at are
 * paid (default half), restart, rerun, and follow it to the LAST payout. Prints each phase's wall time,
 * transfers per second, workerd's peak memory in each server life, and the checks.
 */
async function killTwice(batch, date) {
  const added = freshBatch(batch);
  const eligible = eligibleCreators();
  log(`gather+send: a fresh batch ${batch}: ${fmt(added)} finalized lines added, ${fmt(eligible.size)} eligible`);
  const phases = [];
  const phase = (name, ms, extra = "") => {
    phases.push({ name, ms });
    out(`phase  ${name}: ${secs(ms)}${extra ? `  ${extra}` : ""}`);
  };
  const peaks = [];
  let tag = "kill2-first";
  let server = await startServer(tag);
  out(`\n== One batch (${batch}), killed mid-gathering and mid-sending, rerun to the last payout ==`);
  const t0 = performance.now();
  const first = await devPayoutDay({ date, engine: "workflow" });
  const runId = first.id;
  let segmentStart = t0;
  let paidBefore = 0;
  for (const which of ["gathering", "sending"]) {
    const at =
      which === "gathering"
        ? values["kill-gather-at"]
          ? Number(values["kill-gather-at"])
          : Math.floor(eligible.size / 2)
        : values["kill-at"]
          ? Number(values["kill-at"])
          : Math.floor(eligible.size / 2);
    const until = which === "gathering" ? (p) => p.gathered >= at : (p) => p.paid >= at;
    const f = await follow(batch, eligible.size, segmentStart, { until, every: which === "gathering" ? 50 : 250, label: `until the ${which} kill` });
    peaks.push({ life: tag, mb: peakMbOf(tag) });
    await killServer(server);
    const p = progress(batch);
    out(
      `SIGKILL mid-${which} at ${secs(performance.now() - t0)} (run time): gathered ${fmt(p.gathered)}, sent ${fmt(p.sent)}, paid ${fmt(p.paid)} of ${fmt(eligible.size)}`,
    );
    if (which === "gathering")
      phase("start → gathering kill (gathering)", f.at, `${fmt(p.gathered)} gathered, ${fmt(Math.round(p.gathered / (f.at / 1000)))} payouts/s`);
    else {
      const sending = f.gatheredAt !== null ? f.at - f.gatheredAt : f.at;
      phase(
        "rerun → sending kill",
        f.at,
        `gathered the rest in ${f.gatheredAt !== null ? secs(f.gatheredAt) : "?"}, then ${fmt(p.paid - paidBefore)} paid in ${secs(sending)} = ${((p.paid - paidBefore) / (sending / 1000)).toFixed(1)} transfers/s`,
      );
    }
    check(
      `gather+send: the ${which} kill landed mid-${which}`,
      which === "gathering" ? p.gathered > 0 && p.gathered < eligible.size : p.sent > 0 && p.paid < eligible.size,
      which === "gathering" ? `${fmt(p.gathered)} of ${fmt(eligible.size)} gathered` : `${fmt(p.paid)} of ${fmt(eligible.size)} paid`,
    );
    const aged = ageInFlight(batch);
    out(
      `in flight at the kill: ${aged.unanswered} claimed without an answer, ${aged.unconfirmed} sent without a webhook (sent_at moved past the 10 min / 1 h windows, standing for that time passing)`,
    );
    paidBefore = p.paid;
    const down = performance.now();
    tag = `kill2-after-${which}`;
    server = await startServer(tag);
    const status = await runStatus(runId);
    out(`after the restart the instance ${runId} is "${status?.status}" (kept on disk; nothing runs it locally until restart=1)`);
    segmentStart = performance.now();
    await devPayoutDay({ date, engine: "workflow", restart: "1" });
    phase(`server restart after the ${which} kill (workerd up, rerun started)`, segmentStart - down + (performance.now() - segmentStart));
  }
  const stopMs = values["stop-after-min"] ? Number(values["stop-after-min"]) * 60_000 : null;
  const g = await follow(batch, eligible.size, segmentStart, {
    label: "rerun to the last payout",
    until: stopMs ? () => performance.now() - segmentStart > stopMs : undefined,
    timeoutMs: 4 * 3600_000,
  });
  peaks.push({ life: tag, mb: peakMbOf(tag) });
  const now = progress(batch);
  const rate = (now.paid - paidBefore) / (g.at / 1000);
  phase(
    g.stopped ? "last rerun (STOPPED by --stop-after-min)" : "last rerun → the last payout paid",
    g.at,
    `${fmt(now.paid - paidBefore)} paid = ${rate.toFixed(1)} transfers/s (re-queueing included)`,
  );
  const total = performance.now() - t0;
  out(
    `wall time, first start → ${g.stopped ? "stop" : "the last payout paid"}: ${secs(total)}; transfers per second over the whole run: ${(now.paid / (total / 1000)).toFixed(1)}`,
  );
  out(
    `peak memory (workerd VmHWM, the whole local runtime: app, stand-in, D1, KV, queues, Workflows; not one Worker's 128 MB isolate): ${peaks.map((x) => `${x.life} ${x.mb === null ? "?" : `${x.mb.toFixed(0)} MB`}`).join(", ")}; this bench's node: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
  );
  const before = results.length;
  verify(batch, eligible, "gather+send", g.stopped);
  const all = results.slice(before).every(Boolean);
  if (!g.stopped)
    check(
      "every finalized balance paid exactly once (one transfer per payout, no person twice, none forgotten, none orphaned)",
      all,
      `${fmt(eligible.size)} creators, ${fmt(now.paid)} paid`,
    );
  await stopServer(server);
}

/** The scale creators and what the batch's payouts hold for each (the payout rows' own entries). */
function eligibleFromPayouts(batch) {
  const db = readOnly();
  try {
    // Every scale creator had a finalized balance for the batch (freshBatch); each payout's amount must
    // be the sum of the entries attached to it.
    const rows = db
      .prepare(
        `SELECT u.id AS user_id, (SELECT coalesce(sum(e.amount_cents), 0) FROM ledger_entries e JOIN payouts p ON p.id = e.payout_id
           WHERE p.batch = ? AND p.user_id = u.id) AS cents FROM users u WHERE u.id LIKE ?`,
      )
      .all(batch, `${SCALE_USER_PREFIX}%`);
    return new Map(rows.map((r) => [r.user_id, Number(r.cents)]));
  } finally {
    db.close();
  }
}

/** --check-batch: the part-way checks on a stopped run's batch, without starting anything. */
function checkStopped(batch) {
  const eligible = eligibleFromPayouts(batch);
  const p = progress(batch);
  out(`\n== Checks of ${batch} as the stopped run left it ==`);
  out(`gathered ${fmt(p.gathered)}, sent ${fmt(p.sent)}, paid ${fmt(p.paid)} of ${fmt(eligible.size)} creators`);
  verify(batch, eligible, `stopped ${batch}`, true);
}

if (values["check-batch"]) {
  checkStopped(values["check-batch"]);
  out(`\n${results.every(Boolean) ? "PASS" : "FAIL"}  part-way checks (${results.filter(Boolean).length}/${results.length})`);
  process.exit(results.every(Boolean) ? 0 : 1);
}

/** --resume-batch: a stopped run taken up again and followed to its last payout, then every check. */
async function resumeStopped(batch, date) {
  const eligible = eligibleFromPayouts(batch);
  const before = progress(batch);
  out(
    `\n== ${batch} taken up again after a stop: gathered ${fmt(before.gathered)}, sent ${fmt(before.sent)}, paid ${fmt(before.paid)} of ${fmt(eligible.size)} ==`,
  );
  const down = performance.now();
  const server = await startServer(`resume-${batch}`);
  const status = await runStatus(`payout-day-${batch}`);
  out(`after the restart the instance payout-day-${batch} is "${status?.status}" (kept on disk; nothing runs it locally until restart=1)`);
  const t0 = performance.now();
  await devPayoutDay({ date, engine: "workflow", restart: "1" });
  out(`phase  server restart after the stop (workerd up, rerun started): ${secs(performance.now() - down)}`);
  const g = await follow(batch, eligible.size, t0, { label: "rerun to the last payout", timeoutMs: 2 * 3600_000 });
  const peak = peakMbOf(`resume-${batch}`);
  const now = progress(batch);
  out(
    `phase  rerun → the last payout paid: ${secs(g.at)}  ${fmt(now.paid - before.paid)} paid = ${((now.paid - before.paid) / (g.at / 1000)).toFixed(1)} transfers/s (re-queueing included); workerd peak ${peak === null ? "?" : `${peak.toFixed(0)} MB`}`,
  );
  const first = results.length;
  verify(batch, eligible, `resumed ${batch}`, false);
  check(
    "every finalized balance paid exactly once (one transfer per payout, no person twice, none forgotten, none orphaned)",
    results.slice(first).every(Boolean),
    `${fmt(eligible.size)} creators, ${fmt(now.paid)} paid`,
  );
  await stopServer(server);
}

if (values["resume-batch"]) {
  const batch = values["resume-batch"];
  await prepareState();
  await resumeStopped(batch, values["resume-date"] ?? `${batch}-28`);
  out(`\n${results.every(Boolean) ? "PASS" : "FAIL"}  all checks (${results.filter(Boolean).length}/${results.length})`);
  process.exit(results.every(Boolean) ? 0 : 1);
}

const started = performance.now();
await prepareState();
out(`bench:payday — ${fmt(CREATORS)} creators, state ${values.state}, port ${PORT}, stand-in pace ${PACE}/s (not Stripe's)`);
let next = 0;
if (!values["skip-measure"]) {
  const m = monthAfter(next++);
  await measure(m, `${m}-28`);
}
for (const k of KILLS) {
  const m = monthAfter(next++);
  if (k === "gather+send") await killTwice(m, `${m}-28`);
  else await killTest(k === "send" ? "sending" : "gathering", m, `${m}-28`);
}
out(
  `\n${results.every(Boolean) ? "PASS" : "FAIL"}  all checks (${results.filter(Boolean).length}/${results.length}); bench wall time ${secs(performance.now() - started)}`,
);
process.exit(results.every(Boolean) ? 0 : 1);
