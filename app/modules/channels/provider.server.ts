import type { OAuth2Tokens } from "arctic";
import { DomainError } from "~/lib/errors";
import { env } from "~/platform/env.server";
import { endpoints, providerFetch } from "~/platform/oauth.server";
import { recordFailure, recordSuccessOnce } from "~/platform/service-status.server";
import { channelImageUrl } from "./thumbnail-sources.server";
import { pauseYouTubeUntilReset } from "./youtube-quota.server";
import { errorReasonOf, parseVideoList, type ProviderVideo, toCount, VIDEOS_PER_CALL } from "./youtube-api";

// The provider: the YouTube Data API v3 channels?mine=true (snippet, statistics) and Google's
// token revocation. Endpoints are settings (the stand-in provider locally), see oauth.server.ts.
// Each answer of the Data API is recorded here for the System status page (docs/decisions/0326):
// no answer or an error answer is YouTube's failure; a 401 to a user's token is that user's stale
// grant (the caller renews it), not YouTube's.

export const YOUTUBE_SCOPE = "https://www.googleapis.com/auth/youtube.readonly";

export type ProviderChannel = {
  id: string;
  title: string;
  handle: string | null;
  description: string | null;
  thumbnailUrl: string | null;
  subscriberCount: number;
  viewCount: number;
  videoCount: number;
};

/** The provider refused the access token (HTTP 401): the caller decides whether to renew it. */
export class ProviderUnauthorized extends Error {}

/** Google could not be reached or answered with an error: nothing was changed. */
const unavailable = (message: string) => new DomainError("unavailable", message);

/** YouTube failed (no answer, an error answer): recorded for the System status page, then the error to throw. */
async function youtubeFailed(request: Request, code: string | null, message: string): Promise<DomainError> {
  await recordFailure("youtube", code, message, request);
  return unavailable(message);
}

function text(value: unknown, max: number): string | null {
  return typeof value === "string" && value.trim() ? value.trim().slice(0, max) : null;
}

/** Reads the channel the access token belongs to. */
export async function fetchOwnChannel(request: Request, accessToken: string): Promise<ProviderChannel> {
  const url = new URL(endpoints(request).youtubeChannels);
  url.searchParams.set("part", "snippet,statistics");
  url.searchParams.set("mine", "true");
  let res: Response;
  try {
    res = await providerFetch(request, url.toString(), {
      headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" },
    });
  } catch (error) {
    throw await youtubeFailed(request, null, `YouTube could not be reached: ${(error as Error).message}`);
  }
  const body = (await res.json().catch(() => ({}))) as { items?: unknown[]; error?: { message?: string } | string };
  if (res.status === 401) throw new ProviderUnauthorized("Invalid Credentials");
  if (!res.ok) {
    const message = typeof body.error === "string" ? body.error : body.error?.message;
    throw await youtubeFailed(request, errorReasonOf(body) ?? `HTTP ${res.status}`, `YouTube answered with an error: ${message ?? `HTTP ${res.status}`}`);
  }
  await recordSuccessOnce(request, "youtube");
  const item = (Array.isArray(body.items) ? body.items[0] : null) as {
    id?: unknown;
    snippet?: Record<string, unknown>;
    statistics?: Record<string, unknown>;
  } | null;
  if (!item || typeof item.id !== "string" || !item.id) {
    throw new DomainError("not_found", "No YouTube channel was found for this Google account.");
  }
  const snippet = item.snippet ?? {};
  const stats = item.statistics ?? {};
  const thumbs = (snippet.thumbnails ?? {}) as Record<string, { url?: unknown } | undefined>;
  const thumb = text(thumbs.medium?.url ?? thumbs.default?.url, 500);
  return {
    id: item.id.slice(0, 64),
    title: text(snippet.title, 200) ?? item.id,
    handle: text(snippet.customUrl, 100),
    description: text(snippet.description, 1000),
    thumbnailUrl: channelImageUrl(thumb),
    subscriberCount: toCount(stats.subscriberCount),
    viewCount: toCount(stats.viewCount),
    videoCount: toCount(stats.videoCount),
  };
}

/** Google's revoke endpoint sits beside its token endpoint (…/token → …/revoke), as the stand-in's does. */
function revokeEndpoint(request: Request): string {
  const override = env.GOOGLE_REVOKE_URL;
  if (override) return new URL(override, request.url).toString();
  return endpoints(request).token.replace(/\/token(\?.*)?$/, "/revoke");
}

/** Revokes a grant at Google. Best effort: the channel and its tokens are already gone from our side. */
export async function revokeAtProvider(request: Request, token: string): Promise<void> {
  try {
    await providerFetch(request, revokeEndpoint(request), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token }),
    });
  } catch (error) {
    console.error("token revocation failed", error);
  }
}

/** When the access token expires, or null when the provider did not say. */
export function expiresAtOf(tokens: OAuth2Tokens): string | null {
  try {
    return tokens.accessTokenExpiresAt().toISOString();
  } catch {
    return null;
  }
}

// Public YouTube videos: the YouTube Data API v3 videos.list (part=snippet,statistics, up to 50 ids a
// call, https://developers.google.com/youtube/v3/docs/videos/list). Google answers a request without
// an OAuth token only with an API key, so every call names its credential (decision 0303): the
// owner's linked-channel token, or YOUTUBE_API_KEY (youtube-access.server.ts chooses). The endpoint
// sits beside the channels endpoint, which is a setting (…/channels → …/videos), so locally and in the
// tests the stand-in provider answers (app/dev/dev-oauth.server.ts, /dev/oauth/youtube/videos).
// Campaigns (which channel a video is on, 0142) and the views jobs (0154, 0266) read it here.

export type { ProviderVideo } from "./youtube-api";

/** Who a videos.list call is made as: a user's OAuth access token, or the project's API key. */
export type YouTubeCredential = { kind: "bearer"; token: string } | { kind: "key"; key: string };

/** YouTube answered 403 quotaExceeded: the project's daily quota is spent until `until` (midnight PT). */
export class YouTubeQuotaExceeded extends Error {
  constructor(readonly until: string) {
    super(`YouTube's daily quota is used up until ${until}.`);
  }
}

function videosEndpoint(request: Request): string {
  const override = env.YOUTUBE_VIDEOS_URL;
  if (override) return new URL(override, request.url).toString();
  return endpoints(request).youtubeChannels.replace(/\/channels(\?.*)?$/, "/videos");
}

/**
 * One videos.list call for up to 50 ids with the given credential: the videos YouTube has, by id
 * (an id missing from the map is a video YouTube has not got). Throws YouTubeQuotaExceeded on 403
 * quotaExceeded (after pausing YouTube calls until the reset), ProviderUnauthorized on 401 (a stale
 * token), "unavailable" on any other failure.
 */
export async function fetchYouTubeVideos(request: Request, ids: readonly string[], credential: YouTubeCredential): Promise<Map<string, ProviderVideo>> {
  if (ids.length === 0) return new Map();
  if (ids.length > VIDEOS_PER_CALL) throw new Error(`videos.list takes at most ${VIDEOS_PER_CALL} ids`);
  const url = new URL(videosEndpoint(request));
  url.searchParams.set("part", "snippet,statistics");
  url.searchParams.set("id", ids.join(","));
  const headers: Record<string, string> = { Accept: "application/json" };
  if (credential.kind === "key") url.searchParams.set("key", credential.key);
  else headers.Authorization = `Bearer ${credential.token}`;
  let res: Response;
  try {
    res = await providerFetch(request, url.toString(), { headers });
  } catch (error) {
    throw await youtubeFailed(request, null, `YouTube could not be reached: ${(error as Error).message}`);
  }
  const body: unknown = await res.json().catch(() => null);
  if (res.status === 403 && errorReasonOf(body) === "quotaExceeded") {
    // Pausing records the quota state and the error (youtube-quota.server.ts).
    throw new YouTubeQuotaExceeded(await pauseYouTubeUntilReset());
  }
  if (res.status === 401 && credential.kind === "bearer") throw new ProviderUnauthorized("Invalid Credentials");
  // Anything else, a 401 to the API key included (keyInvalid: our setting), is YouTube's or ours.
  const reason = errorReasonOf(body) ?? `HTTP ${res.status}`;
  if (!res.ok) throw await youtubeFailed(request, reason, `YouTube answered with an error: ${reason}`);
  const videos = parseVideoList(body);
  if (!videos) throw await youtubeFailed(request, null, "YouTube answered with an error: no items");
  await recordSuccessOnce(request, "youtube");
  return videos;
}

/** A public YouTube video (its channel and view count), or null when YouTube has no such video. */
export async function fetchYouTubeVideo(request: Request, videoId: string, credential: YouTubeCredential): Promise<ProviderVideo | null> {
  return (await fetchYouTubeVideos(request, [videoId], credential)).get(videoId) ?? null;
}
