#!/usr/bin/env node
// Local state for N creators that the BUILT Worker serves (issue 45 §3, docs/scale.md): fills the
// local D1 of a bench state folder (the one scripts/bench-server.mjs and e2e-server.mjs use through
// SB_STATE_DIR, after its migrations and the demo seed) with N approved creators, in the shapes the
// app writes, by writing the SQLite file directly (node:sqlite, big transactions; not through HTTP):
//   users + profiles (the demo password, so any of them can sign in), one linked YouTube channel each
//   (scripts/scale-ids.mjs: the ids the generated revenue report uses) with 30 days of snapshots,
//   a year of ledger entries (one music line a month, 5 per-video lines each): the months up to three
//   before now paid (one Stripe payout per month, paid), the last two finished months FINALIZED and
//   unpaid, so a payout day gathers N payouts; an enabled Stripe payout account each, whose Express
//   account exists at the Stripe stand-in (its KV, app/dev/dev-stripe.server.ts), so transfers to it
//   succeed; security audit-log rows, bell notifications, sent e-mails (outbox rows).
// Each month reuses the month's live import when the demo has one (one live import a month), else gets
// its own live import; every filled month is funds-received and finalized.
//
//   npm run scale:state [-- --state .state-scale --creators 100000 --seed 45]
//   (the folder must exist: `npm run bench:server -- --state .state-scale` once, or bench:scale does it)
// Prints the time it took and the database file's size. Run it with `nice -n 10` on a shared machine.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import {
  monthBefore,
  prng,
  scaleChannelId,
  scaleChannelRowId,
  scaleCreatorId,
  scaleEmail,
  scaleStripeAccount,
  scaleUserId,
  scaleVideoId,
} from "./scale-ids.mjs";

const root = resolve(import.meta.dirname, "..");
const DAY = 86_400_000;
const hex = (n, w) => n.toString(16).padStart(w, "0");
const iso = (ms) => new Date(ms).toISOString();
/** The month after `m` (YYYY-MM), `k` months on. */
const monthPlus = (m, k) => {
  const [y, mo] = m.split("-").map(Number);
  return new Date(Date.UTC(y, mo - 1 + k, 1)).toISOString().slice(0, 7);
};
const VIDEOS_PER_ENTRY = 5;
const SNAPSHOT_DAYS = 30;
const AUDIT_ROWS = 10;
const BELL_ROWS = 20;
const EMAIL_ROWS = 10;

/** The SQLite file of a state folder's local D1 database (wrangler's layout under v3/d1). */
export function d1FileOf(stateDir) {
  const dir = join(resolve(root, stateDir), "v3/d1/miniflare-D1DatabaseObject");
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite") : [];
  if (files.length !== 1) throw new Error(`expected one D1 database in ${dir}, found ${files.length}: run the bench server on that state once first`);
  return join(dir, files[0]);
}

/** Total size of a SQLite file with its -wal and -shm. */
export function sqliteBytes(file) {
  return ["", "-wal", "-shm"].reduce((s, x) => s + (existsSync(file + x) ? statSync(file + x).size : 0), 0);
}

/** One creator's Express account at the Stripe stand-in, onboarded (setAccountState "complete"). */
function standInAccount(i, created) {
  return {
    id: scaleStripeAccount(i),
    object: "account",
    type: "express",
    email: scaleEmail(i),
    country: "US",
    default_currency: "usd",
    created: Math.floor(created / 1000),
    details_submitted: true,
    charges_enabled: false,
    payouts_enabled: true,
    capabilities: { transfers: "active" },
    tos_acceptance: { service_agreement: "full" },
    requirements: { currently_due: [], eventually_due: [], past_due: [], disabled_reason: null },
    metadata: { user_id: scaleUserId(i) },
    livemode: false,
  };
}

/**
 * The stand-in's accounts in the state's KV (RATE_LIMITS, where the stand-in keeps devstripe:*). KV's
 * local storage is Miniflare's: one put through Miniflare itself makes the namespace's SQLite file and
 * blob folder, then the rest are written beside it the same way (a row in _mf_entries, a blob file).
 */
async function fillStandInAccounts(stateDir, creators, now) {
  const { Miniflare, convertV4MiniflareOptions } = await import("miniflare");
  const state = resolve(root, stateDir);
  const namespaceId = "00000000000000000000000000000000"; // wrangler.toml's RATE_LIMITS id
  // The options as bench-server.mjs gives them (Miniflare 5 takes them in the v4 shape through convertV4MiniflareOptions).
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      workers: [
        { name: "scale-kv", modules: true, script: "export default { fetch() { return new Response('') } }", kvNamespaces: { RATE_LIMITS: namespaceId } },
      ],
      resourcePersistencePath: join(state, "v3"),
    }),
  );
  const first = standInAccount(0, now);
  await (await mf.getKVNamespace("RATE_LIMITS")).put(`devstripe:account:${first.id}`, JSON.stringify(first));
  await mf.dispose();
  const kvDir = join(state, "v3/kv/miniflare-KVNamespaceObject");
  const file = readdirSync(kvDir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  const blobs = join(state, "v3/kv", namespaceId, "blobs");
  if (!file || !existsSync(blobs)) throw new Error(`the KV namespace's storage was not found under ${kvDir} / ${blobs}`);
  const kv = new DatabaseSync(join(kvDir, file));
  kv.exec("PRAGMA synchronous = OFF");
  const put = kv.prepare("INSERT OR REPLACE INTO _mf_entries (key, blob_id, expiration, metadata) VALUES (?, ?, NULL, NULL)");
  kv.exec("BEGIN");
  for (let i = 1; i < creators; i++) {
    const account = standInAccount(i, now);
    const blobId = `5ca1e${hex(i, 11)}`.padEnd(80, "0");
    writeFileSync(join(blobs, blobId), JSON.stringify(account));
    put.run(`devstripe:account:${account.id}`, blobId);
  }
  kv.exec("COMMIT");
  kv.close();
}

/**
 * Fills `stateDir`'s local D1 (and the stand-in's KV) with `creators` creators. Returns what it did:
 * the months, the finalized unpaid months, the seconds and the file's bytes.
 */
export async function fillScaleState(stateDir, { creators = 100_000, seed = 45, now = Date.now(), log = console.error } = {}) {
  const started = performance.now();
  const file = d1FileOf(stateDir);
  const db = new DatabaseSync(file);
  db.exec("PRAGMA synchronous = OFF; PRAGMA foreign_keys = OFF; PRAGMA cache_size = -262144;");
  const one = (sql, ...args) => db.prepare(sql).get(...args);
  if (one("SELECT count(*) AS n FROM users WHERE id = ?", scaleUserId(0)).n > 0) throw new Error(`${stateDir} is already filled`);
  const admin = one("SELECT id FROM users WHERE email = 'admin@shortbeat.test'");
  const demo = one("SELECT password_hash AS hash FROM users WHERE email = 'creator@shortbeat.test'");
  if (!admin || !demo) throw new Error(`${stateDir} has no demo data (admin@ / creator@shortbeat.test)`);
  const random = prng(seed);
  const today = new Date(now);
  // A year: the 12 finished months up to last month. The last two are finalized and unpaid (the next
  // payout day's); the ten before were paid on the 18th two months after each.
  const months = Array.from({ length: 12 }, (_, k) => monthBefore(today, 12 - k));
  const unpaid = months.slice(-2);
  const monthEnd = (m) => Date.parse(`${monthPlus(m, 1)}-01T00:00:00.000Z`);

  // 1. The months: the demo's live import where it has one, else one of our own; all finalized.
  const importOf = new Map();
  db.exec("BEGIN");
  months.forEach((m, k) => {
    const live = one("SELECT live_import_id AS id FROM revenue_months WHERE month = ?", m);
    const received = iso(monthEnd(m) + 9 * DAY);
    const finalized = iso(monthEnd(m) + 10 * DAY);
    if (live?.id) {
      importOf.set(m, live.id);
      db.prepare(
        "UPDATE revenue_months SET funds_received_at = coalesce(funds_received_at, ?), funds_received_by = coalesce(funds_received_by, ?), finalized_at = coalesce(finalized_at, ?), finalized_by = coalesce(finalized_by, ?) WHERE month = ?",
      ).run(received, admin.id, finalized, admin.id, m);
      // The demo's own estimated lines of a month now finalized are finalized with it.
      db.prepare("UPDATE ledger_entries SET status = 'finalized' WHERE month = ? AND import_id = ? AND status = 'estimated'").run(m, live.id);
      return;
    }
    const id = `00000000-5ca1-4000-a000-${hex(k, 12)}`;
    importOf.set(m, id);
    db.prepare(
      "INSERT INTO revenue_imports (id, month, status, file_name, share_bp, created_by, created_at, went_live_at, format) VALUES (?, ?, 'live', ?, 7000, ?, ?, ?, 'youtube')",
    ).run(id, m, `youtube-content-owner-${m}.csv`, admin.id, iso(monthEnd(m) + 2 * DAY), iso(monthEnd(m) + 2 * DAY));
    db.prepare(
      "INSERT INTO revenue_months (month, live_import_id, funds_received_at, funds_received_by, finalized_at, finalized_by) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (month) DO UPDATE SET live_import_id = excluded.live_import_id, funds_received_at = excluded.funds_received_at, funds_received_by = excluded.funds_received_by, finalized_at = excluded.finalized_at, finalized_by = excluded.finalized_by",
    ).run(m, id, received, admin.id, finalized, admin.id);
  });
  db.exec("COMMIT");

  // 2. The creators, in transactions of 10,000.
  const insert = (table, columns) => db.prepare(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`);
  const users = insert("users", ["id", "email", "email_verified_at", "password_hash", "user_metadata", "created_at", "updated_at"]);
  const profiles = insert("profiles", [
    "user_id",
    "creator_id",
    "full_name",
    "approval_status",
    "term_started_at",
    "created_at",
    "updated_at",
    "last_sign_in_at",
  ]);
  const channels = insert("youtube_channels", [
    "id",
    "user_id",
    "channel_id",
    "channel_title",
    "channel_handle",
    "subscriber_count",
    "view_count",
    "video_count",
    "thumbnail_url",
    "description",
    "created_at",
    "updated_at",
    "last_synced_at",
  ]);
  const snapshots = insert("channel_snapshots", ["id", "channel_row_id", "day", "subscriber_count", "view_count", "video_count", "created_at"]);
  const accounts = insert("payout_accounts", ["user_id", "method", "stripe_account_id", "status", "synced_at", "created_at", "updated_at"]);
  const entries = insert("ledger_entries", [
    "id",
    "user_id",
    "month",
    "source_kind",
    "source_id",
    "net_cents",
    "share_bp",
    "amount_cents",
    "status",
    "payout_id",
    "import_id",
    "created_at",
  ]);
  const videoLines = insert("ledger_video_lines", ["entry_id", "video_id", "net_cents", "amount_cents"]);
  const payouts = insert("payouts", [
    "id",
    "user_id",
    "batch",
    "payout_date",
    "amount_cents",
    "status",
    "reference",
    "paid_at",
    "created_at",
    "method",
    "stripe_account_id",
    "stripe_transfer_id",
    "sent_at",
  ]);
  const audits = insert("security_audit_log", ["id", "event_type", "severity", "user_id", "ip", "user_agent", "path", "details", "created_at"]);
  const notes = insert("notifications", ["id", "title", "content", "kind", "audience", "created_at"]);
  const bells = insert("user_notifications", ["id", "user_id", "notification_id", "is_read", "read_at", "created_at"]);
  const mails = insert("email_outbox", [
    "id",
    "to_email",
    "subject",
    "body_text",
    "kind",
    "created_at",
    "sent_at",
    "status",
    "attempts",
    "next_attempt_at",
    "message_id",
    "body_purged_at",
  ]);
  const totals = new Map(months.map((m) => [m, { entries: 0, net: 0, amount: 0 }]));
  const yearAgo = now - 365 * DAY;
  const AGENT = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
  const EVENTS = ["sign_in", "sign_in", "sign_in", "sign_out", "password_changed", "session_revoked"];
  const TITLES = ["Payout sent", "Your statement is ready", "Track approved", "New campaign", "Clip approved"];
  const uuid = (kind, i, k) => `00000000-5ca1-4${hex(kind, 3)}-8${hex(k, 3)}-${hex(i, 12)}`;
  const CHUNK = 10_000;
  for (let from = 0; from < creators; from += CHUNK) {
    db.exec("BEGIN");
    for (let i = from; i < Math.min(creators, from + CHUNK); i++) {
      const u = scaleUserId(i);
      const joined = iso(yearAgo - Math.floor(random() * 30) * DAY);
      const name = `Scale Creator ${i}`;
      users.run(u, scaleEmail(i), joined, demo.hash, JSON.stringify({ full_name: name }), joined, joined);
      profiles.run(u, scaleCreatorId(i), name, "approved", joined, joined, joined, iso(now - Math.floor(random() * 20) * DAY));
      const subs = 1_000 + Math.floor(random() * 500_000);
      const views = subs * (50 + Math.floor(random() * 200));
      const row = scaleChannelRowId(i);
      channels.run(
        row,
        u,
        scaleChannelId(i),
        `Scale Channel ${i}`,
        `@scale${i}`,
        subs,
        views,
        100 + (i % 400),
        `https://yt3.ggpht.com/scale-${i}=s88-c-k-c0x00ffffff-no-rj`,
        "Shorts every day.",
        joined,
        iso(now - DAY),
        iso(now - DAY),
      );
      for (let d = SNAPSHOT_DAYS; d >= 1; d--) {
        snapshots.run(uuid(1, i, d), row, iso(now - d * DAY).slice(0, 10), subs - d * 10, views - d * 5_000, 100 + (i % 400), iso(now - d * DAY));
      }
      accounts.run(u, "stripe", scaleStripeAccount(i), "enabled", iso(now - 200 * DAY), joined, joined);
      months.forEach((m, k) => {
        const net = 500 + Math.floor(random() * 60_000);
        const amount = Math.floor((net * 7000) / 10000);
        const paid = !unpaid.includes(m);
        const entry = uuid(2, i, k);
        let payout = null;
        if (paid) {
          const batch = monthPlus(m, 2);
          payout = uuid(3, i, k);
          const paidAt = iso(Date.parse(`${batch}-18T10:00:00.000Z`));
          const transfer = `tr_scale${hex(i, 8)}${hex(k, 4)}`;
          payouts.run(
            payout,
            u,
            batch,
            `${batch}-18`,
            amount,
            "paid",
            transfer,
            paidAt,
            iso(Date.parse(`${batch}-18T03:17:00.000Z`)),
            "stripe",
            scaleStripeAccount(i),
            transfer,
            paidAt,
          );
        }
        entries.run(
          entry,
          u,
          m,
          "music",
          scaleChannelId(i),
          net,
          7000,
          amount,
          paid ? "paid" : "finalized",
          payout,
          importOf.get(m),
          iso(monthEnd(m) + 2 * DAY),
        );
        // Per-video lines adding up exactly to the entry (the first takes what division leaves).
        const netPart = Math.floor(net / VIDEOS_PER_ENTRY);
        const amountPart = Math.floor(amount / VIDEOS_PER_ENTRY);
        for (let v = 0; v < VIDEOS_PER_ENTRY; v++) {
          videoLines.run(
            entry,
            scaleVideoId(i, v),
            v === 0 ? net - netPart * (VIDEOS_PER_ENTRY - 1) : netPart,
            v === 0 ? amount - amountPart * (VIDEOS_PER_ENTRY - 1) : amountPart,
          );
        }
        const t = totals.get(m);
        t.entries += 1;
        t.net += net;
        t.amount += amount;
      });
      for (let a = 0; a < AUDIT_ROWS; a++) {
        const at = now - Math.floor(random() * 365) * DAY - Math.floor(random() * DAY);
        audits.run(uuid(4, i, a), EVENTS[a % EVENTS.length], "low", u, `203.0.113.${i % 250}`, AGENT, "/auth", JSON.stringify({ method: "password" }), iso(at));
      }
      for (let b = 0; b < BELL_ROWS; b++) {
        const at = now - Math.floor(random() * 365) * DAY;
        const note = uuid(5, i, b);
        notes.run(note, TITLES[b % TITLES.length], "Your statement for the month is ready to download from Payments.", "info", "user", iso(at));
        const read = now - at > 14 * DAY;
        bells.run(uuid(6, i, b), u, note, read ? 1 : 0, read ? iso(at + DAY) : null, iso(at));
      }
      for (let e = 0; e < EMAIL_ROWS; e++) {
        const at = now - Math.floor(random() * 180) * DAY;
        const old = now - at > 30 * DAY;
        mails.run(
          uuid(7, i, e),
          scaleEmail(i),
          "Your payout is on its way",
          old ? "" : "Hello, your payout for the month is on its way to your Stripe account.",
          "payout_sent",
          iso(at),
          iso(at + 60_000),
          "sent",
          1,
          iso(at),
          `<${uuid(7, i, e)}@shortbeat.app>`,
          old ? iso(at + 30 * DAY) : null,
        );
      }
    }
    db.exec("COMMIT");
    if ((from / CHUNK) % 2 === 1 || from + CHUNK >= creators)
      log(`[scale-state] ${Math.min(creators, from + CHUNK).toLocaleString("en-US")} creators (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  // The imports' own counters, as a commit writes them.
  db.exec("BEGIN");
  for (const [m, t] of totals) {
    db.prepare("UPDATE revenue_imports SET entry_count = entry_count + ?, net_cents = net_cents + ?, amount_cents = amount_cents + ? WHERE id = ?").run(
      t.entries,
      t.net,
      t.amount,
      importOf.get(m),
    );
  }
  db.exec("COMMIT");
  db.exec("PRAGMA optimize; PRAGMA wal_checkpoint(TRUNCATE);");
  db.close();
  await fillStandInAccounts(stateDir, creators, now);
  const seconds = (performance.now() - started) / 1000;
  return { file, months, unpaid, seconds, bytes: sqliteBytes(file) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      state: { type: "string", default: ".state-scale" },
      creators: { type: "string", default: "100000" },
      seed: { type: "string", default: "45" },
    },
  });
  mkdirSync(resolve(root, values.state), { recursive: true });
  const r = await fillScaleState(values.state, { creators: Number(values.creators), seed: Number(values.seed) });
  console.log(
    `scale:state — ${Number(values.creators).toLocaleString("en-US")} creators filled in ${r.seconds.toFixed(1)} s into ${r.file.replace(`${root}/`, "")} ` +
      `(${(r.bytes / 1024 ** 3).toFixed(2)} GB); months ${r.months[0]}…${r.months.at(-1)}, finalized and unpaid: ${r.unpaid.join(", ")}`,
  );
}
