import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { emailOutbox } from "~/db/schema";
import { db } from "./db.server";
import { purgeInChunks, type PurgeLimits } from "./purge.server";

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
