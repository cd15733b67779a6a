import { expectAt } from "~/lib/arrays";
import { and, asc, desc, eq, inArray, like, lt, lte, or, sql } from "drizzle-orm";
import { emailOutbox } from "~/db/schema";
import { db } from "./db.server";
import { purgeInChunks, type PurgeLimits } from "./purge.server";
import { unsubscribeLinks, isOptedOut } from "./email-preferences.server";
import { headerValue, headerValues, isOptional, renderEmail, type RenderedEmail } from "./email-templates.server";
import { appName, appOrigin, devToolsEnabled, env } from "./env.server";
import { alertAdminsOnce, quotaPausedUntil, recordFailure, recordSuccess, setQuotaPaused } from "./service-status.server";

// Delivery of the outbox through Cloudflare Email Service (the EMAIL send_email binding; locally
// Miniflare's, which keeps each message under .wrangler/state and the local explorer). The outbox
// row is the record (docs/decisions/0210):
// - claimed once: one UPDATE … RETURNING moves due rows to 'sending' with this sender's claim id
//   and a lease; a parallel sender's UPDATE cannot take the same rows (SQLite runs writes one at a
//   time), and a row whose sender died comes back when its lease ends;
// - sent, then stamped 'sent' with sent_at and the provider's message id (guarded by the claim id);
// - a failure goes back to 'pending' with next_attempt_at after a backoff; a permanent refusal, or
//   the MAX_ATTEMPTS-th failure, marks it 'failed' with the error;
// - a refusal that is the account's, not the message's (the daily quota is spent, the sender is not
//   verified), spends no attempt: the row waits, sending pauses for everyone, and for the sender the
//   admins are alerted once (docs/decisions/0309). A sign-up's verification mail is then late, never lost.
//
// The binding throws "standard Error objects with a `code` property"; the codes are the Workers API
// table: https://developers.cloudflare.com/email-service/api/send-emails/workers-api/ (read 2026-12-06).

export const MAX_ATTEMPTS = 5;
/** The wait after the n-th failed attempt (n = 1 … MAX_ATTEMPTS - 1). */
export const BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const;
/** How long a claimed row is its sender's: long past one send, short enough that a crash delays mail by minutes. */
export const CLAIM_LEASE_MS = 5 * 60_000;
/** Rows claimed per round; each is sent in parallel with the others of its round. */
const ROUND_SIZE = 25;

/** The service's refusals that another try cannot change (the Workers API's error codes). */
const PERMANENT_CODES = new Set([
  "E_VALIDATION_ERROR",
  "E_FIELD_MISSING",
  "E_TOO_MANY_RECIPIENTS",
  "E_RECIPIENT_NOT_ALLOWED",
  "E_RECIPIENT_SUPPRESSED",
  "E_CONTENT_TOO_LARGE",
  "E_HEADER_NOT_ALLOWED",
  "E_HEADER_USE_API_FIELD",
  "E_HEADER_VALUE_INVALID",
  "E_HEADER_VALUE_TOO_LONG",
  "E_HEADER_NAME_INVALID",
  "E_HEADERS_TOO_LARGE",
  "E_HEADERS_TOO_MANY",
]);

/**
 * Refusals that are about the account, not the message: another try of the same row before the
 * operator (or the clock) fixes it is wasted. E_DAILY_LIMIT_EXCEEDED: "Daily sending quota reached";
 * E_SENDER_NOT_VERIFIED: "Attempting to send from unverified domain"; E_SENDER_DOMAIN_NOT_AVAILABLE:
 * "Domain not onboarded to Email Service" (the Workers API table above).
 */
export const QUOTA_CODE = "E_DAILY_LIMIT_EXCEEDED";
export const SENDER_CODES = new Set(["E_SENDER_NOT_VERIFIED", "E_SENDER_DOMAIN_NOT_AVAILABLE"]);
/** How long sending waits after a sender refusal before one row tries again (the operator may have fixed it). */
export const SENDER_PAUSE_MS = 30 * 60_000;
/** Optional mail without an https APP_ORIGIN: not sent, and why (List-Unsubscribe needs an https link, RFC 8058). */
export const NO_HTTPS_ORIGIN = "Not sent: optional e-mail needs APP_ORIGIN to be an https:// origin for its one-click unsubscribe link (List-Unsubscribe).";

export type SendFailure = { code: string | null; message: string; permanent: boolean };

/**
 * When the daily quota is back. Cloudflare's limits page says "daily" without naming the hour
 * (https://developers.cloudflare.com/email-service/platform/limits/, read 2026-12-06): we take the
 * next 00:00 UTC, plus a minute; a row that is refused again simply waits for the next one.
 */
export function quotaResetAfter(now: number): string {
  const d = new Date(now);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1, 0, 1)).toISOString();
}

/**
 * Whether optional mail (with its unsubscribe link) may leave from this origin: https, or — with the
 * development tools on — a loopback origin, whose mail only ever reaches the local mailbox.
 */
export function originAllowsOptionalMail(origin: string, local = devToolsEnabled()): boolean {
  if (origin.startsWith("https://")) return true;
  return local && /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(origin);
}

/** What a thrown send error means: its code (the binding's `code` property), a short message, and whether to try again. */
export function classifySendError(error: unknown): SendFailure {
  const code = typeof (error as { code?: unknown })?.code === "string" ? (error as { code: string }).code : null;
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 300);
  return { code, message, permanent: code !== null && PERMANENT_CODES.has(code) };
}

/** When a row that failed its `attempts`-th try is tried again, or null: it has failed for good. */
export function nextAttemptAfter(attempts: number, failure: SendFailure, now: number): string | null {
  if (failure.permanent || attempts >= MAX_ATTEMPTS) return null;
  const delay = BACKOFF_MS[Math.min(attempts, BACKOFF_MS.length) - 1];
  if (delay === undefined) throw new RangeError(`nextAttemptAfter: attempt ${attempts} (the first try is attempt 1)`);
  return new Date(now + delay).toISOString();
}

type OutboxRow = typeof emailOutbox.$inferSelect;

/** The sending binding's one method, as this module uses it. */
export type EmailBinding = Pick<SendEmail, "send">;

/** The sender address and the binding of this deployment. */
function sendingSetup(via?: EmailBinding) {
  // Read loosely: a deployment may lack the binding or the settings, which the row's error then says.
  const loose = env as Partial<Pick<Env, "EMAIL" | "EMAIL_FROM" | "EMAIL_REPLY_TO">>;
  return { binding: via ?? loose.EMAIL, from: loose.EMAIL_FROM, replyTo: loose.EMAIL_REPLY_TO };
}

/** The message that leaves for a row: the template, and for optional mail the unsubscribe links and headers. */
export async function messageFor(
  row: Pick<OutboxRow, "toEmail" | "kind" | "subject" | "bodyText"> & Partial<Pick<OutboxRow, "userSpans" | "actionUrl">>,
): Promise<RenderedEmail> {
  const origin = appOrigin();
  const links = isOptional(row.kind) ? await unsubscribeLinks(row.toEmail, "news") : null;
  return renderEmail({ kind: row.kind, subject: row.subject, text: row.bodyText, userSpans: row.userSpans, actionUrl: row.actionUrl }, origin, links);
}

type Outcome = "sent" | "retrying" | "failed" | "waiting";

async function sendOne(row: OutboxRow, via: EmailBinding | undefined, now: number): Promise<{ outcome: Outcome; failure?: SendFailure }> {
  const claimed = and(eq(emailOutbox.id, row.id), eq(emailOutbox.claimId, row.claimId ?? ""));
  /** Back to pending until `until`, the attempt this claim counted given back. */
  const wait = async (failure: SendFailure, until: string) => {
    const lastError = `${failure.code}: ${failure.message}`;
    await db()
      .update(emailOutbox)
      .set({ status: "pending", nextAttemptAt: until, lastError, attempts: sql`max(${emailOutbox.attempts} - 1, 0)`, claimId: null, claimedUntil: null })
      .where(claimed)
      .run();
    return { outcome: "waiting" as const, failure };
  };
  const fail = async (failure: SendFailure) => {
    const next = nextAttemptAfter(row.attempts, failure, now);
    const lastError = failure.code ? `${failure.code}: ${failure.message}` : failure.message;
    await db()
      .update(emailOutbox)
      .set(
        next
          ? { status: "pending", nextAttemptAt: next, lastError, claimId: null, claimedUntil: null }
          : { status: "failed", lastError, claimId: null, claimedUntil: null },
      )
      .where(claimed)
      .run();
    return { outcome: next ? ("retrying" as const) : ("failed" as const), failure };
  };
  if (isOptional(row.kind) && (await isOptedOut(row.toEmail, "news"))) {
    return fail({ code: null, message: "Not sent: the address unsubscribed from these e-mails.", permanent: true });
  }
  if (isOptional(row.kind) && !originAllowsOptionalMail(safeOrigin())) {
    console.error("optional e-mail not sent: APP_ORIGIN is not https", row.id, row.kind);
    await alertAdminsOnce("email", "CONFIG_APP_ORIGIN_NOT_HTTPS", NO_HTTPS_ORIGIN);
    return fail({ code: "CONFIG_APP_ORIGIN_NOT_HTTPS", message: NO_HTTPS_ORIGIN, permanent: true });
  }
  const { binding, from, replyTo } = sendingSetup(via);
  if (!binding || !from) {
    return fail({ code: null, message: !binding ? "The EMAIL binding is not configured." : "EMAIL_FROM is not set.", permanent: false });
  }
  let messageId: string;
  try {
    const message = await messageFor(row);
    // The one place mail leaves: no header value carries a control character, whatever the row
    // holds (an old row, a caller that forgot userText; SECURITY.md, docs/decisions/0288).
    const result = await binding.send({
      from: { email: headerValue(from), name: headerValue(appName()) },
      to: headerValue(row.toEmail),
      subject: headerValue(message.subject),
      html: message.html,
      text: message.text,
      ...(replyTo ? { replyTo: headerValue(replyTo) } : {}),
      ...(Object.keys(message.headers).length ? { headers: headerValues(message.headers) } : {}),
    });
    messageId = result.messageId;
  } catch (error) {
    const failure = classifySendError(error);
    console.error("e-mail send failed", row.id, row.kind, failure.code);
    if (failure.code === QUOTA_CODE) {
      const until = quotaResetAfter(now);
      await setQuotaPaused("email", until);
      return wait(failure, until);
    }
    if (failure.code && SENDER_CODES.has(failure.code)) {
      const until = new Date(now + SENDER_PAUSE_MS).toISOString();
      await setQuotaPaused("email", until);
      await alertAdminsOnce("email", failure.code, `${failure.message} Check EMAIL_FROM's domain in Compute → Email Service → Email Sending.`);
      return wait(failure, until);
    }
    return fail(failure);
  }
  await db()
    .update(emailOutbox)
    .set({ status: "sent", sentAt: new Date().toISOString(), messageId, lastError: null, claimId: null, claimedUntil: null })
    .where(claimed)
    .run();
  return { outcome: "sent" };
}

function safeOrigin(): string {
  try {
    return appOrigin();
  } catch {
    return "";
  }
}

export type DeliveryReport = { claimed: number; sent: string[]; retrying: string[]; failed: string[]; waiting: string[] };

/** Rows a sender may take at `now`: due pending rows, and rows whose sender's lease ran out. */
function dueAt(now: string) {
  return or(
    and(eq(emailOutbox.status, "pending"), lte(emailOutbox.nextAttemptAt, now)),
    and(eq(emailOutbox.status, "sending"), lt(emailOutbox.claimedUntil, now)),
  );
}

/**
 * Claims and sends due rows, at most `limit` of them (all of `ids` or `prefix` when given, e.g. the
 * rows a request just queued). Several senders may run at once: each row is sent by one of them.
 * `via` is the binding to send through (the deployment's EMAIL unless a test names another).
 */
export async function deliverDue(options: { limit?: number; ids?: string[]; prefix?: string; via?: EmailBinding; now?: number } = {}): Promise<DeliveryReport> {
  const report: DeliveryReport = { claimed: 0, sent: [], retrying: [], failed: [], waiting: [] };
  const limit = options.limit ?? 200;
  // The account's quota is spent (or its sender refused): nothing is claimed, no attempt is spent.
  if (await quotaPausedUntil("email", options.now ?? Date.now())) return report;
  while (report.claimed < limit) {
    const now = options.now ?? Date.now();
    const at = new Date(now).toISOString();
    const claimId = crypto.randomUUID();
    const scope = options.ids ? inArray(emailOutbox.id, options.ids) : options.prefix ? like(emailOutbox.id, `${options.prefix}-%`) : undefined;
    const candidates = db()
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(and(dueAt(at), scope))
      .orderBy(asc(emailOutbox.nextAttemptAt))
      .limit(Math.min(ROUND_SIZE, limit - report.claimed));
    // One statement: the rows it moves to 'sending' are this sender's alone.
    const rows = await db()
      .update(emailOutbox)
      .set({ status: "sending", claimId, claimedUntil: new Date(now + CLAIM_LEASE_MS).toISOString(), attempts: sql`${emailOutbox.attempts} + 1` })
      .where(and(inArray(emailOutbox.id, candidates), dueAt(at)))
      .returning();
    if (rows.length === 0) break;
    report.claimed += rows.length;
    const outcomes = await Promise.all(rows.map((row) => sendOne(row, options.via, now)));
    for (const [i, { outcome }] of outcomes.entries()) report[outcome].push(expectAt(rows, i, "send outcomes per row").id);
    // The System status panel: one write per round, not per message.
    const failure = outcomes.find((o) => o.failure)?.failure;
    if (failure) await recordFailure("email", failure.code, failure.message);
    if (outcomes.some((o) => o.outcome === "waiting")) break;
    if (outcomes.some((o) => o.outcome === "sent")) await recordSuccess("email");
  }
  return report;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * After a request queued rows: sends them as soon as their batch has committed. The rows may not
 * be there yet (the caller's batch runs after the query was built) or ever (the batch failed, the
 * throttle held them back), so it looks a few times over a few seconds and then leaves the rest to
 * the sweep.
 */
export async function deliverQueued(rows: { ids?: string[]; prefix?: string }): Promise<void> {
  try {
    for (const wait of [20, 250, 1000, 3000]) {
      await sleep(wait);
      const report = await deliverDue({ ...rows, limit: 500 });
      if (report.claimed > 0) return;
    }
  } catch (error) {
    console.error("e-mail delivery after the request failed", error);
  }
}

/** The scheduled sweep: everything due (new rows a request could not send, retries, rows whose sender died). */
export async function sweepOutbox(): Promise<DeliveryReport> {
  return deliverDue({ limit: 1000 });
}

// ---------------------------------------------------------------------------------------------
// Reading the record: delivery status for admins and the development mailbox
// ---------------------------------------------------------------------------------------------

export type DeliveryStatus = "queued" | "sending" | "sent" | "retrying" | "failed";

export function deliveryStatusOf(row: Pick<OutboxRow, "status" | "attempts">): DeliveryStatus {
  if (row.status === "pending") return row.attempts > 0 ? "retrying" : "queued";
  return row.status;
}

export type DeliveryEntry = {
  id: string;
  toEmail: string;
  kind: string;
  subject: string;
  createdAt: string;
  status: DeliveryStatus;
  attempts: number;
  sentAt: string | null;
  nextAttemptAt: string | null;
  lastError: string | null;
  messageId: string | null;
};

const entryColumns = {
  id: emailOutbox.id,
  toEmail: emailOutbox.toEmail,
  kind: emailOutbox.kind,
  subject: emailOutbox.subject,
  createdAt: emailOutbox.createdAt,
  status: emailOutbox.status,
  attempts: emailOutbox.attempts,
  sentAt: emailOutbox.sentAt,
  nextAttemptAt: emailOutbox.nextAttemptAt,
  lastError: emailOutbox.lastError,
  messageId: emailOutbox.messageId,
};

function toEntry(row: Omit<DeliveryEntry, "status"> & { status: OutboxRow["status"] }): DeliveryEntry {
  const status = deliveryStatusOf(row);
  return { ...row, status, nextAttemptAt: status === "retrying" ? row.nextAttemptAt : null };
}

/** The latest e-mails to an address with their delivery status (the admin's user panel). No bodies. */
export async function deliveriesTo(address: string, limit = 20): Promise<DeliveryEntry[]> {
  const rows = await db().select(entryColumns).from(emailOutbox).where(eq(emailOutbox.toEmail, address)).orderBy(desc(emailOutbox.createdAt)).limit(limit);
  return rows.map(toEntry);
}

export type MailboxEntry = DeliveryEntry & { bodyText: string };

/** The development mailbox: the latest e-mails (to one address if given), bodies and status. */
export async function recentMail(to: string, limit = 50): Promise<MailboxEntry[]> {
  const rows = await db()
    .select({ ...entryColumns, bodyText: emailOutbox.bodyText })
    .from(emailOutbox)
    .where(to ? eq(emailOutbox.toEmail, to) : undefined)
    .orderBy(desc(emailOutbox.createdAt))
    .limit(limit);
  return rows.map((r) => ({ ...toEntry(r), bodyText: r.bodyText }));
}

/** One row as it leaves (the development mailbox's preview), or null. */
export async function renderedMail(id: string): Promise<RenderedEmail | null> {
  const row = await db().select().from(emailOutbox).where(eq(emailOutbox.id, id)).get();
  return row ? messageFor(row) : null;
}

// ---------------------------------------------------------------------------------------------
// Retention and erasure (docs/privacy.md)
// ---------------------------------------------------------------------------------------------

/** How long an e-mail's body is kept; its metadata (to, kind, subject, status, times) stays. */
export const EMAIL_BODY_RETENTION_DAYS = 30;

/** Empties the bodies of e-mails older than EMAIL_BODY_RETENTION_DAYS that are done (sent or failed). Returns how many. */
export async function purgeOldEmailBodies(now = Date.now()): Promise<number> {
  const before = new Date(now - EMAIL_BODY_RETENTION_DAYS * 86_400_000).toISOString();
  const at = new Date(now).toISOString();
  const result = await db()
    .update(emailOutbox)
    .set({ bodyText: "", userSpans: null, actionUrl: null, bodyPurgedAt: at })
    .where(and(lt(emailOutbox.createdAt, before), inArray(emailOutbox.status, ["sent", "failed"]), sql`${emailOutbox.bodyPurgedAt} is null`))
    .run();
  return result.meta.changes ?? 0;
}

/**
 * How long a sent or failed e-mail's row is kept at all (docs/decisions/0337, docs/scale.md move 5):
 * its body went after EMAIL_BODY_RETENTION_DAYS; after this the row goes too. Rows still to send
 * (pending, sending) are never deleted.
 */
export const EMAIL_ROW_RETENTION_DAYS = 90;

/**
 * Up to `limit` ids of sent and failed e-mails older than EMAIL_ROW_RETENTION_DAYS. Found through the
 * outbox's due index (status, next_attempt_at): a row's last try is never before it was written, so
 * `next_attempt_at < before` is a range of that index that holds every row old enough (a row retried
 * late waits a few days more). By created_at alone SQLite read all sent rows through the same index,
 * one by one: 7.4 s for the last, empty chunk over a million rows at 100,000 creators, 46 ms this way.
 */
export function oldEmailIdsQuery(now: number, limit: number) {
  const before = new Date(now - EMAIL_ROW_RETENTION_DAYS * 86_400_000).toISOString();
  return db()
    .select({ id: emailOutbox.id })
    .from(emailOutbox)
    .where(and(inArray(emailOutbox.status, ["sent", "failed"]), lt(emailOutbox.nextAttemptAt, before), lt(emailOutbox.createdAt, before)))
    .limit(limit);
}

/** The daily retention job's part: sent and failed e-mails older than EMAIL_ROW_RETENTION_DAYS, in chunks. */
export async function purgeOldEmails(now = Date.now(), limits: PurgeLimits = {}): Promise<number> {
  return purgeInChunks(async (limit) => {
    const result = await db()
      .delete(emailOutbox)
      .where(inArray(emailOutbox.id, oldEmailIdsQuery(now, limit)))
      .run();
    return result.meta.changes ?? 0;
  }, limits);
}

/** Every e-mail to an address goes (a deleted account's), with nothing left to send. */
export function forgetEmailsToQuery(address: string) {
  return db().delete(emailOutbox).where(eq(emailOutbox.toEmail, address));
}
