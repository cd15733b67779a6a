#!/usr/bin/env node
// Community chat benchmark on workerd (issue 17): N signed-in members open a WebSocket to one room
// of the built Worker served by workerd itself (scripts/bench-server.mjs: Miniflare's own socket,
// no Node proxy, its own state), then M messages are sent through POST /api/chat by M different
// members (the per-user limit is 5 per 10 s), one after another, after one unmeasured warm-up
// message (the first request compiles the route). Each socket records when each
// message arrived. Prints how many (message, socket) deliveries arrived of those expected and the
// fan-out latency p50/p99/max from the moment the send request left to the frame being read here.
// Figures only; asserts nothing. Goals: 100% delivered, p99 ≤ 250 ms.
//   npm run bench:chat [-- --sockets 500 --messages 100 --gap 20]
import { randomUUID } from "node:crypto";
import { benchArgs, closeSockets, insertApprovedUsers, ms, openSockets, pct, withStateD1 } from "./bench-lib.mjs";
import { startBenchServer } from "./bench-server.mjs";

const { values, base } = benchArgs({
  sockets: { type: "string", default: "500" },
  messages: { type: "string", default: "100" },
  port: { type: "string", default: "4236" },
  "open-concurrency": { type: "string", default: "50" },
  // Milliseconds between one send's answer and the next send.
  gap: { type: "string", default: "20" },
  timeout: { type: "string", default: "30" },
});
const N = Number(values.sockets);
const M = Number(values.messages);
// The seeded room 'general' (app/dev/chat-seed.ts).
const ROOM = "00000000-0000-4000-8000-000000006000";

const log = (...args) => console.error("[bench]", ...args);

let prepared;
async function addUsers(stateDir) {
  await withStateD1(stateDir, async (db) => {
    // One more member than needed: the warm-up message's sender.
    const users = await insertApprovedUsers(db, { count: Math.max(N, M) + 1, email: (i) => `chat-bench-${i}@bench.test`, prefix: "C", name: "Bench Member" });
    const room = await db.prepare("SELECT id FROM chat_rooms WHERE id = ?").bind(ROOM).first();
    if (!room) throw new Error("the seeded room 'general' is missing (app/dev/chat-seed.ts)");
    prepared = { users };
  });
}

let server;
try {
  log(`preparing state with ${Math.max(N, M)} members, building and starting the app…`);
  server = await startBenchServer({ stateDir: ".state-bench-chat", port: values.port, prepare: addUsers, reuse: process.env.BENCH_REUSE === "1" });
  const { users } = prepared ?? { users: [] };
  if (users.length === 0) throw new Error("BENCH_REUSE needs the users of this run: run without it");

  log(`opening ${N} sockets to #general…`);
  const t = performance.now();
  const sockets = await openSockets(base, users.slice(0, N), {
    path: `/api/chat/socket?room=${ROOM}`,
    concurrency: Number(values["open-concurrency"]),
    onFrame: (s, m) => m.type === "message" && s.received.set(m.message.body, performance.now()),
  });
  const live = sockets.filter((s) => s.open);
  const openSeconds = (performance.now() - t) / 1000;
  log(`${live.length} of ${N} sockets open in ${openSeconds.toFixed(1)} s`);
  await new Promise((r) => setTimeout(r, 1000));

  // One unmeasured message first: the first request of the built Worker compiles and warms the
  // /api/chat route (its p99 would otherwise be this one message: 1% of the deliveries).
  const warm = await fetch(`${base}/api/chat`, {
    method: "POST",
    body: new URLSearchParams({ intent: "send", roomId: ROOM, body: "warm-up" }),
    headers: { Cookie: `sb_session=${users[users.length - 1].token}`, Origin: base },
  });
  log(`warm-up send: ${warm.status}`);
  await new Promise((r) => setTimeout(r, 500));

  const sent = [];
  const failures = [];
  const responseMs = [];
  for (let i = 0; i < M; i++) {
    const sender = users[i % (users.length - 1)];
    const body = `bench ${i} ${randomUUID().slice(0, 8)}`;
    const t0 = performance.now();
    const res = await fetch(`${base}/api/chat`, {
      method: "POST",
      body: new URLSearchParams({ intent: "send", roomId: ROOM, body }),
      headers: { Cookie: `sb_session=${sender.token}`, Origin: base },
    });
    responseMs.push(performance.now() - t0);
    if (res.ok) sent.push({ body, t0, seq: (await res.json()).message.seq });
    else failures.push(`${res.status} ${await res.text()}`);
    if (Number(values.gap) > 0) await new Promise((r) => setTimeout(r, Number(values.gap)));
  }
  const deadline = Date.now() + Number(values.timeout) * 1000;
  const expected = sent.length * live.length;
  const got = () => live.reduce((n, s) => n + sent.filter((m) => s.received.has(m.body)).length, 0);
  while (Date.now() < deadline && got() < expected) await new Promise((r) => setTimeout(r, 50));

  const latencies = [];
  for (const s of live) for (const m of sent) if (s.received.has(m.body)) latencies.push(s.received.get(m.body) - m.t0);
  latencies.sort((a, b) => a - b);
  responseMs.sort((a, b) => a - b);
  // The same order everywhere: each socket received the messages in seq order.
  const inOrder = live.every((s) => {
    const order = sent.filter((m) => s.received.has(m.body)).sort((a, b) => s.received.get(a.body) - s.received.get(b.body));
    return order.every((m, i) => i === 0 || order[i - 1].seq < m.seq);
  });

  console.log(`\nCommunity chat on ${server.kind}`);
  console.log(
    `${live.length} of ${N} sockets open in one room (in ${openSeconds.toFixed(1)} s); ${sent.length} of ${M} messages sent by ${Math.min(M, users.length - 1)} members, one after another (${values.gap} ms apart), after one unmeasured warm-up message.`,
  );
  console.log("Fan-out latency = from sending POST /api/chat to the message frame arriving on a socket.");
  console.table([
    {
      delivered: `${latencies.length} / ${expected} (${expected ? ((100 * latencies.length) / expected).toFixed(1) : "0"}%)`,
      "fan-out p50": ms(pct(latencies, 50)),
      "fan-out p99": ms(pct(latencies, 99)),
      "fan-out max": ms(latencies.at(-1)),
      "send answer p50": ms(pct(responseMs, 50)),
      "send answer p99": ms(pct(responseMs, 99)),
      "same order on every socket": inOrder ? "yes" : "NO",
    },
  ]);
  // Where the tail comes from: the slowest messages (median over the sockets that got them).
  const perMessage = sent
    .map((m, i) => {
      const xs = live
        .filter((s) => s.received.has(m.body))
        .map((s) => s.received.get(m.body) - m.t0)
        .sort((a, b) => a - b);
      return { message: i, "median fan-out": pct(xs, 50) };
    })
    .sort((a, b) => b["median fan-out"] - a["median fan-out"])
    .slice(0, 3)
    .map((r) => ({ ...r, "median fan-out": ms(r["median fan-out"]) }));
  console.log("Slowest messages:");
  console.table(perMessage);
  if (failures.length) console.log(`${failures.length} sends refused, first: ${failures[0]}`);
  closeSockets(sockets);
} finally {
  await server?.dispose();
}
process.exit(0);
