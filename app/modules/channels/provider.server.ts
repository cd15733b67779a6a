import type { OAuth2Tokens } from "arctic";
import { DomainError } from "~/lib/errors";
import { env } from "~/platform/env.server";
import { endpoints, providerFetch } from "~/platform/oauth.server";
import { channelImageUrl } from "./thumbnail-sources.server";

// The provider: the YouTube Data API v3 channels?mine=true (snippet, statistics) and Google's
// token revocation. Endpoints are settings (the stand-in provider locally), see oauth.server.ts.

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

function toCount(value: unknown): number {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : 0;
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
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
    throw unavailable(`YouTube could not be reached: ${(error as Error).message}`);
  }
  const body = (await res.json().catch(() => ({}))) as { items?: unknown[]; error?: { message?: string } | string };
  if (res.status === 401) throw new ProviderUnauthorized("Invalid Credentials");
  if (!res.ok) {
    const message = typeof body.error === "string" ? body.error : body.error?.message;
    throw unavailable(`YouTube answered with an error: ${message ?? `HTTP ${res.status}`}`);
  }
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
  const override = (env as unknown as Record<string, unknown>).GOOGLE_REVOKE_URL;
  if (typeof override === "string" && override) return new URL(override, request.url).toString();
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

// A public YouTube video: the YouTube Data API v3 videos?part=snippet,statistics&id=… (public data;
// YOUTUBE_API_KEY when set). The endpoint sits beside the channels endpoint, which is a setting
// (…/channels → …/videos), so locally and in the tests the stand-in provider answers
// (app/dev/dev-oauth.server.ts, /dev/oauth/youtube/videos). Campaigns (which channel a video is on,
// docs/decisions/0142) and clipping (a Short's views, docs/decisions/0154) both read it here.

export type ProviderVideo = { id: string; channelId: string; viewCount: number | null };

function videosEndpoint(request: Request): string {
  const settings = env as unknown as Record<string, unknown>;
  const override = settings.YOUTUBE_VIDEOS_URL;
  if (typeof override === "string" && override) return new URL(override, request.url).toString();
  return endpoints(request).youtubeChannels.replace(/\/channels(\?.*)?$/, "/videos");
}

/** A public YouTube video (its channel and view count), or null when YouTube has no such video. Throws "unavailable" on a provider failure. */
export async function fetchYouTubeVideo(request: Request, videoId: string): Promise<ProviderVideo | null> {
  const url = new URL(videosEndpoint(request));
  url.searchParams.set("part", "snippet,statistics");
  url.searchParams.set("id", videoId);
  const key = (env as unknown as Record<string, unknown>).YOUTUBE_API_KEY;
  if (typeof key === "string" && key) url.searchParams.set("key", key);
  let res: Response;
  try {
    res = await providerFetch(request, url.toString(), { headers: { Accept: "application/json" } });
  } catch (error) {
    throw unavailable(`YouTube could not be reached: ${(error as Error).message}`);
  }
  if (!res.ok) throw unavailable(`YouTube answered with an error: HTTP ${res.status}`);
  const body = (await res.json().catch(() => null)) as {
    items?: { id?: unknown; snippet?: { channelId?: unknown }; statistics?: { viewCount?: unknown } }[];
  } | null;
  if (!body || !Array.isArray(body.items)) throw unavailable("YouTube answered with an error: no items");
  const item = body.items.find((i) => i?.id === videoId) ?? body.items[0];
  const channelId = item?.snippet?.channelId;
  if (typeof channelId !== "string" || !channelId) return null;
  const views = item?.statistics?.viewCount;
  return { id: videoId, channelId, viewCount: views === undefined || views === null ? null : toCount(views) };
}
