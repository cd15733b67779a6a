import { and, asc, desc, eq, gte, inArray, type SQLWrapper, sql } from "drizzle-orm";
import { musicLicences, musicTrackEvents, musicTracks } from "~/db/schema";
import { conflict, DomainError, type FieldErrors, invalid, notFound, rateLimited } from "~/lib/errors";
import { fieldErrorsOf, formToObject } from "~/lib/forms";
import { type Actor, authorize } from "~/lib/permissions";
import { auditQuery } from "~/platform/audit.server";
import type { BodyLimit } from "~/platform/body.server";
import { sha256Hex } from "~/platform/crypto.server";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { consume } from "~/platform/rate-limit.server";
import { checkPeaks, wavPeaks } from "./peaks";
import {
  AUDIO_EXTENSIONS,
  type AudioInfo,
  COVER_EXTENSIONS,
  type CoverType,
  durationFromHeader,
  firstMp3Frame,
  SNIFF_BYTES,
  sniffAudio,
  sniffCover,
} from "./sniff";
import {
  AUDIO_MAX_BYTES,
  COVER_MAX_BYTES,
  PARTNER_QUOTA_BYTES,
  RESUBMIT_MESSAGES as R,
  resubmissionSchema,
  SUBMISSION_MAX_BYTES,
  SUBMIT_LIMIT,
  SUBMIT_MESSAGES as M,
  type SubmissionInput,
  submissionSchema,
  WITHDRAW_MESSAGES as W,
} from "./submission-schema";
import { coverPath, DURATION_LIMIT, type TrackEvent } from "./library";
import { requestPreview } from "./preview.server";
import { trackFactColumns, trackHistoryColumns } from "./search.server";

// A music partner's submissions: the upload (/music/submit) and their list with usage
// (/music/submissions). An upload is checked whole before anything is stored (fields, the files'
// bytes, sizes, the waveform's shape, the length against the size); then the two files go to
// MEDIA under keys the server makes, and the row is inserted in one batch with a precondition on
// the partner's quota. If that batch fails the files are deleted again, so a refused or failed
// submission leaves no object and no row. The row's id is derived from the form's one-time key,
// so a double click files one submission. docs/decisions/0110–0112.

const MB = 1024 * 1024;

/** The body cap of the submit action (readForm's limit): both files at their caps plus the fields. */
export function submissionBodyLimit(): BodyLimit {
  return { maxBytes: SUBMISSION_MAX_BYTES, tooLarge: invalid(M.tooLarge, { title: M.failedTitle, fieldErrors: { audio: M.tooLarge } }) };
}

/** The track id of a form's one-time key for this partner: the same key files the same row. */
export function trackIdFor(userId: string, submissionKey: string): string {
  const h = sha256Hex(`music-submission:${userId}:${submissionKey.toLowerCase()}`);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((Number.parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const head = async (file: File) => new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());

type CheckedAudio = { file: File; info: AudioInfo; durationSeconds: number };
type CheckedCover = { file: File; type: CoverType };

/** The file of a form field, or the field's message: none chosen, empty, or too large. */
function presentFile(value: FormDataEntryValue | null, maxBytes: number, messages: { missing: string; empty: string; size: string }): File | string {
  if (!(value instanceof File) || (value.size === 0 && !value.name)) return messages.missing;
  if (value.size === 0) return messages.empty;
  return value.size > maxBytes ? messages.size : value;
}

async function checkAudio(entry: FormDataEntryValue | null, browserSeconds: number | null, errors: FieldErrors): Promise<CheckedAudio | null> {
  const value = presentFile(entry, AUDIO_MAX_BYTES, { missing: M.audioMissing, empty: M.audioEmpty, size: M.audioSize });
  if (typeof value === "string") {
    errors.audio = value;
    return null;
  }
  let info = sniffAudio(await head(value));
  // An ID3 tag larger than the sniffed head (a big embedded picture): the first frame must follow it.
  if (info?.type === "audio/mpeg" && !info.frame) {
    const after = new Uint8Array(await value.slice(info.id3Bytes, info.id3Bytes + 4096 + 4).arrayBuffer());
    const frame = firstMp3Frame(after, 0);
    info = frame ? { ...info, frame } : null;
  }
  if (!info) {
    errors.audio = M.audioType;
    return null;
  }
  const fromHeader = durationFromHeader(info, value.size);
  let seconds: number | null;
  if (info.type === "audio/wav") {
    // Exact from the header; a browser's figure far from it means a damaged or disguised file.
    seconds = fromHeader;
    if (seconds !== null && browserSeconds !== null && Math.abs(seconds - browserSeconds) > Math.max(2, seconds * 0.02)) seconds = null;
  } else {
    // MP3: between what the file's size allows at 320 kbps and at 8 kbps (any bitrate a layer III frame can have).
    const bytes = value.size - info.id3Bytes;
    const shortest = (bytes * 8) / 320_000 - 1;
    const longest = (bytes * 8) / 8_000 + 1;
    seconds = browserSeconds ?? fromHeader ?? (bytes * 8) / 128_000;
    if (seconds < shortest || seconds > longest) seconds = null;
  }
  if (seconds === null || !(seconds > 0)) {
    errors.audio = M.audioLength;
    return null;
  }
  if (seconds > DURATION_LIMIT) {
    errors.audio = `The track must be shorter than ${DURATION_LIMIT / 60} minutes.`;
    return null;
  }
  return { file: value, info, durationSeconds: Math.max(1, Math.round(seconds)) };
}

async function checkCover(entry: FormDataEntryValue | null, errors: FieldErrors): Promise<CheckedCover | null> {
  const value = presentFile(entry, COVER_MAX_BYTES, { missing: M.coverMissing, empty: M.coverEmpty, size: M.coverSize });
  if (typeof value === "string") {
    errors.cover = value;
    return null;
  }
  const type = sniffCover(await head(value));
  if (!type) {
    errors.cover = M.coverType;
    return null;
  }
  return { file: value, type };
}

/** Bytes of audio and covers of the partner's tracks in review or published (what the quota counts). */
function usedBytesQuery(userId: string) {
  return db()
    .select({ used: sql<number>`coalesce(sum(${musicTracks.audioSize} + ${musicTracks.coverSize} + ${musicTracks.previewSize}), 0)`.mapWith(Number) })
    .from(musicTracks)
    .where(and(eq(musicTracks.submittedBy, userId), inArray(musicTracks.status, ["in_review", "published"])));
}

function quotaError(usedBytes: number) {
  const message = M.quota(Math.ceil(usedBytes / MB), PARTNER_QUOTA_BYTES / MB);
  return new DomainError("conflict", message, { title: "Storage full", details: { quota: true } });
}

/** The partner's storage: bytes used and the quota, for the pages. */
export async function partnerStorage(actor: Actor): Promise<{ usedBytes: number; quotaBytes: number }> {
  authorize(actor, "music", "submit");
  const [row] = await usedBytesQuery(actor.id);
  return { usedBytes: row?.used ?? 0, quotaBytes: PARTNER_QUOTA_BYTES };
}

/** Deletes objects this request stored; a failure here is logged, the caller's error wins. */
async function removeObjects(keys: string[]) {
  if (keys.length === 0) return;
  try {
    await env.MEDIA.delete(keys);
  } catch (error) {
    console.error("music upload cleanup failed", keys, error);
  }
}

/**
 * Stores the checked files under keys the server makes; the keys of what was stored (null for a
 * file not given). If one put fails, both are deleted again and the error is thrown. A WAV's
 * listening preview is made later from the stored master (preview.server.ts, decision 0289).
 */
async function storeFiles(userId: string, title: string, audio: CheckedAudio | null, cover: CheckedCover | null) {
  const audioKey = audio ? `music/audio/${userId}/${crypto.randomUUID()}.${AUDIO_EXTENSIONS[audio.info.type]}` : null;
  const coverKey = cover ? `music/covers/${userId}/${crypto.randomUUID()}.${COVER_EXTENSIONS[cover.type]}` : null;
  const safeName = (
    title
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "track"
  ).toLowerCase();
  try {
    await Promise.all([
      audio && audioKey
        ? env.MEDIA.put(audioKey, audio.file.stream(), {
            httpMetadata: { contentType: audio.info.type },
            customMetadata: { filename: `${safeName}.${AUDIO_EXTENSIONS[audio.info.type]}` },
          })
        : null,
      cover && coverKey
        ? env.MEDIA.put(coverKey, cover.file.stream(), {
            httpMetadata: { contentType: cover.type },
            customMetadata: { filename: `${safeName}-cover.${COVER_EXTENSIONS[cover.type]}` },
          })
        : null,
    ]);
  } catch (error) {
    await removeObjects([audioKey, coverKey].filter((k): k is string => !!k));
    throw error;
  }
  return { audioKey, coverKey };
}

async function existingSubmission(id: string, userId: string) {
  return db()
    .select({ id: musicTracks.id })
    .from(musicTracks)
    .where(and(eq(musicTracks.id, id), eq(musicTracks.submittedBy, userId)))
    .get();
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
// Resubmission (issue 30): a rejected track goes back to review with changes, by its partner only.
// The fields are the submit form's; the files are optional (an empty field keeps the stored file).
// One guarded update (WHERE status = 'rejected') decides: of two tabs resubmitting at once, one
// makes the new review round and the other is told it is no longer rejected. The rejection stays
// in music_track_events; the row's note is cleared for the next review. docs/decisions/0260.
// ---------------------------------------------------------------------------------------------

/** A file field left empty (no file chosen, sent as an empty part or not at all): keep the stored file. */
const noFileChosen = (value: FormDataEntryValue | null) => value === null || value === "" || (value instanceof File && value.size === 0);

function ownTrackQuery(trackId: string, userId: string) {
  return db()
    .select({
      ...trackFactColumns,
      tags: musicTracks.tags,
      status: musicTracks.status,
      reviewNote: musicTracks.reviewNote,
      createdAt: musicTracks.createdAt,
      audioKey: musicTracks.audioKey,
      audioContentType: musicTracks.audioContentType,
      coverKey: musicTracks.coverKey,
      audioSize: musicTracks.audioSize,
      coverSize: musicTracks.coverSize,
      previewKey: musicTracks.previewKey,
      previewSize: musicTracks.previewSize,
    })
    .from(musicTracks)
    .where(and(eq(musicTracks.id, trackId), eq(musicTracks.submittedBy, userId)));
}

const isTrackId = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** The partner's own track for the resubmit page, with its history; 404 for anyone else's (never revealed). */
export async function trackToResubmit(actor: Actor, trackId: string) {
  authorize(actor, "music", "submit");
  if (!isTrackId(trackId)) throw notFound(R.notFound);
  const [[track], events, [storage]] = await db().batch([ownTrackQuery(trackId, actor.id), trackEventsQuery([trackId]), usedBytesQuery(actor.id)]);
  if (!track) throw notFound(R.notFound);
  const { audioKey: _a, audioContentType: _t, coverKey: _c, previewKey: _p, audioSize: _s, coverSize: _z, previewSize: _ps, ...rest } = track;
  return {
    track: { ...rest, history: groupEvents(events).get(trackId) ?? [] },
    storage: { usedBytes: storage?.used ?? 0, quotaBytes: PARTNER_QUOTA_BYTES },
  };
}

/**
 * Sends the partner's rejected track back to review with the form's changes. 400 with a message per
 * field for bad input, 404 for a track that is not theirs, 409 unless it is rejected, 'Storage full'
 * over the quota, 429 over the hourly limit (shared with new submissions). Nothing changes on failure.
 */
export async function resubmitTrack(actor: Actor, request: Request, trackId: string, form: FormData): Promise<{ id: string; title: string }> {
  authorize(actor, "music", "submit");
  const track = isTrackId(trackId) ? await ownTrackQuery(trackId, actor.id).get() : undefined;
  if (!track) throw notFound(R.notFound);
  if (track.status !== "rejected") throw conflict(R.notRejected, { title: R.failedTitle });

  const errors: FieldErrors = {};
  const parsed = resubmissionSchema.safeParse(formToObject(form));
  if (!parsed.success) Object.assign(errors, fieldErrorsOf(parsed.error));
  const browserSeconds = parsed.success ? parsed.data.durationSeconds : null;
  const audio = noFileChosen(form.get("audio")) ? null : await checkAudio(form.get("audio"), browserSeconds ?? null, errors);
  const cover = noFileChosen(form.get("cover")) ? null : await checkCover(form.get("cover"), errors);
  const peaksCheck = audio ? checkPeaks(form.get("peaks")) : ({ ok: true, peaks: [] } as const);
  if (!peaksCheck.ok) errors.peaks = peaksCheck.error;
  if (Object.keys(errors).length > 0 || !parsed.success || !peaksCheck.ok) {
    const first = Object.values(errors)[0] ?? "Please check the form.";
    throw invalid(first, { title: R.failedTitle, fieldErrors: errors });
  }
  const data = parsed.data;

  const limit = await consume("music-submit", `user:${actor.id}`, SUBMIT_LIMIT);
  if (!limit.allowed) throw rateLimited(limit.retryAfterSeconds, M.rateLimited, R.failedTitle);

  // Back in review, the track counts towards the quota again (rejected tracks do not).
  const size = (audio ? audio.file.size : track.audioSize + track.previewSize) + (cover ? cover.file.size : track.coverSize);
  const { usedBytes } = await partnerStorage(actor);
  if (usedBytes + size > PARTNER_QUOTA_BYTES) throw quotaError(usedBytes);

  let peaks = peaksCheck.peaks;
  if (audio && peaks.length === 0 && audio.info.type === "audio/wav") {
    const info = audio.info;
    peaks = await wavPeaks(info, audio.file.size, async (o, l) => new Uint8Array(await audio.file.slice(o, o + l).arrayBuffer()));
  }

  const changes = (["title", "artist", "genre", "mood", "bpm", "tags"] as const).filter((k) => String(track[k] ?? "") !== String(data[k] ?? "")) as string[];
  if (audio) changes.push("audio");
  if (cover) changes.push("cover");

  const stored = await storeFiles(actor.id, data.title, audio, cover);
  const newKeys = [stored.audioKey, stored.coverKey].filter((k): k is string => !!k);
  const now = new Date().toISOString();
  try {
    await db().batch([
      db()
        .update(musicTracks)
        .set({
          title: data.title,
          artist: data.artist,
          genre: data.genre,
          mood: data.mood,
          bpm: data.bpm,
          tags: data.tags,
          ...(audio && stored.audioKey
            ? {
                audioKey: stored.audioKey,
                audioContentType: audio.info.type,
                audioSize: audio.file.size,
                durationSeconds: audio.durationSeconds,
                peaks: JSON.stringify(peaks),
                // The old master's preview goes with it; the new one's is made from it (decision 0289).
                previewKey: null,
                previewSize: 0,
              }
            : {}),
          ...(cover && stored.coverKey ? { coverKey: stored.coverKey, coverSize: cover.file.size } : {}),
          status: "in_review",
          reviewNote: null,
          reviewedBy: null,
          reviewedAt: null,
          updatedAt: now,
        })
        .where(and(eq(musicTracks.id, track.id), eq(musicTracks.submittedBy, actor.id), eq(musicTracks.status, "rejected"))),
      // The update changed the row: another tab's resubmission did not get there first.
      precondition(previousStatementChanged(1)),
      precondition(sql`(${usedBytesQuery(actor.id)}) <= ${PARTNER_QUOTA_BYTES}`),
      db()
        .insert(musicTrackEvents)
        .values({ id: crypto.randomUUID(), trackId: track.id, kind: "resubmitted", changes: JSON.stringify(changes), actorId: actor.id, createdAt: now }),
      auditQuery({
        eventType: "music_track_resubmitted",
        severity: "low",
        userId: actor.id,
        request,
        details: { track_id: track.id, title: data.title, changes },
      }),
    ]);
  } catch (error) {
    await removeObjects(newKeys);
    if (isPreconditionFailure(error)) {
      const now = await ownTrackQuery(track.id, actor.id).get();
      if (now?.status !== "rejected") throw conflict(R.notRejected, { title: R.failedTitle });
      throw quotaError((await partnerStorage(actor)).usedBytes);
    }
    throw error;
  }
  // The replaced files are no longer referenced by any row.
  await removeObjects([audio ? track.audioKey : null, audio ? track.previewKey : null, cover ? track.coverKey : null].filter((k): k is string => !!k));
  // A new WAV master, or a kept one that has no preview yet (rejected before its job ran): made now.
  const master = audio && stored.audioKey ? { key: stored.audioKey, type: audio.info.type } : { key: track.audioKey, type: track.audioContentType };
  if (master.type === "audio/wav" && (audio || !track.previewKey)) await requestPreview(track.id, master.key);
  return { id: track.id, title: data.title };
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

/** The history of these tracks, as a query for a page's batch (rows: see `groupEvents`). */
export function trackEventsQuery(trackIds: SQLWrapper | string[]) {
  return db()
    .select({
      id: musicTrackEvents.id,
      trackId: musicTrackEvents.trackId,
      kind: musicTrackEvents.kind,
      note: musicTrackEvents.note,
      changes: musicTrackEvents.changes,
      createdAt: musicTrackEvents.createdAt,
    })
    .from(musicTrackEvents)
    .where(inArray(musicTrackEvents.trackId, trackIds))
    .orderBy(asc(musicTrackEvents.createdAt), asc(musicTrackEvents.id))
    .limit(5000);
}

/** Rows of `trackEventsQuery` per track id, each oldest first. */
export function groupEvents(rows: Awaited<ReturnType<typeof trackEventsQuery>>): Map<string, TrackEvent[]> {
  const byTrack = new Map<string, TrackEvent[]>();
  for (const row of rows) {
    let changes: string[] = [];
    try {
      const parsed: unknown = JSON.parse(row.changes);
      if (Array.isArray(parsed)) changes = parsed.filter((c): c is string => typeof c === "string");
    } catch {
      // A malformed list shows as no changes.
    }
    const list = byTrack.get(row.trackId) ?? [];
    list.push({ ...row, changes });
    byTrack.set(row.trackId, list);
  }
  return byTrack;
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
