import { and, eq, sql } from "drizzle-orm";
import { musicTrackEvents, musicTracks } from "~/db/schema";
import { conflict, type FieldErrors, invalid, notFound, rateLimited } from "~/lib/errors";
import { fieldErrorsOf, formToObject } from "~/lib/forms";
import { type Actor, authorize } from "~/lib/permissions";
import { auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { consume } from "~/platform/rate-limit.server";
import { checkPeaks, wavPeaks } from "./peaks";
import { requestPreview } from "./preview.server";
import {
  checkAudio,
  checkCover,
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
import { PARTNER_QUOTA_BYTES, RESUBMIT_MESSAGES as R, resubmissionSchema, SUBMIT_LIMIT, SUBMIT_MESSAGES as M } from "./submission-schema";

// ---------------------------------------------------------------------------------------------
// Resubmission (issue 30): a rejected track goes back to review with changes, by its partner only.
// The fields are the submit form's; the files are optional (an empty field keeps the stored file).
// One guarded update (WHERE status = 'rejected') decides: of two tabs resubmitting at once, one
// makes the new review round and the other is told it is no longer rejected. The rejection stays
// in music_track_events; the row's note is cleared for the next review. docs/decisions/0260.
// ---------------------------------------------------------------------------------------------

/** A file field left empty (no file chosen, sent as an empty part or not at all): keep the stored file. */
const noFileChosen = (value: FormDataEntryValue | null) => value === null || value === "" || (value instanceof File && value.size === 0);

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
