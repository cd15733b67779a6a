import { and, eq, inArray } from "drizzle-orm";
import { musicLicences, musicTracks } from "~/db/schema";
import { columnsOf } from "~/db/columns";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { signMediaUrl } from "~/modules/media/media.server";
import { groupEvents, trackEventsQuery } from "./submissions.server";

// The music domain's part of a data export and of an account deletion (issue 28). Licences stay
// after a deletion: anyone may check a licence code (a platform's dispute team), and the licensed
// channel's owner may still need it. Published tracks stay too (creators hold licences on them);
// a partner's unpublished submissions leave R2 with their rows.

export async function musicDataFor(userId: string) {
  const ownTrackIds = db().select({ id: musicTracks.id }).from(musicTracks).where(eq(musicTracks.submittedBy, userId));
  const [licences, submitted, events] = await db().batch([
    db()
      .select({ code: musicLicences.code, track: musicTracks.title, artist: musicTracks.artist, createdAt: musicLicences.createdAt })
      .from(musicLicences)
      .innerJoin(musicTracks, eq(musicTracks.id, musicLicences.trackId))
      .where(eq(musicLicences.userId, userId)),
    db()
      .select(columnsOf(musicTracks, "id", "title", "artist", "genre", "mood", "bpm", "status", "reviewNote", "audioKey", "createdAt"))
      .from(musicTracks)
      .where(eq(musicTracks.submittedBy, userId)),
    // Each submission's reviews and resubmissions (issue 30), without who reviewed.
    trackEventsQuery(ownTrackIds),
  ]);
  const history = groupEvents(events);
  const tracks = await Promise.all(
    submitted.map(async ({ audioKey, id, ...t }) => ({
      ...t,
      audioUrl: await signMediaUrl(audioKey),
      history: (history.get(id) ?? []).map((e) => ({ event: e.kind, note: e.note, changes: e.changes, at: e.createdAt })),
    })),
  );
  return { licences, submittedTracks: tracks };
}

const UNPUBLISHED = ["in_review", "rejected"] as const;

/** A deleted partner's unpublished submissions: files out of R2, rows gone. */
export async function eraseMusicData(userId: string): Promise<void> {
  const rows = await db()
    .select({ id: musicTracks.id, audioKey: musicTracks.audioKey, coverKey: musicTracks.coverKey, previewKey: musicTracks.previewKey })
    .from(musicTracks)
    .where(and(eq(musicTracks.submittedBy, userId), inArray(musicTracks.status, [...UNPUBLISHED])));
  if (rows.length === 0) return;
  await env.MEDIA.delete(rows.flatMap((r) => [r.audioKey, ...(r.coverKey ? [r.coverKey] : []), ...(r.previewKey ? [r.previewKey] : [])]));
  await db()
    .delete(musicTracks)
    .where(
      and(
        inArray(
          musicTracks.id,
          rows.map((r) => r.id),
        ),
        inArray(musicTracks.status, [...UNPUBLISHED]),
      ),
    )
    .run();
}
