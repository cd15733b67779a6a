import { and, asc, eq, inArray, type SQLWrapper, sql } from "drizzle-orm";
import { musicTrackEvents, musicTracks } from "~/db/schema";
import { DomainError, type FieldErrors } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { env } from "~/platform/env.server";
import { db } from "~/platform/db.server";
import type { TrackEvent } from "./library";
import { DURATION_LIMIT } from "./library";
import { trackFactColumns } from "./search.server";
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
import { AUDIO_MAX_BYTES, COVER_MAX_BYTES, PARTNER_QUOTA_BYTES, SUBMIT_MESSAGES as M } from "./submission-schema";

// What a partner's submission, resubmission and withdrawal share (submissions.server.ts,
// resubmit.server.ts): the checks of the uploaded files, storing and deleting them, the quota, the
// partner's own row and a track's history. Internal to the module: submissions.server.ts re-exports
// the public names (partnerStorage, trackEventsQuery, groupEvents). docs/decisions/0110–0112.

const MB = 1024 * 1024;

const head = async (file: File) => new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());

export type CheckedAudio = { file: File; info: AudioInfo; durationSeconds: number };
export type CheckedCover = { file: File; type: CoverType };

/** The file of a form field, or the field's message: none chosen, empty, or too large. */
export function presentFile(value: FormDataEntryValue | null, maxBytes: number, messages: { missing: string; empty: string; size: string }): File | string {
  if (!(value instanceof File) || (value.size === 0 && !value.name)) return messages.missing;
  if (value.size === 0) return messages.empty;
  return value.size > maxBytes ? messages.size : value;
}

export async function checkAudio(entry: FormDataEntryValue | null, browserSeconds: number | null, errors: FieldErrors): Promise<CheckedAudio | null> {
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

export async function checkCover(entry: FormDataEntryValue | null, errors: FieldErrors): Promise<CheckedCover | null> {
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
export function usedBytesQuery(userId: string) {
  return db()
    .select({ used: sql<number>`coalesce(sum(${musicTracks.audioSize} + ${musicTracks.coverSize} + ${musicTracks.previewSize}), 0)`.mapWith(Number) })
    .from(musicTracks)
    .where(and(eq(musicTracks.submittedBy, userId), inArray(musicTracks.status, ["in_review", "published"])));
}

export function quotaError(usedBytes: number) {
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
export async function removeObjects(keys: string[]) {
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
export async function storeFiles(userId: string, title: string, audio: CheckedAudio | null, cover: CheckedCover | null) {
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

export async function existingSubmission(id: string, userId: string) {
  return db()
    .select({ id: musicTracks.id })
    .from(musicTracks)
    .where(and(eq(musicTracks.id, id), eq(musicTracks.submittedBy, userId)))
    .get();
}

export function ownTrackQuery(trackId: string, userId: string) {
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

export const isTrackId = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

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
