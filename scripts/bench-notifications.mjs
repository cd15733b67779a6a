#!/usr/bin/env node
// Notifications benchmark on workerd: N signed-in users each open a WebSocket to the built Worker
// served by workerd itself (scripts/bench-server.mjs: Miniflare's own socket, no Node proxy, its
// own state), an admin broadcasts to everyone, and each socket records when the notification
// arrived. Prints, per round, how many sockets got it and the latency p50/p99/max from the moment
// the broadcast request was sent, with a breakdown from the timestamps a devtools build puts in
// the frame (PushTrace in app/modules/notifications/delivery.server.ts):
//   D1 fan-out       request sent → D1 writes done (session, audience query, the fan-out batches)
//   queue/dispatch   D1 done → push sent to the user's Durable Object (up to 5,000 recipients: the
//                    request's waitUntil and NotifyFanOut invocations, 500 pushes each; beyond: the queue)
//   DO wake + RPC    push sent → the object runs push() (includes waking from hibernation)
//   socket send      the object sends → the frame is read here
// Round 1 follows an idle period (objects hibernated), later rounds follow at once (warm).
// The wake cost per object (issue 32): workerd's CPU time during each round (the kernel's count for
// all its threads, /proc/<pid>/task/*/schedstat, which the machine's load moves far less than
// wall-clock latency) divided by the recipients, and round 1's figure minus the warm rounds' mean:
// what waking one object from hibernation costs, so a change to the wake path shows. With it, the
// wall-clock span of round 1's deliveries per object.
// Figures only; asserts nothing. Goals (issue 12): 100% delivered, warm p99 ≤ 250 ms, ≤ 1 s from hibernation.
//   npm run bench:notifications [-- --sockets 1000 --rounds 3 --idle 15]
// A/B of two builds: run once with --state <folder> for each, then alternate
//   BENCH_REUSE=1 npm run bench:notifications -- --state <folder>
// which serves that folder's build and users again (no rebuild; the earlier broadcasts stay in its D1).
//
// The N users and their sessions go straight into the fresh state folder (through wrangler's
// getPlatformProxy) before the server opens it.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { adminSession, benchArgs, closeSockets, insertApprovedUsers, ms, openSockets, pct, processCpuMs, withStateD1 } from "./bench-lib.mjs";
import { startBenchServer } from "./bench-server.mjs";

const { values, base } = benchArgs({
  sockets: { type: "string", default: "1000" },
  rounds: { type: "string", default: "3" },
  port: { type: "string", default: "4234" },
  "open-concurrency": { type: "string", default: "50" },
  timeout: { type: "string", default: "60" },
  idle: { type: "string", default: "15" },
  state: { type: "string", default: ".state-bench-notifications" },
});
const N = Number(values.sockets);
const ROUNDS = Math.max(1, Number(values.rounds));

const log = (...args) => console.error("[bench]", ...args);

// ---------------------------------------------------------------------------------------------
// 1. State: (demo data from bench-server.mjs) N approved creators with one session each, an admin session
// ---------------------------------------------------------------------------------------------
let prepared;
async function addUsers(stateDir) {
  await withStateD1(stateDir, async (db) => {
    const now = Date.now();
    const users = await insertApprovedUsers(db, { count: N, email: (i) => `bench-${i}@bench.test`, prefix: "B", name: "Bench User", now });
    prepared = { users, adminToken: await adminSession(db, now) };
  });
  writeFileSync(join(stateDir, "bench-users.json"), JSON.stringify(prepared));
}

// ---------------------------------------------------------------------------------------------
// 3. Sockets
// ---------------------------------------------------------------------------------------------
async function broadcastRound(round, sockets, adminToken, pid) {
  const title = `Bench broadcast ${round} ${Date.now()}`;
  const cpuBefore = processCpuMs(pid);
  const body = new URLSearchParams({ title, content: "Benchmark message", audience: "all" });
  const t0 = performance.now();
  const t0Epoch = Date.now();
  const res = await fetch(`${base}/api/notifications?intent=broadcast`, {
    method: "POST",
    body,
    headers: { Cookie: `sb_session=${adminToken}`, Origin: base },
  });
  const responseMs = performance.now() - t0;
  const answer = await res.json();
  if (!res.ok) throw new Error(`broadcast failed: ${res.status} ${JSON.stringify(answer)}`);
  const deadline = Date.now() + Number(values.timeout) * 1000;
  const open = sockets.filter((s) => s.open);
  while (Date.now() < deadline && open.some((s) => !s.received.has(title))) await new Promise((r) => setTimeout(r, 20));
  // Everything this round made workerd do is done once the last socket has it (or the timeout passed).
  const cpuMs = processCpuMs(pid) - cpuBefore;
  const latencies = open
    .map((s) => s.received.get(title))
    .filter((t) => t !== undefined)
    .map((t) => t - t0)
    .sort((a, b) => a - b);
  const traces = open.map((s) => s.traces.get(title)).filter(Boolean);
  const stage = (f) => traces.map(f).sort((a, b) => a - b);
  const stages = {
    "D1 fan-out": stage((t) => t.d1DoneAt - t0Epoch),
    "queue/dispatch": stage((t) => t.pushAt - t.d1DoneAt),
    "DO wake + RPC": stage((t) => t.doAt - t.pushAt),
    "socket send": stage((t) => t.readAt - t.doAt),
  };
  const row = {
    round: round === 1 ? "1 (from hibernation)" : `${round} (warm)`,
    "workerd CPU / object": `${(cpuMs / Math.max(1, answer.recipients ?? open.length)).toFixed(2)} ms`,
    "delivery span / object": `${((latencies.at(-1) - latencies[0]) / Math.max(1, latencies.length)).toFixed(2)} ms`,
    delivered: `${latencies.length} / ${sockets.length} (${((100 * latencies.length) / sockets.length).toFixed(1)}%)`,
    p50: ms(pct(latencies, 50)),
    p99: ms(pct(latencies, 99)),
    max: ms(latencies.at(-1)),
    response: ms(responseMs),
    "D1 write (server)": ms(answer.d1WriteMs),
    "rows written": answer.recipients,
  };
  const breakdown = Object.entries(stages).map(([name, xs]) => ({ round, stage: name, p50: ms(pct(xs, 50)), p99: ms(pct(xs, 99)), max: ms(xs.at(-1)) }));
  return { row, breakdown, cpuPerObject: cpuMs / Math.max(1, answer.recipients ?? open.length) };
}

// ---------------------------------------------------------------------------------------------
let server;
try {
  log(`preparing state with ${N} users, building and starting the app…`);
  const reuse = process.env.BENCH_REUSE === "1" && existsSync(join(values.state, "bench-users.json"));
  server = await startBenchServer({ stateDir: values.state, port: values.port, prepare: addUsers, reuse });
  prepared ??= JSON.parse(readFileSync(join(values.state, "bench-users.json"), "utf8"));
  if (prepared.users.length !== N) throw new Error(`${values.state} holds ${prepared.users.length} bench users, not ${N}`);
  const { users, adminToken } = prepared;

  log(`opening ${N} sockets…`);
  const t = performance.now();
  const sockets = await openSockets(base, users, {
    path: "/api/notifications/socket",
    concurrency: Number(values["open-concurrency"]),
    state: () => ({ traces: new Map() }),
    onFrame: (s, m) => {
      if (m.type !== "notification") return;
      s.received.set(m.notification.title, performance.now());
      if (m.trace) s.traces.set(m.notification.title, { ...m.trace, readAt: Date.now() });
    },
  });
  const opened = sockets.filter((s) => s.open).length;
  const openSeconds = (performance.now() - t) / 1000;
  log(`${opened} of ${N} sockets open in ${openSeconds.toFixed(1)} s`);

  // Idle sockets let their objects hibernate (about 10 s locally): round 1 measures waking them.
  log(`idle ${values.idle} s so the objects hibernate…`);
  await new Promise((r) => setTimeout(r, Number(values.idle) * 1000));
  const rows = [];
  const breakdown = [];
  const cpuPerObject = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const result = await broadcastRound(r, sockets, adminToken, server.pid);
    rows.push(result.row);
    breakdown.push(...result.breakdown);
    cpuPerObject.push(result.cpuPerObject);
    log(`round ${r}: ${result.row.delivered}, p99 ${result.row.p99}`);
  }

  console.log(`\nNotifications on ${server.kind}`);
  console.log(`${N} users, ${opened} of ${N} sockets open (in ${openSeconds.toFixed(1)} s), broadcast to everyone.`);
  console.log("Latency = from sending the broadcast request to the notification arriving on a socket.");
  console.log(`Round 1 follows ${values.idle} s idle (objects hibernated); later rounds follow at once (warm).`);
  console.table(rows);
  console.log("Breakdown per socket (timestamps in the frame; devtools build):");
  console.table(breakdown);
  const warm = cpuPerObject.slice(1);
  if (warm.length) {
    const wake = cpuPerObject[0] - warm.reduce((a, b) => a + b, 0) / warm.length;
    console.log(
      `wake from hibernation: ${wake.toFixed(3)} ms of workerd CPU per object (round 1 ${cpuPerObject[0].toFixed(3)} ms/object, warm ${warm.map((x) => x.toFixed(3)).join(", ")} ms/object)`,
    );
  }
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} (${cpus().length} cores)`,
  );
  closeSockets(sockets);
} finally {
  await server?.dispose();
}
process.exit(0);
