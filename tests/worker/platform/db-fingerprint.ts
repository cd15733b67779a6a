// A digest of the whole local D1, to prove that a refused request changed nothing.
import { env } from "cloudflare:workers";
import { present } from "../../helpers/present";

/**
 * Columns that change on every request without anything having happened: a session's sliding
 * expiry (last_seen_at, expires_at) is extended by whatever request reads it.
 */
const VOLATILE_COLUMNS: Record<string, readonly string[]> = {
  sessions: ["last_seen_at", "expires_at"],
  // Delivery of e-mails queued by earlier requests goes on after their responses (waitUntil,
  // docs/decisions/0210): a row's delivery state is not a change made by the request under test.
  email_outbox: ["status", "attempts", "next_attempt_at", "claim_id", "claimed_until", "sent_at", "message_id", "last_error"],
};

/**
 * Tables left out of the digest: security_audit_log records refused attempts on purpose (compare
 * its rows with `auditRowsSince` where they matter); service_status is what the app last saw of an
 * outside service (docs/decisions/0312), written by deliveries that go on after earlier responses
 * (the e-mail sender's waitUntil), not a change made by the request under test.
 */
const SKIPPED_TABLES = new Set(["security_audit_log", "service_status"]);

export type TableDigest = { rows: number; hash: string };
export type Fingerprint = Record<string, TableDigest>;

let tableNames: string[] | null = null;

async function tables(): Promise<string[]> {
  if (tableNames) return tableNames;
  const { results } = await env.DB.prepare(
    `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'
     AND name != 'd1_migrations' ORDER BY name`,
  ).all<{ name: string; sql: string }>();
  // Full-text indexes (virtual tables and their shadow tables) are derived from their content
  // table by triggers: the content table's digest already covers them.
  const virtual = results.filter((r) => /^CREATE VIRTUAL TABLE/i.test(r.sql)).map((r) => r.name);
  const derived = (name: string) => virtual.some((v) => name === v || name.startsWith(`${v}_`));
  tableNames = results.map((r) => r.name).filter((name) => !SKIPPED_TABLES.has(name) && !derived(name));
  return tableNames;
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Row count and a hash of the rows (ordered by rowid) of every table, one D1 round trip.
 * Compare two with `expect(after).toEqual(before)`: a difference names the table that changed.
 */
export async function fingerprint(): Promise<Fingerprint> {
  const names = await tables();
  const results = await env.DB.batch(names.map((name) => env.DB.prepare(`SELECT * FROM ${quote(name)} ORDER BY rowid`)));
  const out: Fingerprint = {};
  for (const [i, name] of names.entries()) {
    const volatile = VOLATILE_COLUMNS[name] ?? [];
    const rows = (present(results[i], `the rows of ${name}`).results as Record<string, unknown>[]).map((row) => {
      const kept: Record<string, unknown> = {};
      for (const key of Object.keys(row).sort()) if (!volatile.includes(key)) kept[key] = row[key];
      return kept;
    });
    out[name] = { rows: rows.length, hash: await sha256(JSON.stringify(rows)) };
  }
  return out;
}

/** The newest audit row id, to read what a request added with `auditRowsSince`. */
export async function auditMark(): Promise<number> {
  const row = await env.DB.prepare("SELECT coalesce(max(rowid), 0) AS n FROM security_audit_log").first<{ n: number }>();
  return Number(row?.n ?? 0);
}

/** The event types of the audit rows written after `mark`, in order. */
export async function auditRowsSince(mark: number): Promise<string[]> {
  const { results } = await env.DB.prepare("SELECT event_type FROM security_audit_log WHERE rowid > ? ORDER BY rowid").bind(mark).all<{ event_type: string }>();
  return results.map((r) => r.event_type);
}
