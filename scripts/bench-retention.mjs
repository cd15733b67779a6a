#!/usr/bin/env node
// /user-retention benchmark on workerd (issue 18): N users who signed up over the last year (70%
// approved, 85% e-mail verified, 40% with a channel, a fifth referred, a tenth through an agency),
// about a million activity days decaying with age, 10,000 licences and 12 months of earnings for
// 15,000 people go straight into a fresh local state (wrangler's getPlatformProxy, as bench-ledger
// does); the BUILT Worker is then served by workerd itself (scripts/bench-server.mjs) and an admin
// loads the page's data (/user-retention.data: the loader alone, i.e. the page's queries) with
// several filter sets, after the daily job's work (timed apart). Prints server time per load; asserts nothing. Target: ≤ 300 ms.
//   npm run bench:retention [-- --users 50000 --runs 15 --port 4247]
import { randomUUID } from "node:crypto";
import { adminSession, benchArgs, pct, withStateD1 } from "./bench-lib.mjs";
import { startBenchServer } from "./bench-server.mjs";

const { values } = benchArgs({
  users: { type: "string", default: "50000" },
  runs: { type: "string", default: "15" },
  port: { type: "string", default: "4247" },
});
const N = Number(values.users);
const RUNS = Number(values.runs);
const TARGET_MS = 300;
const DAY = 86_400_000;
const log = (...args) => console.error("[bench:retention]", ...args);

let prepared;
async function addPeople(stateDir) {
  await withStateD1(stateDir, async (db) => {
    const now = Date.now();
    const iso = (ms) => new Date(ms).toISOString();
    const agency = await db.prepare("SELECT id FROM agencies LIMIT 1").first();
    const track = await db.prepare("SELECT id FROM music_tracks WHERE status = 'published' LIMIT 1").first();
    const people = Array.from({ length: N }, (_, i) => {
      const joined = now - Math.floor(((i * 7919) % 365_000) / 1000) * DAY - (i % 86_400) * 1000;
      return {
        id: randomUUID(),
        email: `ret-${i}@bench.test`,
        creator_id: `R${String(i).padStart(7, "0")}`,
        joined: iso(joined),
        verified: i % 20 < 17 ? iso(joined + 3_600_000) : null,
        approval: i % 10 < 7 ? "approved" : "pending",
        term: i % 10 < 4 ? iso(joined + 2 * DAY) : null,
        i,
      };
    });
    const referrers = people.slice(0, 1000);
    const CHUNK = 500;
    for (let c = 0; c < people.length; c += CHUNK) {
      const rows = people.slice(c, c + CHUNK).map((p) => ({
        ...p,
        referred_by: p.i >= 1000 && p.i % 5 === 0 ? referrers[p.i % 1000].id : null,
        agency_id: agency && p.i % 10 === 3 ? agency.id : null,
      }));
      const json = JSON.stringify(rows);
      await db.batch([
        db
          .prepare(
            `INSERT INTO users (id, email, email_verified_at, user_metadata, created_at)
             SELECT json_extract(value, '$.id'), json_extract(value, '$.email'), json_extract(value, '$.verified'), '{"full_name":"Retention Person"}', json_extract(value, '$.joined') FROM json_each(?)`,
          )
          .bind(json),
        db
          .prepare(
            `INSERT INTO profiles (user_id, creator_id, full_name, approval_status, referred_by, agency_id, term_started_at, created_at)
             SELECT json_extract(value, '$.id'), json_extract(value, '$.creator_id'), 'Retention Person', json_extract(value, '$.approval'),
                    json_extract(value, '$.referred_by'), json_extract(value, '$.agency_id'), json_extract(value, '$.term'), json_extract(value, '$.joined') FROM json_each(?)`,
          )
          .bind(json),
      ]);
    }
    log(`${N} people written`);
    // Activity: per person and day since sign-up, a chance that decays with the days since (per mille).
    const today = iso(now).slice(0, 10);
    for (let c = 0; c < people.length; c += 2500) {
      const ids = JSON.stringify(people.slice(c, c + 2500).map((p) => p.id));
      await db
        .prepare(
          `WITH RECURSIVE d(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM d WHERE i < 366)
           INSERT OR IGNORE INTO user_activity_days (user_id, day)
           SELECT p.user_id, date(p.created_at, '+' || d.i || ' days') FROM profiles p JOIN d
           WHERE p.user_id IN (SELECT value FROM json_each(?)) AND date(p.created_at, '+' || d.i || ' days') <= ?
             AND abs(random()) % 1000 < (CASE WHEN d.i < 7 THEN 500 WHEN d.i < 30 THEN 250 WHEN d.i < 90 THEN 120 ELSE 50 END)`,
        )
        .bind(ids, today)
        .run();
    }
    const days = await db.prepare("SELECT count(*) AS n FROM user_activity_days").first();
    log(`${days.n} activity days written`);
    // 10,000 licences and 12 months of earnings for 15,000 people (hand entries: they count).
    if (track) {
      for (let c = 0; c < 10_000; c += CHUNK) {
        const rows = people
          .slice(c * 3, c * 3 + CHUNK * 3)
          .filter((_, k) => k % 3 === 0)
          .map((p) => ({ id: randomUUID(), user: p.id, code: `SB-B${p.creator_id}` }));
        await db
          .prepare(
            `INSERT INTO music_licences (id, code, track_id, user_id) SELECT json_extract(value, '$.id'), json_extract(value, '$.code'), ?, json_extract(value, '$.user') FROM json_each(?)`,
          )
          .bind(track.id, JSON.stringify(rows))
          .run();
      }
    }
    for (let c = 0; c < 15_000; c += CHUNK) {
      const rows = people.slice(c, c + CHUNK).flatMap((p) =>
        Array.from({ length: 12 }, (_, m) => ({
          id: randomUUID(),
          user: p.id,
          month: `2030-${String(m + 1).padStart(2, "0")}`,
          net: 1000 + m,
          amount: 700 + m,
        })),
      );
      await db
        .prepare(
          `INSERT INTO ledger_entries (id, user_id, month, source_kind, source_id, net_cents, share_bp, amount_cents)
           SELECT json_extract(value, '$.id'), json_extract(value, '$.user'), json_extract(value, '$.month'), 'adjustment', '', json_extract(value, '$.net'), 7000, json_extract(value, '$.amount') FROM json_each(?)`,
        )
        .bind(JSON.stringify(rows))
        .run();
    }
    prepared = { adminToken: await adminSession(db, now) };
  });
}

async function load(base, cookie, query) {
  const started = performance.now();
  const res = await fetch(`${base}/user-retention.data${query}`, { headers: { Cookie: cookie } });
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`load ${query} failed: ${res.status} ${text.slice(0, 300)}`);
  return ms;
}

let server;
try {
  const reuse = process.env.BENCH_REUSE === "1";
  // BENCH_REUSE=1: the people of the previous run; only a fresh admin session is written.
  if (reuse) {
    await withStateD1(".state-bench-retention", async (db) => {
      // The weekly figures are computed again, so their cost is measured every run.
      await db.batch([db.prepare("DELETE FROM retention_cohort_cells"), db.prepare("DELETE FROM retention_weeks")]);
      prepared = { adminToken: await adminSession(db) };
    });
  }
  server = await startBenchServer({ stateDir: ".state-bench-retention", port: values.port, prepare: addPeople, reuse });
  if (!prepared) throw new Error("no admin session");
  const cookie = `sb_session=${prepared.adminToken}`;
  const base = server.url.replace(/\/$/, "");
  log(`${N} users, a year of activity, on ${server.kind}`);
  // The daily job's work (the people snapshot and a year of completed weeks), through the page's
  // 'Refresh figures now' action, which runs the same code; the page's loader itself only reads.
  const started = performance.now();
  const refresh = await fetch(`${base}/user-retention`, {
    method: "POST",
    headers: { Cookie: cookie, Origin: base },
    body: new URLSearchParams({ intent: "refresh" }),
    redirect: "manual",
  });
  if (refresh.status !== 302) throw new Error(`refresh failed: ${refresh.status} ${(await refresh.text()).slice(0, 300)}`);
  console.log(`the daily job's work (people snapshot + a year of completed weeks): ${(performance.now() - started).toFixed(0)} ms`);
  const queries = ["", "?weeks=52", "?weeks=26&source=referral", "?weeks=12&source=agency&inactiveDays=7", "?weeks=52&inactiveDays=90&status=approved&page=3"];
  const all = [];
  for (const q of queries) {
    const times = [];
    for (let r = 0; r < RUNS; r++) times.push(await load(base, cookie, q));
    times.sort((a, b) => a - b);
    all.push(...times);
    console.log(
      `/user-retention${q || " (defaults)"}: p50 ${pct(times, 50).toFixed(0)} ms, p95 ${pct(times, 95).toFixed(0)} ms, max ${times.at(-1).toFixed(0)} ms`,
    );
  }
  all.sort((a, b) => a - b);
  console.log(
    `server time of the page's queries (loader, ${all.length} loads): p50 ${pct(all, 50).toFixed(0)} ms, p95 ${pct(all, 95).toFixed(0)} ms; target ≤ ${TARGET_MS} ms: ${pct(all, 95) <= TARGET_MS ? "met" : "NOT met"}`,
  );
} finally {
  await server?.dispose();
}
