import { and, asc, desc, eq, inArray, isNotNull } from "drizzle-orm";
import { manualChannelSubmissions as m } from "~/db/schema";
import { conflict, DomainError, notFound, rateLimited } from "~/lib/errors";
import { authorize, type Actor } from "~/lib/permissions";
import { emailOfUser, fullNameOfUser, personById } from "~/modules/accounts/accounts.server";
import { notifyUserQuietly } from "~/modules/notifications/notifications.server";
import { auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { isPreconditionFailure, isUniqueViolation, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { consume } from "~/platform/rate-limit.server";
import { CHANNEL_TOASTS, type ManualSubmissionInput, type ReviewDecision } from "./schema";
import { nowIso } from "./statements.server";

// Manual channel submissions (a creator who cannot link through YouTube) and their verification
// by admins (PERMISSIONS.manualSubmission). Verified submissions count as connected channels.
// Every change of status is a guarded update whose row count decides what follows.

/** Per-user limit on manual submissions. */
const SUBMIT_LIMIT = { maxAttempts: 20, windowMs: 60 * 60_000 };

const submissionColumns = {
  id: m.id,
  channelName: m.channelName,
  channelUrl: m.channelUrl,
  subscriberCount: m.subscriberCount,
  avgMonthlyViews: m.avgMonthlyViews,
  status: m.status,
  verificationSubmittedAt: m.verificationSubmittedAt,
  rejectionReason: m.rejectionReason,
  reviewedAt: m.reviewedAt,
  createdAt: m.createdAt,
};

/** The user's manual submissions, newest first. */
export async function listSubmissions(actor: Actor) {
  authorize(actor, "channel", "list");
  return db().select(submissionColumns).from(m).where(eq(m.userId, actor.id)).orderBy(desc(m.createdAt), asc(m.id)).all();
}

export type ManualSubmission = Awaited<ReturnType<typeof listSubmissions>>[number];

/**
 * Inserts a manual submission with creator_id from the user's profile, status 'pending'. A user
 * has one live (pending, under review or verified) submission per channel: the unique index on
 * (user_id, channel_key) decides, so of two parallel identical submissions one row is written and
 * the other is told it is a duplicate (docs/decisions/0071).
 */
export async function createManualSubmission(actor: Actor, input: ManualSubmissionInput): Promise<ManualSubmission> {
  authorize(actor, "manualSubmission", "create");
  const limit = await consume("channel-submit", `user:${actor.id}`, SUBMIT_LIMIT);
  if (!limit.allowed) throw rateLimited(limit.retryAfterSeconds, CHANNEL_TOASTS.rateLimited.description, CHANNEL_TOASTS.rateLimited.title);
  const person = await personById(actor.id);
  if (!person) throw new DomainError("unauthenticated", CHANNEL_TOASTS.notAuthenticated);
  const [row] = await db()
    .insert(m)
    .values({
      id: crypto.randomUUID(),
      userId: actor.id,
      creatorId: person.creatorId,
      channelName: input.channelName,
      channelUrl: input.channelUrl,
      subscriberCount: input.subscriberCount,
      avgMonthlyViews: input.avgMonthlyViews,
      status: "pending",
    })
    .onConflictDoNothing()
    .returning(submissionColumns);
  if (!row) {
    const field = input.channelUrl ? "channelUrl" : "channelName";
    throw conflict(CHANNEL_TOASTS.duplicateSubmission, { fieldErrors: { [field]: CHANNEL_TOASTS.duplicateSubmission } });
  }
  return row;
}

/** The live-submission index refused a change: this user already has this channel pending, under review or verified. */
function isDuplicateChannel(error: unknown): boolean {
  return isUniqueViolation(error, "manual_channel_submissions.user_id, manual_channel_submissions.channel_key");
}

/** 'Submit for verification': pending (or previously rejected) → verification_submitted, with the time. */
export async function submitForVerification(actor: Actor, submissionId: string): Promise<void> {
  authorize(actor, "channel", "list");
  const mine = and(eq(m.id, submissionId), eq(m.userId, actor.id));
  const current = await db().select({ userId: m.userId, status: m.status }).from(m).where(mine).get();
  if (!current) throw notFound("Submission not found.");
  authorize(actor, "manualSubmission", "submitForVerification", { ownerId: current.userId });
  // A rejected submission sent again while another submission of the same channel is live
  // would be a second live one: the unique index refuses it.
  const result = await db()
    .update(m)
    .set({ status: "verification_submitted", verificationSubmittedAt: nowIso(), rejectionReason: null })
    .where(and(mine, inArray(m.status, ["pending", "rejected"])))
    .run()
    .catch((error: unknown) => {
      if (isDuplicateChannel(error)) throw conflict(CHANNEL_TOASTS.duplicateSubmission);
      throw error;
    });
  if (result.meta.changes > 0) return;
  throw conflict(current.status === "verified" ? "This channel is already verified." : "This channel has already been submitted for verification.");
}

// ---------------------------------------------------------------------------------------------
// Admin: the verification queue
// ---------------------------------------------------------------------------------------------

/** A submission with its creator and reviewer (built per call: the accounts facade may still be loading at import time). */
const queueColumns = () => ({
  ...submissionColumns,
  userId: m.userId,
  creatorId: m.creatorId,
  creatorName: fullNameOfUser(m.userId),
  creatorEmail: emailOfUser(m.userId),
  reviewedByEmail: emailOfUser(m.reviewedBy),
});

/** Submissions sent for verification, oldest first; and the latest decisions (one round trip). */
export async function verificationQueue(actor: Actor, recentLimit = 10) {
  authorize(actor, "manualSubmission", "review");
  const [queue, recent] = await db().batch([
    db().select(queueColumns()).from(m).where(eq(m.status, "verification_submitted")).orderBy(asc(m.verificationSubmittedAt), asc(m.createdAt)).limit(500),
    db()
      .select(queueColumns())
      .from(m)
      .where(and(inArray(m.status, ["verified", "rejected"]), isNotNull(m.reviewedAt)))
      .orderBy(desc(m.reviewedAt))
      .limit(recentLimit),
  ]);
  return { queue, recent };
}

export type QueueItem = Awaited<ReturnType<typeof verificationQueue>>["queue"][number];

const NOT_WAITING = "This submission is not waiting for verification.";

/**
 * An admin verifies or rejects a submission that is waiting for verification. The guarded update
 * and its audit record are one batch that holds only if the update changed the row, so of many
 * parallel decisions one is recorded; the creator is notified afterwards (a failed notification
 * does not undo the decision).
 */
export async function reviewSubmission(actor: Actor, request: Request, decision: ReviewDecision): Promise<QueueItem> {
  authorize(actor, "manualSubmission", "review");
  const item = await db().select(queueColumns()).from(m).where(eq(m.id, decision.id)).get();
  if (!item) throw notFound("Submission not found.");
  if (item.status !== "verification_submitted") throw conflict(NOT_WAITING);
  const now = nowIso();
  const status = decision.intent === "verify" ? "verified" : "rejected";
  const reason = decision.intent === "reject" ? decision.reason : null;
  try {
    await db().batch([
      db()
        .update(m)
        .set({ status, rejectionReason: reason, reviewedBy: actor.id, reviewedAt: now })
        .where(and(eq(m.id, item.id), eq(m.status, "verification_submitted"))),
      precondition(previousStatementChanged(1)),
      auditQuery({
        eventType: decision.intent === "verify" ? "channel_submission_verified" : "channel_submission_rejected",
        severity: "medium",
        userId: actor.id,
        targetUserId: item.userId,
        request,
        details: { submission_id: item.id, channel_name: item.channelName, ...(reason ? { reason } : {}) },
      }),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw conflict(NOT_WAITING);
    throw error;
  }

  await notifyUserQuietly(
    item.userId,
    decision.intent === "verify"
      ? {
          title: "Channel verified",
          content: `Your channel "${item.channelName}" has been verified and now counts as a connected channel.`,
          kind: "channel_verified",
          createdBy: actor.id,
        }
      : {
          title: "Channel verification rejected",
          content: `Your channel "${item.channelName}" could not be verified. Reason: ${reason}`,
          kind: "channel_rejected",
          createdBy: actor.id,
        },
  );
  return { ...item, status, rejectionReason: reason, reviewedAt: now };
}
