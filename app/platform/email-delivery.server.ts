import { expectAt } from "~/lib/arrays";
import { and, asc, eq, inArray, like, lt, lte, or, sql } from "drizzle-orm";
import { emailOutbox } from "~/db/schema";
import { db } from "./db.server";
import { unsubscribeLinks, isOptedOut } from "./email-preferences.server";
import { headerValue, headerValues, isOptional, renderEmail, type RenderedEmail } from "./email-templates.server";
import { appName, appOrigin, env } from "./env.server";
import {
  classifySendError,
  NO_HTTPS_ORIGIN,
  nextAttemptAfter,
  originAllowsOptionalMail,
  QUOTA_CODE,
  quotaResetAfter,
  SENDER_CODES,
  SENDER_PAUSE_MS,
  type SendFailure,
} from "./email-failures.server";
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
// What a failure means and the backoff are in email-failures.server.ts; reading the record (status,
// the development mailbox) in email-status.server.ts; retention and erasure in email-retention.server.ts.

/** How long a claimed row is its sender's: long past one send, short enough that a crash delays mail by minutes. */
export const CLAIM_LEASE_MS = 5 * 60_000;
/** Rows claimed per round; each is sent in parallel with the others of its round. */
const ROUND_SIZE = 25;

export type OutboxRow = typeof emailOutbox.$inferSelect;

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
