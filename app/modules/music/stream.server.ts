import { and, eq } from "drizzle-orm";
import { musicTracks } from "~/db/schema";
import { notFound } from "~/lib/errors";
import { type Actor, authorize, can } from "~/lib/permissions";
import { alongsideSession } from "~/modules/accounts/accounts.server";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { serveObject } from "~/platform/storage.server";
import { signMediaUrl } from "~/modules/media/media.server";
import type { PublicTrackPreview } from "./library";
import { trackFactColumns } from "./search.server";

// Preview streaming: a track's audio and cover from the private MEDIA bucket, through
// /music/audio/:id and /music/cover/:id, to signed-in approved users (the route's guard) and only
// for tracks they may hear: published ones, or an unpublished submission for its submitter and the
// admins who review it. HTTP Range, If-Range, ETag and 416 come from app/platform/storage.server.ts
// (serveObject); a multi-range request gets the whole file with 200. docs/decisions/0105.

/** Browser cache of a preview: private (per user), short, revalidated by ETag afterwards. */
export const PREVIEW_CACHE = "private, max-age=600";

const AUDIO_TYPES = /^audio\/(mpeg|wav|wave|x-wav|vnd\.wave|mp3|ogg|webm|aac|mp4|flac)$/;

type Playable = Pick<typeof musicTracks.$inferSelect, "id" | "status" | "submittedBy" | "audioKey" | "audioContentType" | "previewKey" | "coverKey">;

/**
 * A track's row as its media is served or made from it (who may hear it, its master, preview and
 * cover): the preview streaming here and the server-made preview (preview.server.ts) read it.
 */
export function trackMediaQuery(trackId: string) {
  return db()
    .select({
      id: musicTracks.id,
      status: musicTracks.status,
      submittedBy: musicTracks.submittedBy,
      audioKey: musicTracks.audioKey,
      audioContentType: musicTracks.audioContentType,
      audioSize: musicTracks.audioSize,
      previewKey: musicTracks.previewKey,
      coverKey: musicTracks.coverKey,
    })
    .from(musicTracks)
    .where(eq(musicTracks.id, trackId))
    .limit(1);
}

/**
 * The track if the actor may play it: a published one, or any submission of their own whatever its
 * status (in review, rejected, withdrawn: the partner's list plays them; issue 30), and for admins
 * every track they review. 404 for anything else (never reveal an unpublished track).
 */
function playableFor(actor: Actor, track: Playable | undefined): Playable {
  authorize(actor, "music", "browse");
  if (!track) throw notFound("Track not found.");
  if (track.status === "published") return track;
  if (!can(actor, "music", "previewSubmission", { ownerId: track.submittedBy })) throw notFound("Track not found.");
  return track;
}

/**
 * The object a listener streams: for a published track, the small MP3 the server made from the
 * master when there is one (it starts within a second where the original WAV took seconds;
 * docs/decisions/0270, 0289), else the master. A track not yet published (in review: the admins
 * deciding on it, and its partner) always streams its master: what is reviewed is what a licence
 * hands out.
 */
export const streamedKey = (track: { status: string; audioKey: string; previewKey: string | null }) =>
  track.status === "published" ? (track.previewKey ?? track.audioKey) : track.audioKey;

/** GET/HEAD of a track's audio with HTTP Range (200 / 206 / 416 / 304). */
async function audioResponse(track: Playable, request: Request): Promise<Response> {
  const response = await serveObject(env.MEDIA, streamedKey(track), request, PREVIEW_CACHE);
  // An object stored without a content type (older seeds) still plays: the row knows its type.
  if (response.headers.get("Content-Type") === "application/octet-stream" && AUDIO_TYPES.test(track.audioContentType)) {
    response.headers.set("Content-Type", track.audioContentType);
    response.headers.set("Content-Disposition", "inline");
  }
  return response;
}

/** GET/HEAD of a track's cover image (type from the object's R2 metadata, nosniff); 404 without one. */
function coverResponse(track: Playable, request: Request): Promise<Response> {
  if (!track.coverKey) throw notFound("This track has no cover.");
  return serveObject(env.MEDIA, track.coverKey, request, PREVIEW_CACHE);
}

/**
 * A preview request (/music/audio/:id, /music/cover/:id): the track's row rides in the session
 * lookup's D1 batch (one round trip per Range request while the player seeks; docs/decisions/0083).
 * Call it before the guard; the returned functions take the guard's actor and decide who may hear.
 */
export function startTrackPreview(args: Parameters<typeof alongsideSession>[0], trackId: string) {
  const row = alongsideSession(args, () => trackMediaQuery(trackId));
  const playable = async (actor: Actor) => playableFor(actor, (await row)[0]);
  return {
    audio: async (actor: Actor) => audioResponse(await playable(actor), args.request),
    cover: async (actor: Actor) => coverResponse(await playable(actor), args.request),
  };
}

// ---------------------------------------------------------------------------------------------
// A public preview (issue 30): a page anyone may open (a live campaign's required track) plays a
// published track through URLs the server signed (HMAC over path and expiry, /media/signed/*), so
// no session is needed and nothing else in MEDIA is reachable. docs/decisions/0244.
// ---------------------------------------------------------------------------------------------

/** How long a public preview's URLs play: an hour, as the other signed media URLs. */
export const PUBLIC_PREVIEW_SECONDS = 3600;

export type { PublicTrackPreview };

/** The published track with signed audio and cover URLs; null for a track that is not published (or gone). */
export async function publicTrackPreview(trackId: string, now = Date.now()): Promise<PublicTrackPreview | null> {
  const row = await db()
    .select({
      ...trackFactColumns,
      status: musicTracks.status,
      audioKey: musicTracks.audioKey,
      previewKey: musicTracks.previewKey,
      coverKey: musicTracks.coverKey,
    })
    .from(musicTracks)
    .where(and(eq(musicTracks.id, trackId), eq(musicTracks.status, "published")))
    .get();
  if (!row) return null;
  const [audioUrl, coverUrl] = await Promise.all([
    signMediaUrl(streamedKey(row), PUBLIC_PREVIEW_SECONDS, now),
    row.coverKey ? signMediaUrl(row.coverKey, PUBLIC_PREVIEW_SECONDS, now) : Promise.resolve(null),
  ]);
  const { status: _s, audioKey: _a, previewKey: _p, coverKey: _c, ...track } = row;
  return { ...track, audioUrl, coverUrl };
}
