import { and, desc, eq, gte, sql } from "drizzle-orm";
import { musicLicences, musicTracks } from "~/db/schema";
import { conflict, type FieldErrors, invalid, notFound, rateLimited } from "~/lib/errors";
import { fieldErrorsOf, formToObject } from "~/lib/forms";
import { type Actor, authorize } from "~/lib/permissions";
import { auditQuery } from "~/platform/audit.server";
import type { BodyLimit } from "~/platform/body.server";
import { sha256Hex } from "~/platform/crypto.server";
import { db } from "~/platform/db.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { consume } from "~/platform/rate-limit.server";
import { checkPeaks, wavPeaks } from "./peaks";
import {
  checkAudio,
  checkCover,
  existingSubmission,
  groupEvents,
  isTrackId,
  ownTrackQuery,
  partnerStorage,
  quotaError,
  removeObjects,
  storeFiles,
  trackEventsQuery,
  usedBytesQuery,
} from "./submission-common.server";
import {
  PARTNER_QUOTA_BYTES,
  SUBMISSION_MAX_BYTES,
  SUBMIT_LIMIT,
  SUBMIT_MESSAGES as M,
  type SubmissionInput,
  submissionSchema,
  WITHDRAW_MESSAGES as W,
} from "./submission-schema";
import { coverPath } from "./library";
import { requestPreview } from "./preview.server";
import { trackFactColumns, trackHistoryColumns } from "./search.server";

// A music partner's submissions: the upload (/music/submit) and their list with usage
// (/music/submissions). An upload is checked whole before anything is stored (fields, the files'
// bytes, sizes, the waveform's shape, the length against the size); then the two files go to
// MEDIA under keys the server makes, and the row is inserted in one batch with a precondition on
// the partner's quota. If that batch fails the files are deleted again, so a refused or failed
// submission leaves no object and no row. The row's id is derived from the form's one-time key,
// so a double click files one submission. docs/decisions/0110–0112.
// The shared checks and queries are in submission-common.server.ts, resubmission in
// resubmit.server.ts; both are reachable from here (and so from music.server.ts).

export { resubmitTrack, trackToResubmit } from "./resubmit.server";
export { groupEvents, partnerStorage, trackEventsQuery } from "./submission-common.server";

/** The body cap of the submit action (readForm's limit): both files at their caps plus the fields. */
export function submissionBodyLimit(): BodyLimit {
  return { maxBytes: SUBMISSION_MAX_BYTES, tooLarge: invalid(M.tooLarge, { title: M.failedTitle, fieldErrors: { audio: M.tooLarge } }) };
}

/** The track id of a form's one-time key for this partner: the same key files the same row. */
export function trackIdFor(userId: string, submissionKey: string): string {
  const h = sha256Hex(`music-submission:${userId}:${submissionKey.toLowerCase()}`);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((Number.parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Files a submission from the submit form (already read with `submissionBodyLimit()`). Throws a
 * DomainError with a message per field for bad input, 'Storage full' over the quota, 429 over
 * the hourly limit. `duplicate`: the form's key had already filed this track (a double click).
 */
export async function submitTrack(actor: Actor, request: Request, form: FormData): Promise<{ id: string; duplicate: boolean }> {
  authorize(actor, "music", "submit");
  const errors: FieldErrors = {};
  const parsed = submissionSchema.safeParse(formToObject(form));
  if (!parsed.success) Object.assign(errors, fieldErrorsOf(parsed.error));
  const input: Partial<SubmissionInput> = parsed.success ? parsed.data : {};
  const browserSeconds = parsed.success ? parsed.data.durationSeconds : null;
  const audio = await checkAudio(form.get("audio"), browserSeconds ?? null, errors);
  const cover = await checkCover(form.get("cover"), errors);
  // A `preview` field (an old page, or a forged one) is never read: listeners hear what the server
  // makes from the master (decision 0289).
  const peaksCheck = checkPeaks(form.get("peaks"));
  if (!peaksCheck.ok) errors.peaks = peaksCheck.error;
  if (Object.keys(errors).length > 0 || !parsed.success || !audio || !cover || !peaksCheck.ok) {
    const first = Object.values(errors)[0] ?? "Please check the form.";
    throw invalid(first, { title: M.failedTitle, fieldErrors: errors });
  }
  const data = input as SubmissionInput;

  const id = trackIdFor(actor.id, data.submissionKey);
  if (await existingSubmission(id, actor.id)) return { id, duplicate: true };

  const limit = await consume("music-submit", `user:${actor.id}`, SUBMIT_LIMIT);
  if (!limit.allowed) throw rateLimited(limit.retryAfterSeconds, M.rateLimited, M.failedTitle);

  const size = audio.file.size + cover.file.size;
  const { usedBytes } = await partnerStorage(actor);
  if (usedBytes + size > PARTNER_QUOTA_BYTES) throw quotaError(usedBytes);

  // A WAV posted without the browser's waveform (no JavaScript): the server reads it in windows.
  let peaks = peaksCheck.peaks;
  if (peaks.length === 0 && audio.info.type === "audio/wav") {
    const info = audio.info;
    peaks = await wavPeaks(info, audio.file.size, async (o, l) => new Uint8Array(await audio.file.slice(o, o + l).arrayBuffer()));
  }

  const audioType = audio.info.type;
  const { audioKey, coverKey } = await storeFiles(actor.id, data.title, audio, cover);
  if (!audioKey || !coverKey) throw new Error("both files are stored");
  const keys = [audioKey, coverKey];

  const now = new Date().toISOString();
  try {
    await db().batch([
      db()
        .insert(musicTracks)
        .values({
          id,
          title: data.title,
          artist: data.artist,
          genre: data.genre,
          mood: data.mood,
          bpm: data.bpm,
          durationSeconds: audio.durationSeconds,
          audioKey,
          audioContentType: audioType,
          audioSize: audio.file.size,
          coverKey,
          coverSize: cover.file.size,
          tags: data.tags,
          peaks: JSON.stringify(peaks),
          status: "in_review",
          submittedBy: actor.id,
          createdAt: now,
          updatedAt: now,
        }),
      // The quota holds with this track counted, whatever other submissions landed meanwhile.
      precondition(sql`(${usedBytesQuery(actor.id)}) <= ${PARTNER_QUOTA_BYTES}`),
      auditQuery({
        eventType: "music_track_submitted",
        severity: "low",
        userId: actor.id,
        request,
        details: { track_id: id, title: data.title, audio_bytes: audio.file.size, cover_bytes: cover.file.size },
      }),
    ]);
  } catch (error) {
    await removeObjects(keys);
    // The same form's key filed it in a parallel request (a double click): that one stands.
    if (await existingSubmission(id, actor.id)) return { id, duplicate: true };
    if (isPreconditionFailure(error)) throw quotaError((await partnerStorage(actor)).usedBytes);
    throw error;
  }
  if (audioType === "audio/wav") await requestPreview(id, audioKey);
  return { id, duplicate: false };
}

// ---------------------------------------------------------------------------------------------
// Withdrawal (issue 42 §5): the partner takes back a submission still in review. The row is deleted
// (its history rows cascade), not set to 'withdrawn': that status means "taken out of the library
// after publication" (licences dated by withdrawn_at, licence counts and the admin's recent
// decisions show it), and a row kept would point at files deleted here. One guarded delete
// (WHERE id, partner and status = 'in_review') decides: of two tabs, or a tab and an admin's
// decision, one wins; the loser is told, nothing else changes. docs/decisions/0323.
// ---------------------------------------------------------------------------------------------

/**
 * Withdraws the partner's submission in review: the row goes, then its files (audio, cover,
 * preview). 404 for a track that is not theirs (or already withdrawn), 409 once it is decided.
 */
export async function withdrawSubmission(actor: Actor, request: Request, trackId: string): Promise<{ id: string; title: string }> {
  authorize(actor, "music", "submit");
  const track = isTrackId(trackId) ? await ownTrackQuery(trackId, actor.id).get() : undefined;
  if (!track) throw notFound(W.notFound, { title: W.failedTitle });
  if (track.status !== "in_review") throw conflict(W.notInReview, { title: W.failedTitle });
  try {
    await db().batch([
      db()
        .delete(musicTracks)
        .where(and(eq(musicTracks.id, track.id), eq(musicTracks.submittedBy, actor.id), eq(musicTracks.status, "in_review"))),
      // The delete removed the row: another tab or an admin's decision did not get there first.
      precondition(previousStatementChanged(1)),
      auditQuery({
        eventType: "music_track_withdrawn_by_partner",
        severity: "low",
        userId: actor.id,
        request,
        details: { track_id: track.id, title: track.title },
      }),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) {
      const now = await ownTrackQuery(track.id, actor.id).get();
      if (!now) throw notFound(W.notFound, { title: W.failedTitle });
      throw conflict(W.notInReview, { title: W.failedTitle });
    }
    throw error;
  }
  // Only the request whose delete removed the row gets here. A preview job still running for it
  // finds no row and deletes what it stored (preview.server.ts).
  await removeObjects([track.audioKey, track.coverKey, track.previewKey].filter((k): k is string => !!k));
  return { id: track.id, title: track.title };
}

// ---------------------------------------------------------------------------------------------
// /music/submissions
// ---------------------------------------------------------------------------------------------

export const USAGE_WEEKS = 12;

/** Monday 00:00 UTC of the week holding `date`, as YYYY-MM-DD. */
export function weekOf(date: Date): string {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** The partner's submissions (newest first) with licences and distinct creators, usage per week, storage. */
export async function partnerSubmissions(actor: Actor, now = new Date()) {
  authorize(actor, "music", "readOwnSubmissions");
  const firstWeek = new Date(`${weekOf(now)}T00:00:00Z`);
  firstWeek.setUTCDate(firstWeek.getUTCDate() - 7 * (USAGE_WEEKS - 1));
  const ownTrackIds = db().select({ id: musicTracks.id }).from(musicTracks).where(eq(musicTracks.submittedBy, actor.id));
  const [rows, daily, [storage], events] = await db().batch([
    db()
      .select({
        ...trackFactColumns,
        ...trackHistoryColumns,
        coverKey: musicTracks.coverKey,
        peaks: musicTracks.peaks,
        // "music_tracks"."id" spelled out: drizzle leaves one-table select columns bare, which inside
        // the subquery would mean music_licences.id.
        licences: sql<number>`(select count(*) from ${musicLicences} where ${musicLicences.trackId} = "music_tracks"."id")`.mapWith(Number),
        creators:
          sql<number>`(select count(distinct ${musicLicences.userId}) from ${musicLicences} where ${musicLicences.trackId} = "music_tracks"."id")`.mapWith(
            Number,
          ),
      })
      .from(musicTracks)
      .where(eq(musicTracks.submittedBy, actor.id))
      .orderBy(desc(musicTracks.createdAt))
      .limit(500),
    db()
      .select({ day: sql<string>`substr(${musicLicences.createdAt}, 1, 10)`, n: sql<number>`count(*)`.mapWith(Number) })
      .from(musicLicences)
      .innerJoin(musicTracks, eq(musicTracks.id, musicLicences.trackId))
      .where(and(eq(musicTracks.submittedBy, actor.id), gte(musicLicences.createdAt, firstWeek.toISOString())))
      .groupBy(sql`substr(${musicLicences.createdAt}, 1, 10)`),
    usedBytesQuery(actor.id),
    trackEventsQuery(ownTrackIds),
  ]);
  const history = groupEvents(events);
  const tracks = rows.map(({ coverKey, ...t }) => ({ ...t, coverUrl: coverKey ? coverPath(t.id) : null, history: history.get(t.id) ?? [] }));
  const weeks = new Map<string, number>();
  for (let i = 0; i < USAGE_WEEKS; i++) {
    const d = new Date(firstWeek);
    d.setUTCDate(d.getUTCDate() + 7 * i);
    weeks.set(d.toISOString().slice(0, 10), 0);
  }
  for (const row of daily) {
    const week = weekOf(new Date(`${row.day}T00:00:00Z`));
    if (weeks.has(week)) weeks.set(week, (weeks.get(week) ?? 0) + row.n);
  }
  const usage = [...weeks].map(([week, licences]) => ({ week, licences }));
  return { tracks, usage, storage: { usedBytes: storage?.used ?? 0, quotaBytes: PARTNER_QUOTA_BYTES } };
}

export type PartnerSubmission = Awaited<ReturnType<typeof partnerSubmissions>>["tracks"][number];
export type UsagePoint = Awaited<ReturnType<typeof partnerSubmissions>>["usage"][number];
