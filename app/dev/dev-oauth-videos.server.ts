import { setting } from "~/platform/env.server";
import { STAND_IN_VIDEOS } from "./dev-oauth-catalogue.server";
import { bearer, json, kv } from "./dev-oauth-grants.server";
import { standInThumbnailUrl } from "./dev-oauth-thumbnails.server";

// ---- videos.list (decision 0303) ----------------------------------------------------------------
// As Google answers (https://developers.google.com/youtube/v3/docs/videos/list, /docs/errors): a
// request must carry an OAuth token or an API key — neither is a 403 `forbidden` ("The request is
// missing a valid API key."); an unknown key is a 400 `badRequest` ("API key not valid"); a revoked or
// expired token is a 401. `id` is a comma-separated list of at most 50 ids; unknown ids are simply
// absent from `items`. With the quota spent (exhaustStandInQuota) every call is a 403 `quotaExceeded`.
// Each call is recorded (standInVideoCalls) so tests can count them.

export async function registerStandInVideo(videoId: string, channelId: string, views?: number | "unavailable"): Promise<void> {
  await kv().put(`devoauth:video:${videoId}`, channelId, { expirationTtl: 60 * 60 * 24 * 30 });
  // Its view count (clipping, issue 16), or "unavailable": the stand-in then lists it without statistics.
  if (views !== undefined) await kv().put(`devoauth:video-views:${videoId}`, String(views), { expirationTtl: 60 * 60 * 24 * 30 });
}

/** A stand-in video's views when none were registered: a stable number from its id. */
function standInViews(id: string): number {
  let n = 0;
  for (const ch of id) n = (n * 31 + ch.charCodeAt(0)) % 100_000;
  return 1_000 + n;
}

const QUOTA_KEY = "devoauth:quota-exceeded";

/** Google's error envelope (https://developers.google.com/youtube/v3/docs/errors). */
export function googleError(code: number, reason: string, message: string, status: string, domain = "global") {
  return { error: { code, message, errors: [{ message, domain, reason }], status } };
}

export const STAND_IN_ERRORS = {
  missingKey: googleError(403, "forbidden", "The request is missing a valid API key.", "PERMISSION_DENIED"),
  keyInvalid: googleError(400, "badRequest", "API key not valid. Please pass a valid API key.", "INVALID_ARGUMENT"),
  invalidCredentials: googleError(401, "authError", "Invalid Credentials", "UNAUTHENTICATED"),
  quotaExceeded: googleError(
    403,
    "quotaExceeded",
    'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
    "PERMISSION_DENIED",
    "youtube.quota",
  ),
} as const;

export type StandInVideoCall = { ids: string[]; credential: "key" | "bearer" };
const videoCalls: StandInVideoCall[] = [];

/** The videos.list calls the stand-in answered since the last reset (tests count them). */
export function standInVideoCalls(): readonly StandInVideoCall[] {
  return videoCalls;
}
export function resetStandInVideoCalls(): void {
  videoCalls.length = 0;
}

/** Spends (or restores) the stand-in project's daily quota: videos.list answers 403 quotaExceeded. */
export async function exhaustStandInQuota(spent = true): Promise<void> {
  if (spent) await kv().put(QUOTA_KEY, "1", { expirationTtl: 3600 });
  else await kv().delete(QUOTA_KEY);
}

export async function standInVideosList(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const key = url.searchParams.get("key");
  const hasBearer = /^Bearer ./.test(request.headers.get("Authorization") ?? "");
  if (!key && !hasBearer) return json(STAND_IN_ERRORS.missingKey, 403);
  if (key && key !== setting("YOUTUBE_API_KEY")) return json(STAND_IN_ERRORS.keyInvalid, 400);
  if (!key && !(await bearer(request))) return json(STAND_IN_ERRORS.invalidCredentials, 401);
  const ids = (url.searchParams.get("id") ?? "").split(",").filter(Boolean);
  videoCalls.push({ ids, credential: key ? "key" : "bearer" });
  if (await kv().get(QUOTA_KEY)) return json(STAND_IN_ERRORS.quotaExceeded, 403);
  if (ids.length > 50) return json(googleError(400, "invalidFilters", "The request specifies an invalid filter parameter.", "INVALID_ARGUMENT"), 400);
  const items: youtubeVideoItem[] = [];
  for (const id of ids) {
    const channelId = (await kv().get(`devoauth:video:${id}`)) ?? STAND_IN_VIDEOS[id] ?? null;
    if (!channelId) continue;
    const views = await kv().get(`devoauth:video-views:${id}`);
    // A video registered with views "unavailable" is listed without its statistics: its views cannot
    // be read (the others of the same call can).
    items.push({
      kind: "youtube#video",
      id,
      snippet: { channelId, title: `Stand-in video ${id}`, thumbnails: { medium: { url: standInThumbnailUrl("video", id) } } },
      ...(views === "unavailable" ? {} : { statistics: { viewCount: views ?? String(standInViews(id)) } }),
    });
  }
  return json({ kind: "youtube#videoListResponse", pageInfo: { totalResults: items.length, resultsPerPage: items.length }, items });
}

type youtubeVideoItem = {
  kind: "youtube#video";
  id: string;
  snippet: { channelId: string; title: string; thumbnails: { medium: { url: string } } };
  statistics?: { viewCount: string };
};
