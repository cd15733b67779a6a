import { DomainError } from "~/lib/errors";
import { fetchYouTubeVideos, ProviderUnauthorized, type YouTubeCredential, YouTubeQuotaExceeded } from "./provider.server";
import { apiKeyCredential, youtubeCredentialFor } from "./youtube-access.server";
import { VIDEOS_PER_CALL } from "./youtube-api";
import { youtubePausedUntil } from "./youtube-quota.server";

// YouTube views for the daily jobs (decision 0303): the ids are grouped by credential (the owner's
// linked-channel token, else the API key) and asked 50 per videos.list call, one quota unit each,
// instead of one call per video. A quotaExceeded answer pauses YouTube until midnight Pacific Time:
// the rest of the run, and later runs before the reset, ask nothing and read "unavailable".

export type YouTubeViewsReading = { kind: "found"; views: number } | { kind: "not_found" } | { kind: "unavailable" };

/** A video to read and who owns it (null: not known to be a linked user's: the API key). */
export type YouTubeViewsTarget = { videoId: string; ownerUserId: string | null };

const UNAVAILABLE: YouTubeViewsReading = { kind: "unavailable" };

/** The views of many YouTube videos, by id. Never throws: a failure reads "unavailable" for its ids. */
export async function youtubeViewsMany(request: Request, targets: readonly YouTubeViewsTarget[]): Promise<Map<string, YouTubeViewsReading>> {
  const out = new Map<string, YouTubeViewsReading>();
  if (targets.length === 0) return out;
  if (await youtubePausedUntil()) {
    for (const t of targets) out.set(t.videoId, UNAVAILABLE);
    return out;
  }
  // Group the ids by the credential they are asked with.
  const groups = new Map<string, { credential: YouTubeCredential; ids: string[] }>();
  for (const t of targets) {
    let credential: YouTubeCredential | null = null;
    try {
      credential = await youtubeCredentialFor(request, t.ownerUserId);
    } catch (error) {
      console.error("could not choose a YouTube credential", error);
    }
    if (!credential) {
      out.set(t.videoId, UNAVAILABLE);
      continue;
    }
    const key = credential.kind === "key" ? "key" : `bearer:${credential.token}`;
    const group = groups.get(key) ?? { credential, ids: [] };
    if (!group.ids.includes(t.videoId)) group.ids.push(t.videoId);
    groups.set(key, group);
  }
  let paused = false;
  for (const { credential, ids } of groups.values()) {
    for (let i = 0; i < ids.length; i += VIDEOS_PER_CALL) {
      const chunk = ids.slice(i, i + VIDEOS_PER_CALL);
      if (paused) {
        for (const id of chunk) out.set(id, UNAVAILABLE);
        continue;
      }
      try {
        const videos = await askWithFallback(request, chunk, credential);
        for (const id of chunk) {
          const video = videos.get(id);
          out.set(
            id,
            !video
              ? { kind: "not_found" }
              : video.viewCount === null
                ? UNAVAILABLE
                : { kind: "found", views: Math.min(video.viewCount, Number.MAX_SAFE_INTEGER) },
          );
        }
      } catch (error) {
        if (error instanceof YouTubeQuotaExceeded) paused = true;
        else if (!(error instanceof DomainError)) console.error("YouTube views failed", error);
        for (const id of chunk) out.set(id, UNAVAILABLE);
      }
    }
  }
  return out;
}

/** A stale owner token (401) falls back to the API key when there is one. */
async function askWithFallback(request: Request, ids: string[], credential: YouTubeCredential) {
  try {
    return await fetchYouTubeVideos(request, ids, credential);
  } catch (error) {
    const key = apiKeyCredential();
    if (error instanceof ProviderUnauthorized && credential.kind === "bearer" && key) return fetchYouTubeVideos(request, ids, key);
    throw error;
  }
}
