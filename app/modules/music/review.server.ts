import { and, asc, desc, eq, inArray, isNotNull } from "drizzle-orm";
import { musicTrackEvents, musicTracks } from "~/db/schema";
import { conflict, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { emailOfUser, fullNameOfUser } from "~/modules/accounts/accounts.server";
import { notifyUserQuietly } from "~/modules/notifications/notifications.server";
import { auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { appOrigin, emailQuery, userText } from "~/platform/email.server";
import { appName } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { libraryColumns, trackHistoryColumns } from "./search.server";
import { groupEvents, trackEventsQuery } from "./submissions.server";
import type { ReviewDecision } from "./submission-schema";

// The admin's review of partner submissions (/admin/music): the queue of tracks in review, the
// published tracks that may be withdrawn, the latest decisions. Each decision is a guarded update
// (WHERE status = 'in_review' / 'published') followed in the same batch by a precondition on its
// row count, then the partner's e-mail and the audit row; the bell notification follows the batch.
// Of two admins deciding at once, one decision is recorded and the other is told it is already
// decided. A withdrawn track leaves the library; its licences keep their validity. docs/decisions/0113.

const tracks = musicTracks;

const trackColumns = () => ({
  ...libraryColumns,
  ...trackHistoryColumns,
  audioSize: tracks.audioSize,
  submittedBy: tracks.submittedBy,
  partnerName: fullNameOfUser(tracks.submittedBy),
  partnerEmail: emailOfUser(tracks.submittedBy),
  reviewedByEmail: emailOfUser(tracks.reviewedBy),
});

export const REVIEW_PUBLISHED_LIMIT = 50;

/** Tracks in review (oldest first), the newest published tracks, and the latest decisions. */
export async function reviewQueue(actor: Actor) {
  authorize(actor, "music", "review");
  const inReview = db().select({ id: tracks.id }).from(tracks).where(eq(tracks.status, "in_review"));
  const [queue, published, recent, events] = await db().batch([
    db().select(trackColumns()).from(tracks).where(eq(tracks.status, "in_review")).orderBy(asc(tracks.createdAt)).limit(200),
    db().select(trackColumns()).from(tracks).where(eq(tracks.status, "published")).orderBy(desc(tracks.publishedAt)).limit(REVIEW_PUBLISHED_LIMIT),
    db()
      .select(trackColumns())
      .from(tracks)
      .where(and(inArray(tracks.status, ["rejected", "withdrawn"]), isNotNull(tracks.reviewedAt)))
      .orderBy(desc(tracks.updatedAt))
      .limit(10),
    // A resubmitted track's earlier rounds: the admin sees what was rejected and what changed.
    trackEventsQuery(inReview),
  ]);
  const history = groupEvents(events);
  return { queue: queue.map((t) => ({ ...t, history: history.get(t.id) ?? [] })), published, recent };
}

export type ReviewTrack = Awaited<ReturnType<typeof reviewQueue>>["queue"][number];

const ALREADY = {
  approve: "This track is no longer in review: another admin has decided it.",
  reject: "This track is no longer in review: another admin has decided it.",
  withdraw: "This track is not published: it may already have been withdrawn.",
} as const;

const NOTICE = {
  approve: (t: string) => ({ title: "Track published", content: `Your track "${t}" was approved and is now in the music library.` }),
  reject: (t: string, note: string) => ({ title: "Track not approved", content: `Your track "${t}" was not approved. Note from the reviewer: ${note}` }),
  withdraw: (t: string, reason: string) => ({
    title: "Track withdrawn",
    content: `Your track "${t}" was withdrawn from the music library. Reason: ${reason}. Licences already taken stay valid.`,
  }),
} as const;

/** The partner's e-mail of a decision. */
function decisionEmail(decision: ReviewDecision, trackTitle: string) {
  const origin = appOrigin();
  // The title and the reviewer's words are someone's text: inert in the e-mail (docs/decisions/0288).
  const title = userText(trackTitle);
  switch (decision.intent) {
    case "approve":
      return {
        subject: `"${title}" is published on ${appName()}`,
        text: `Good news: your track "${title}" was approved and is now in the ${appName()} music library.${decision.note ? `\n\nNote from the reviewer: ${userText(decision.note)}` : ""}\n\nFollow its use at ${origin}/music/submissions.\n`,
      };
    case "reject":
      return {
        subject: `Your track "${title}" on ${appName()}`,
        text: `We have reviewed your track "${title}" and cannot publish it.\n\nNote from the reviewer: ${userText(decision.note)}\n\nSee your submissions at ${origin}/music/submissions.\n`,
      };
    case "withdraw":
      return {
        subject: `"${title}" was withdrawn from ${appName()}`,
        text: `Your track "${title}" was withdrawn from the ${appName()} music library.\n\nReason: ${userText(decision.reason)}\n\nLicences creators took before today stay valid for videos they published before the withdrawal.\n\nSee your submissions at ${origin}/music/submissions.\n`,
      };
  }
}

/**
 * Approve (→ published) or reject (→ rejected, with a note) a track in review, or withdraw a
 * published one (→ withdrawn, with a reason). Returns the track as decided.
 */
export async function decideTrack(actor: Actor, request: Request, decision: ReviewDecision): Promise<{ title: string; status: string }> {
  authorize(actor, "music", decision.intent === "withdraw" ? "withdraw" : "review");
  const track = await db().select(trackColumns()).from(tracks).where(eq(tracks.id, decision.trackId)).get();
  if (!track) throw notFound("Track not found.");
  const from = decision.intent === "withdraw" ? "published" : "in_review";
  if (track.status !== from) throw conflict(ALREADY[decision.intent]);

  const now = new Date().toISOString();
  const status = decision.intent === "approve" ? "published" : decision.intent === "reject" ? "rejected" : "withdrawn";
  const update =
    decision.intent === "approve"
      ? { status, reviewNote: decision.note || null, reviewedBy: actor.id, reviewedAt: now, publishedAt: now, updatedAt: now }
      : decision.intent === "reject"
        ? { status, reviewNote: decision.note, reviewedBy: actor.id, reviewedAt: now, updatedAt: now }
        : { status, withdrawnAt: now, withdrawReason: decision.reason, reviewedBy: actor.id, reviewedAt: now, updatedAt: now };
  const mail = decisionEmail(decision, track.title);
  const note = decision.intent === "reject" ? decision.note : decision.intent === "withdraw" ? decision.reason : decision.note || null;

  try {
    await db().batch([
      db()
        .update(tracks)
        .set(update as Partial<typeof tracks.$inferInsert>)
        .where(and(eq(tracks.id, track.id), eq(tracks.status, from))),
      precondition(previousStatementChanged(1)),
      // The decision joins the track's history (the partner's list and the next review read it).
      db()
        .insert(musicTrackEvents)
        .values({ id: crypto.randomUUID(), trackId: track.id, kind: status === "published" ? "approved" : status, note, actorId: actor.id, createdAt: now }),
      auditQuery({
        eventType: `music_track_${decision.intent === "approve" ? "approved" : decision.intent === "reject" ? "rejected" : "withdrawn"}`,
        severity: "medium",
        userId: actor.id,
        targetUserId: track.submittedBy,
        request,
        details: { track_id: track.id, title: track.title, ...(note ? { note } : {}) },
      }),
      ...(track.partnerEmail ? [emailQuery({ to: track.partnerEmail, kind: `music_track_${status}`, ...mail })] : []),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw conflict(ALREADY[decision.intent]);
    throw error;
  }

  if (track.submittedBy) {
    const text =
      decision.intent === "approve"
        ? NOTICE.approve(track.title)
        : decision.intent === "reject"
          ? NOTICE.reject(track.title, decision.note)
          : NOTICE.withdraw(track.title, decision.reason);
    await notifyUserQuietly(track.submittedBy, { ...text, kind: `music_${status}`, createdBy: actor.id });
  }
  return { title: track.title, status };
}
