import { and, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { musicLicences, musicTracks } from "~/db/schema";
import { DomainError, type FieldErrors, invalid, rateLimited } from "~/lib/errors";
import { fieldErrorsOf, formToObject } from "~/lib/forms";
import { type Actor, authorize } from "~/lib/permissions";
import { auditQuery } from "~/platform/audit.server";
import type { BodyLimit } from "~/platform/body.server";
import { sha256Hex } from "~/platform/crypto.server";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { isPreconditionFailure, precondition } from "~/platform/precondition.server";
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
  sniffMp3,
} from "./sniff";
import {
  AUDIO_MAX_BYTES,
  COVER_MAX_BYTES,
  PARTNER_QUOTA_BYTES,
  PREVIEW_MAX_BYTES,
  SUBMISSION_MAX_BYTES,
  SUBMIT_LIMIT,
  SUBMIT_MESSAGES as M,
  type SubmissionInput,
  submissionSchema,
} from "./submission-schema";
import { DURATION_LIMIT } from "./library";
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
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((Number.parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
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

/**
 * The listening preview the browser made of a WAV (optional; docs/decisions/0270): an MP3 by its
 * bytes, smaller than the original and at most PREVIEW_MAX_BYTES, as long as the original within
 * 2 s or 2%. Without one the original is streamed; a preview that fails a check refuses the whole
 * submission (nothing is stored), since only a tampered or broken page sends one.
 */
async function checkPreview(entry: FormDataEntryValue | null, audio: CheckedAudio | null, errors: FieldErrors): Promise<File | null> {
  if (!(entry instanceof File) || (entry.size === 0 && !entry.name)) return null;
  if (!audio) return null; // the audio's own message says what to fix first
  const bad = () => {
    errors.preview = M.previewBad;
    return null;
  };
  if (audio.info.type !== "audio/wav" || entry.size === 0 || entry.size > PREVIEW_MAX_BYTES || entry.size >= audio.file.size) return bad();
  const info = sniffMp3(await head(entry));
  if (!info?.frame) return bad();
  const seconds = durationFromHeader(info, entry.size);
  if (seconds === null || Math.abs(seconds - audio.durationSeconds) > Math.max(2, audio.durationSeconds * 0.02)) return bad();
  return entry;
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
  const preview = await checkPreview(form.get("preview"), audio, errors);
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

  const size = audio.file.size + cover.file.size + (preview?.size ?? 0);
  const { usedBytes } = await partnerStorage(actor);
  if (usedBytes + size > PARTNER_QUOTA_BYTES) throw quotaError(usedBytes);

  // A WAV posted without the browser's waveform (no JavaScript): the server reads it in windows.
  let peaks = peaksCheck.peaks;
  if (peaks.length === 0 && audio.info.type === "audio/wav") {
    const info = audio.info;
    peaks = await wavPeaks(info, audio.file.size, async (o, l) => new Uint8Array(await audio.file.slice(o, o + l).arrayBuffer()));
  }

  const audioType = audio.info.type;
  const audioKey = `music/audio/${actor.id}/${crypto.randomUUID()}.${AUDIO_EXTENSIONS[audioType]}`;
  const coverKey = `music/covers/${actor.id}/${crypto.randomUUID()}.${COVER_EXTENSIONS[cover.type]}`;
  const previewKey = preview ? `music/previews/${actor.id}/${crypto.randomUUID()}.mp3` : null;
  const keys = previewKey ? [audioKey, coverKey, previewKey] : [audioKey, coverKey];
  const safeName = (
    data.title
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "track"
  ).toLowerCase();
  try {
    await Promise.all([
      env.MEDIA.put(audioKey, audio.file.stream(), {
        httpMetadata: { contentType: audioType },
        customMetadata: { filename: `${safeName}.${AUDIO_EXTENSIONS[audioType]}` },
      }),
      env.MEDIA.put(coverKey, cover.file.stream(), {
        httpMetadata: { contentType: cover.type },
        customMetadata: { filename: `${safeName}-cover.${COVER_EXTENSIONS[cover.type]}` },
      }),
      preview && previewKey
        ? env.MEDIA.put(previewKey, preview.stream(), {
            httpMetadata: { contentType: "audio/mpeg" },
            customMetadata: { filename: `${safeName}-preview.mp3` },
          })
        : null,
    ]);
  } catch (error) {
    await removeObjects(keys);
    throw error;
  }

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
          previewKey,
          previewSize: preview?.size ?? 0,
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
        details: { track_id: id, title: data.title, audio_bytes: audio.file.size, cover_bytes: cover.file.size, preview_bytes: preview?.size ?? 0 },
      }),
    ]);
  } catch (error) {
    await removeObjects(keys);
    // The same form's key filed it in a parallel request (a double click): that one stands.
    if (await existingSubmission(id, actor.id)) return { id, duplicate: true };
    if (isPreconditionFailure(error)) throw quotaError((await partnerStorage(actor)).usedBytes);
    throw error;
  }
  return { id, duplicate: false };
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
  const [tracks, daily, [storage]] = await db().batch([
    db()
      .select({
        ...trackFactColumns,
        ...trackHistoryColumns,
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
  ]);
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
