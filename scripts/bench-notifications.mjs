#!/usr/bin/env node
// Notifications benchmark: N signed-in users each open a WebSocket to the built app (vite
// preview on workerd, its own state), an admin broadcasts to everyone, and each socket records
// when the notification arrived. Prints delivery latency p50/p99/max (from the moment the
// broadcast request was sent), how many sockets got it, and the D1 write time of the fan-out
// as the server measured it. Figures only; asserts nothing.
//   npm run bench:notifications [-- --sockets 1000 --rounds 3 --port 4234]
//
// Like scripts/e2e-server.mjs it prepares a fresh state folder with setup-local.mjs (migrations,
// demo data), adds the N users and their sessions straight into that state through wrangler's
// getPlatformProxy *before* the server starts (the e2e server wipes its folder on start, so it
// cannot be given pre-made users), then builds and serves the app the same way.
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { benchArgs, root, waitForServer } from "./bench-lib.mjs";

const { values, base } = benchArgs({
  sockets: { type: "string", default: "1000" },
  rounds: { type: "string", default: "3" },
  port: { type: "string", default: "4234" },
  "open-concurrency": { type: "string", default: "50" },
  timeout: { type: "string", default: "60" },
  idle: { type: "string", default: "15" },
});
const N = Number(values.sockets);
const ROUNDS = Math.max(1, Number(values.rounds));
process.env.SB_STATE_DIR = ".state-bench-notifications";
const stateDir = join(root, process.env.SB_STATE_DIR);

const sha256 = (s) => createHash("sha256").update(s).digest("hex");
const token = () =>
  randomBytes(20)
    .toString("base64url")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "a");
const log = (...args) => console.error("[bench]", ...args);

// ---------------------------------------------------------------------------------------------
// 1. State: migrations, demo data, N approved creators with one session each, an admin session
// ---------------------------------------------------------------------------------------------
async function prepareState() {
  rmSync(stateDir, { recursive: true, force: true });
  const { applyMigrations, ensureDevVars, seed } = await import("./setup-local.mjs");
  ensureDevVars();
  applyMigrations();
  await seed();

  const { getPlatformProxy } = await import("wrangler");
  const proxy = await getPlatformProxy({ configPath: join(root, "wrangler.toml"), persist: { path: join(stateDir, "v3") } });
  const db = proxy.env.DB;
  try {
    const now = Date.now();
    const iso = (ms) => new Date(ms).toISOString();
    const users = Array.from({ length: N }, (_, i) => ({
      id: randomUUID(),
      email: `bench-${i}@bench.test`,
      creator_id: `B${String(i).padStart(7, "0")}`,
      token: token(),
    }));
    const CHUNK = 500;
    for (let i = 0; i < users.length; i += CHUNK) {
      const chunk = users.slice(i, i + CHUNK);
      const json = JSON.stringify(chunk.map((u) => ({ ...u, session: sha256(u.token) })));
      await db.batch([
        db
          .prepare(
            `INSERT INTO users (id, email, email_verified_at, user_metadata)
             SELECT json_extract(value, '$.id'), json_extract(value, '$.email'), ?, '{"full_name":"Bench User"}' FROM json_each(?)`,
          )
          .bind(iso(now), json),
        db
          .prepare(
            `INSERT INTO profiles (user_id, creator_id, full_name, approval_status)
             SELECT json_extract(value, '$.id'), json_extract(value, '$.creator_id'), 'Bench User', 'approved' FROM json_each(?)`,
          )
          .bind(json),
        db
          .prepare(
            `INSERT INTO sessions (id, user_id, expires_at, absolute_expires_at, last_seen_at)
             SELECT json_extract(value, '$.session'), json_extract(value, '$.id'), ?, ?, ? FROM json_each(?)`,
          )
          .bind(iso(now + 7 * 864e5), iso(now + 30 * 864e5), iso(now), json),
      ]);
    }
    const admin = await db.prepare("SELECT id FROM users WHERE email = 'admin@shortbeat.test'").first();
    const adminToken = token();
    await db
      .prepare("INSERT INTO sessions (id, user_id, expires_at, absolute_expires_at, last_seen_at) VALUES (?, ?, ?, ?, ?)")
      .bind(sha256(adminToken), admin.id, iso(now + 7 * 864e5), iso(now + 30 * 864e5), iso(now))
      .run();
    return { users, adminToken };
  } finally {
    await proxy.dispose();
  }
}

// ---------------------------------------------------------------------------------------------
// 2. Server: production build on workerd (vite preview), as the end-to-end suite runs it
// ---------------------------------------------------------------------------------------------
function startServer() {
  const build = spawnSync(process.execPath, [join(root, "node_modules/.bin/react-router"), "build"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (build.status !== 0) throw new Error("build failed");
  return spawn(process.execPath, [join(root, "node_modules/.bin/vite"), "preview", "--port", values.port, "--strictPort"], {
    cwd: root,
    env: process.env,
    stdio: ["ignore", process.env.BENCH_DEBUG ? "inherit" : "ignore", "inherit"],
  });
}

// ---------------------------------------------------------------------------------------------
// 3. Sockets
// ---------------------------------------------------------------------------------------------
function openSocket(user) {
  return new Promise((resolvePromise) => {
    const ws = new WebSocket(`${base.replace(/^http/, "ws")}/api/notifications/socket`, {
      headers: { Cookie: `sb_session=${user.token}`, Origin: base },
    });
    const s = { ws, user, open: false, received: new Map() };
    const timer = setTimeout(() => resolvePromise(s), 20_000);
    ws.onopen = () => {
      s.open = true;
      clearTimeout(timer);
      resolvePromise(s);
    };
    ws.onmessage = (e) => {
      if (typeof e.data !== "string" || e.data === "pong") return;
      const m = JSON.parse(e.data);
      if (m.type === "notification") s.received.set(m.notification.title, performance.now());
    };
    ws.onerror = () => {};
    ws.onclose = () => {
      if (!s.open) {
        clearTimeout(timer);
        resolvePromise(s);
      }
      s.open = false;
    };
  });
}

async function openAll(users, concurrency) {
  const sockets = [];
  let next = 0;
  const worker = async () => {
    while (next < users.length) sockets.push(await openSocket(users[next++]));
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return sockets;
}

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN);
const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : "-");

async function broadcastRound(round, sockets, adminToken) {
  const title = `Bench broadcast ${round} ${Date.now()}`;
  const body = new URLSearchParams({ title, content: "Benchmark message", audience: "all" });
  const t0 = performance.now();
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
  const latencies = open
    .map((s) => s.received.get(title))
    .filter((t) => t !== undefined)
    .map((t) => t - t0)
    .sort((a, b) => a - b);
  return {
    round,
    delivered: `${latencies.length} / ${sockets.length}`,
    p50: ms(pct(latencies, 50)),
    p99: ms(pct(latencies, 99)),
    max: ms(latencies.at(-1)),
    response: ms(responseMs),
    "D1 write (server)": ms(answer.d1WriteMs),
    "rows written": answer.recipients,
  };
}

// ---------------------------------------------------------------------------------------------
let server;
try {
  log(`preparing state with ${N} users…`);
  const { users, adminToken } = await prepareState();
  log("building and starting the app…");
  server = startServer();
  await waitForServer(base);

  log(`opening ${N} sockets…`);
  const t = performance.now();
  const sockets = await openAll(users, Number(values["open-concurrency"]));
  const opened = sockets.filter((s) => s.open).length;
  const openSeconds = (performance.now() - t) / 1000;
  log(`${opened} of ${N} sockets open in ${openSeconds.toFixed(1)} s`);

  // Idle sockets let their objects hibernate (about 10 s locally): round 1 measures waking them.
  log(`idle ${values.idle} s so the objects hibernate…`);
  await new Promise((r) => setTimeout(r, Number(values.idle) * 1000));
  const rows = [];
  for (let r = 1; r <= ROUNDS; r++) rows.push(await broadcastRound(r, sockets, adminToken));

  console.log(`\nNotifications: ${N} users, ${opened} of ${N} sockets open (in ${openSeconds.toFixed(1)} s), broadcast to everyone, ${base}`);
  console.log("Latency = from sending the broadcast request to the notification arriving on a socket.");
  console.log("Round 1 follows an idle period (objects hibernated); later rounds follow at once (objects mostly awake).");
  console.table(rows);
  for (const s of sockets) {
    try {
      s.ws.close(1000, "bench done");
    } catch {}
  }
} finally {
  server?.kill("SIGTERM");
}
process.exit(0);
