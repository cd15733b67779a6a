#!/usr/bin/env node
// How big the database gets (issue 32, docs/scale.md). Builds a database with the app's own schema
// (every SQL migration of migrations/, applied in order, as D1 applies them: D1 stores SQLite), fills
// it for N creators with a year of the rows each one makes, in the shapes the app writes, then reads
// SQLite's own page accounting (dbstat: every table with its indexes) and prints, per table, rows and
// bytes per creator-year and the size at 100,000 and 1,000,000 creators against D1's 10 GB limit.
//
//   npm run scale:fill [-- --creators 2000 --out .state-scale/scale.sqlite]
//
// The rates per creator-year are assumptions, stated in RATES below and in docs/scale.md, taken from
// what the product does: the daily channel refresh writes a snapshot per channel per day, every
// signed-in day is an activity day, a month of revenue is a ledger line per source and per video, and
// so on. Change a rate and run again; the bytes per row are measured, not assumed.
// Uses Node's built-in SQLite (node:sqlite, Node 22.5+; run with the repository's Node 24).
import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";

const root = resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: { creators: { type: "string", default: "2000" }, out: { type: "string", default: ".state-scale/scale.sqlite" } },
});
const CREATORS = Number(values.creators);
const out = resolve(root, values.out);
const LIMIT_BYTES = 10 * 1024 ** 3;

/** Rows each creator adds in a year, per table (see docs/scale.md for where each figure comes from). */
const RATES = {
  users: 1,
  profiles: 1,
  youtube_channels: 1.2,
  sessions: 4,
  channel_snapshots: 1.2 * 365,
  user_activity_days: 200,
  notifications: 120,
  user_notifications: 300,
  chat_messages: 400,
  ledger_entries: 12 * 3,
  ledger_video_lines: 12 * 40,
  campaign_submissions: 24,
  email_outbox: 60,
  security_audit_log: 40,
};

const iso = (d) => d.toISOString();
const day = (i) => iso(new Date(Date.UTC(2026, 0, 1) + i * 86_400_000)).slice(0, 10);
const words = (n) => Array.from({ length: n }, () => randomBytes(4).toString("base64url").toLowerCase()).join(" ");
const pick = (xs, i) => xs[i % xs.length];

/** One row of each table as the app writes it, for creator `c` (its user id `u`) and its i-th row of the year. */
const ROWS = {
  users: (u, c) => ({
    id: u,
    email: `creator${c}@example.com`,
    email_verified_at: iso(new Date()),
    password_hash: `$scrypt$${randomBytes(48).toString("base64")}`,
  }),
  profiles: (u, c) => ({
    user_id: u,
    creator_id: `SB${String(c).padStart(6, "0")}`,
    full_name: `Creator ${c}`,
    approval_status: "approved",
    referred_by: null,
  }),
  youtube_channels: (u, c, i) => ({
    id: `${u}-ch${i}`,
    user_id: u,
    channel_id: `UC${randomBytes(16).toString("base64url").slice(0, 22)}`,
    channel_title: `Channel of creator ${c}`,
    channel_handle: `@creator${c}`,
    subscriber_count: 12_000,
    view_count: 3_400_000,
    video_count: 240,
    thumbnail_url: `https://yt3.ggpht.com/${randomBytes(30).toString("base64url")}=s88-c-k-c0x00ffffff-no-rj`,
    description: words(20),
  }),
  sessions: (u, _c, i) => ({
    id: randomBytes(32).toString("hex"),
    user_id: u,
    expires_at: iso(new Date()),
    absolute_expires_at: iso(new Date()),
    user_agent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
    ip: `203.0.113.${i % 250}`,
  }),
  channel_snapshots: (u, _c, i) => ({
    id: randomUUID(),
    channel_row_id: `${u}-ch${i % 2}`,
    day: `${day(i % 365)}${i >= 365 ? "b" : ""}`,
    subscriber_count: 12_000 + i,
    view_count: 3_400_000 + i * 900,
    video_count: 240,
  }),
  user_activity_days: (u, _c, i) => ({ user_id: u, day: day(i) }),
  notifications: (_u, _c, i) => ({
    id: randomUUID(),
    title: pick(["Clip approved", "New campaign", "Payout sent", "Track approved", "Sam Clipper submitted a clip"], i),
    content: words(18),
    created_by: null,
    kind: pick(["broadcast", "event"], i),
    audience: "user",
  }),
  user_notifications: (u, _c, i) => ({ id: randomUUID(), user_id: u, notification_id: randomUUID(), is_read: i % 3 === 0 ? 0 : 1, read_at: iso(new Date()) }),
  chat_messages: (u, c, i) => ({ id: randomUUID(), room_id: "room-general", seq: c * 1000 + i, user_id: u, body: words(12), mentions: "[]" }),
  ledger_entries: (u, _c, i) => ({
    id: randomUUID(),
    user_id: u,
    month: day(Math.floor(i / 3) * 31).slice(0, 7),
    source_kind: pick(["music", "campaign", "clip"], i),
    source_id: randomUUID(),
    net_cents: 12_345,
    share_bp: 7000,
    amount_cents: 8642,
    status: "finalized",
    import_id: randomUUID(),
  }),
  ledger_video_lines: (_u, _c, i) => ({
    entry_id: `${_u}-e${Math.floor(i / 40)}`,
    video_id: randomBytes(8).toString("base64url").slice(0, 11),
    net_cents: 321,
    amount_cents: 225,
  }),
  campaign_submissions: (u, _c, i) => ({
    id: randomUUID(),
    campaign_id: `campaign-${i % 12}`,
    user_id: u,
    url: `https://www.youtube.com/shorts/${randomBytes(8).toString("base64url").slice(0, 11)}`,
    platform: "youtube",
    video_key: `youtube:${randomBytes(8).toString("base64url").slice(0, 11)}`,
    channel_id: "UCabcdefghijklmnopqrstuv",
    rate_cents: 150,
    status: "approved",
    views: 48_000,
    amount_cents: 7200,
    reviewed_by: null,
    reviewed_at: iso(new Date()),
  }),
  email_outbox: (_u, c, i) => ({
    id: randomUUID(),
    to_email: `creator${c}@example.com`,
    subject: pick(["Your clip was approved", "Verify your e-mail", "Your payout is on its way"], i),
    // Bodies are emptied after 30 days (retention, docs/privacy.md): a twelfth of a year's keep theirs.
    body_text: i % 12 === 0 ? words(120) : "",
    kind: pick(["clip_approved", "verify_email", "payout_sent"], i),
    status: "sent",
    sent_at: iso(new Date()),
    attempts: 1,
    message_id: `<${randomUUID()}@shortbeat.app>`,
  }),
  security_audit_log: (u, _c, i) => ({
    id: randomUUID(),
    event_type: pick(["sign_in", "sign_out", "password_changed", "session_revoked"], i),
    severity: "low",
    user_id: u,
    ip: `203.0.113.${i % 250}`,
    user_agent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36",
    path: "/auth",
    details: JSON.stringify({ method: "password" }),
  }),
};

// 1. The schema: every migration, in order.
rmSync(out, { force: true });
mkdirSync(dirname(out), { recursive: true });
const db = new DatabaseSync(out);
db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF;");
for (const file of readdirSync(join(root, "migrations"))
  .filter((f) => f.endsWith(".sql"))
  .sort()) {
  for (const statement of readFileSync(join(root, "migrations", file), "utf8").split("--> statement-breakpoint")) {
    if (statement.trim()) db.exec(statement);
  }
}
// Row parents (users for sessions, entries for video lines…) are filled by the same loop; the
// references are not checked while filling, as a bulk import would not.
db.exec("PRAGMA foreign_keys = OFF;");

// 2. The rows: a year for each creator, one transaction per table.
const started = performance.now();
for (const [table, rate] of Object.entries(RATES)) {
  let statement = null;
  db.exec("BEGIN");
  for (let c = 0; c < CREATORS; c++) {
    const u = `user-${c}`;
    // A fractional rate is met on average: 1.2 → every fifth creator has a second one.
    const n = Math.floor(rate) + (c % 10 < Math.round((rate % 1) * 10) ? 1 : 0);
    for (let i = 0; i < n; i++) {
      const row = table === "ledger_entries" ? { ...ROWS[table](u, c, i), id: `${u}-e${i}` } : ROWS[table](u, c, i);
      statement ??= db.prepare(
        `INSERT INTO ${table} (${Object.keys(row).join(", ")}) VALUES (${Object.keys(row)
          .map(() => "?")
          .join(", ")})`,
      );
      statement.run(...Object.values(row));
    }
  }
  db.exec("COMMIT");
}
db.exec("PRAGMA wal_checkpoint(TRUNCATE);");
const fillSeconds = (performance.now() - started) / 1000;

// 3. SQLite's own accounting: the pages of each table and of its indexes.
const bytes = new Map(
  db
    .prepare("SELECT s.tbl_name AS name, SUM(d.pgsize) AS bytes FROM dbstat d JOIN sqlite_schema s ON s.name = d.name GROUP BY s.tbl_name")
    .all()
    .map((r) => [r.name, Number(r.bytes)]),
);
const total = Number(db.prepare("SELECT page_count * page_size AS b FROM pragma_page_count(), pragma_page_size()").get().b);
const fmt = (b) => (b >= 1024 ** 3 ? `${(b / 1024 ** 3).toFixed(1)} GB` : b >= 1024 ** 2 ? `${(b / 1024 ** 2).toFixed(1)} MB` : `${(b / 1024).toFixed(1)} KB`);

const rows = Object.keys(RATES)
  .map((table) => {
    const count = Number(db.prepare(`SELECT count(*) AS n FROM ${table}`).get().n);
    const b = bytes.get(table) ?? 0;
    const perCreator = b / CREATORS;
    return {
      table,
      "rows / creator-year": +(count / CREATORS).toFixed(1),
      "bytes / row (with indexes)": Math.round(b / Math.max(1, count)),
      "KB / creator-year": +(perCreator / 1024).toFixed(1),
      "at 100k creators, 1 year": fmt(perCreator * 100_000),
      "at 1M creators, 1 year": fmt(perCreator * 1_000_000),
      "creators to reach 10 GB alone (1 year)": Math.round(LIMIT_BYTES / perCreator),
    };
  })
  .sort((a, b) => b["KB / creator-year"] - a["KB / creator-year"]);

const perCreatorAll = total / CREATORS;
console.log(`scale:fill — ${CREATORS} creators, a year each, filled in ${fillSeconds.toFixed(1)} s into ${values.out} (${fmt(total)})`);
console.table(rows);
console.log(
  `whole database: ${(perCreatorAll / 1024).toFixed(1)} KB per creator-year (tables above, the library and the rest); ` +
    `100,000 creators: ${fmt(perCreatorAll * 100_000)} a year; 1,000,000 creators: ${fmt(perCreatorAll * 1_000_000)} a year; ` +
    `D1's 10 GB hold ${Math.round(LIMIT_BYTES / perCreatorAll).toLocaleString("en-US")} creator-years.`,
);
db.close();
