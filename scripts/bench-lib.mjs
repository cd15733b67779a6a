// Shared by the bench scripts: command-line options, the repository root, waiting for the app,
// signing the demo accounts in, percentiles, the machine's yardstick and load average printed at
// the end, and writing a bench's own rows (users, sessions) into its fresh state folder before the
// server opens it.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { cpuPerRequest } from "./bench-cpu.mjs";

export const root = resolve(import.meta.dirname, "..");

/** Parses the command line with `options` (each script has its own, `port` included); `base` is the app's URL. */
export function benchArgs(options) {
  const { values } = parseArgs({ options });
  return { values, base: `http://127.0.0.1:${values.port}` };
}

/** Polls `${base}/healthz` for up to two minutes. */
export async function waitForServer(base) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("server did not start");
}

/** The demo password of every seeded account (app/dev/seed.server.ts). */
export const DEMO_PASSWORD = "Shortbeat#2026";

/** Signs a seeded account in through the sign-in form, as a browser does; returns its `sb_session=…` cookie. */
export async function signIn(base, email, password = DEMO_PASSWORD) {
  const res = await fetch(`${base}/auth`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "signin", email, password }),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("sb_session=") && c.length > "sb_session=".length);
  if (!cookie) throw new Error(`sign-in as ${email} failed (HTTP ${res.status})`);
  return cookie;
}

/** The p-th percentile of an ascending array (nearest rank). */
export const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : Number.NaN);

/**
 * The machine's yardstick: the same fixed work (one password hashed and verified, argon2id, the
 * DEV_TOOLS route /dev/bench/password?n=1) timed the same way, so figures from two machines can be
 * compared: a page's ms divided by this one's is the machine-free figure. Prints its line.
 */
export async function printYardstick(base, { inspectorPort, interval, mode }) {
  const yardstickUrl = `${base}/dev/bench/password?n=1`;
  const probe = await fetch(yardstickUrl);
  await probe.arrayBuffer();
  if (probe.ok) {
    const [yardstick] = await cpuPerRequest([{ inspectorPort, url: yardstickUrl, headers: {} }], {
      requests: 10,
      interval,
    });
    yardstick.sort((a, b) => a - b);
    console.log(
      `reference /dev/bench/password?n=1 (argon2id hash + verify, the machine's yardstick) p50 ${pct(yardstick, 50).toFixed(1)} ms (46 ms on the 2-core VM of 2026-11-28, idle)`,
    );
  } else console.log(`reference: not measured (/dev/bench/password answered ${probe.status}: a build without DEV_TOOLS, --mode ${mode})`);
}

/** The machine's load at the end of a run, and its cores: figures from a busy machine read high. */
export function printLoadAverage() {
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} (${cpus().length} cores)`,
  );
}

/** sha256 hex: sessions are stored by the hash of their token. */
export const sha256 = (s) => createHash("sha256").update(s).digest("hex");

/** A random session token (lower-case letters and digits, as the app makes them). */
export const sessionToken = () =>
  randomBytes(20)
    .toString("base64url")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "a");

/**
 * Runs `fn(db)` on the D1 database of a bench's state folder (wrangler's getPlatformProxy, D1 only:
 * wrangler.toml itself would make it warn about the Durable Objects), before the server opens it.
 */
export async function withStateD1(stateDir, fn) {
  const config = join(mkdtempSync(join(tmpdir(), "shortbeat-bench-")), "wrangler.json");
  const d1 = [{ binding: "DB", database_name: "shortbeat", database_id: "00000000-0000-0000-0000-000000000000" }];
  writeFileSync(config, JSON.stringify({ name: "shortbeat-bench", compatibility_date: "2026-10-01", d1_databases: d1 }));
  const { getPlatformProxy } = await import("wrangler");
  const proxy = await getPlatformProxy({ configPath: config, persist: { path: join(stateDir, "v3") } });
  try {
    return await fn(proxy.env.DB);
  } finally {
    await proxy.dispose();
  }
}

/** A fresh session for the seeded admin (admin@shortbeat.test); returns its token. */
export async function adminSession(db, now = Date.now()) {
  const iso = (ms) => new Date(ms).toISOString();
  const admin = await db.prepare("SELECT id FROM users WHERE email = 'admin@shortbeat.test'").first();
  const adminToken = sessionToken();
  await db
    .prepare("INSERT INTO sessions (id, user_id, expires_at, absolute_expires_at, last_seen_at) VALUES (?, ?, ?, ?, ?)")
    .bind(sha256(adminToken), admin.id, iso(now + 7 * 864e5), iso(now + 30 * 864e5), iso(now))
    .run();
  return adminToken;
}

/**
 * Inserts `count` approved bench users (users + profiles) in chunks of 500 through json_each, each
 * with one session unless `sessions` is false. User i is `{ id, email: email(i), creator_id, token, ...more(i) }`
 * (creator_id: `prefix` and i in 7 digits; no token without sessions); `extra(db, json)` adds a chunk's
 * own statements to its batch (`json`: the chunk's users). Returns the users.
 */
export async function insertApprovedUsers(db, { count, email, prefix, name, sessions = true, more = () => ({}), extra = () => [], now = Date.now() }) {
  const iso = (ms) => new Date(ms).toISOString();
  const users = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    email: email(i),
    creator_id: `${prefix}${String(i).padStart(7, "0")}`,
    ...(sessions ? { token: sessionToken() } : {}),
    ...more(i),
  }));
  const CHUNK = 500;
  for (let i = 0; i < users.length; i += CHUNK) {
    const json = JSON.stringify(users.slice(i, i + CHUNK).map((u) => (sessions ? { ...u, session: sha256(u.token) } : u)));
    await db.batch([
      db
        .prepare(
          `INSERT INTO users (id, email, email_verified_at, user_metadata)
           SELECT json_extract(value, '$.id'), json_extract(value, '$.email'), ?, ? FROM json_each(?)`,
        )
        .bind(iso(now), JSON.stringify({ full_name: name }), json),
      db
        .prepare(
          `INSERT INTO profiles (user_id, creator_id, full_name, approval_status)
           SELECT json_extract(value, '$.id'), json_extract(value, '$.creator_id'), ?, 'approved' FROM json_each(?)`,
        )
        .bind(name, json),
      ...(sessions
        ? [
            db
              .prepare(
                `INSERT INTO sessions (id, user_id, expires_at, absolute_expires_at, last_seen_at)
                 SELECT json_extract(value, '$.session'), json_extract(value, '$.id'), ?, ?, ? FROM json_each(?)`,
              )
              .bind(iso(now + 7 * 864e5), iso(now + 30 * 864e5), iso(now), json),
          ]
        : []),
      ...extra(db, json),
    ]);
  }
  return users;
}

/**
 * Opens one WebSocket per user to `path` (the user's session cookie, our Origin), `concurrency` at a
 * time. Each socket is `{ ws, user, open, received: Map, ...state() }`; `onFrame(s, message)` gets
 * every JSON frame (pongs skipped). A socket not open after 20 s is returned with `open: false`.
 */
export async function openSockets(base, users, { path, concurrency, state = () => ({}), onFrame }) {
  const openOne = (user) =>
    new Promise((done) => {
      const ws = new WebSocket(`${base.replace(/^http/, "ws")}${path}`, { headers: { Cookie: `sb_session=${user.token}`, Origin: base } });
      const s = { ws, user, open: false, received: new Map(), ...state() };
      const timer = setTimeout(() => done(s), 20_000);
      ws.onopen = () => {
        s.open = true;
        clearTimeout(timer);
        done(s);
      };
      ws.onmessage = (e) => {
        if (typeof e.data !== "string" || e.data === "pong") return;
        onFrame(s, JSON.parse(e.data));
      };
      ws.onerror = () => {};
      ws.onclose = () => {
        if (!s.open) {
          clearTimeout(timer);
          done(s);
        }
        s.open = false;
      };
    });
  const sockets = [];
  let next = 0;
  const worker = async () => {
    while (next < users.length) sockets.push(await openOne(users[next++]));
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return sockets;
}

/** Closes every socket of a bench (1000, "bench done"). */
export function closeSockets(sockets) {
  for (const s of sockets) {
    try {
      s.ws.close(1000, "bench done");
    } catch {}
  }
}

/**
 * CPU time (ms) the kernel has counted for every thread of process `pid` so far (/proc/<pid>/task/*
 * /schedstat, nanoseconds): what workerd spent, whatever the machine's load did to wall-clock
 * times. NaN where /proc is not readable.
 */
export function processCpuMs(pid) {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    return ns / 1e6;
  } catch {
    return Number.NaN;
  }
}

/** A duration for the tables: "12.3 ms", or "-". */
export const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(1)} ms` : "-");
