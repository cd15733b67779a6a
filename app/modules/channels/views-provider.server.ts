import { setting } from "~/platform/env.server";
import { providerFetch } from "~/platform/oauth.server";
import { fetchYouTubeVideo } from "./provider.server";

// The views provider (decision 0266): one function per platform returning a video's current views,
// read by the daily jobs (campaign submissions, clips). Every call leaves through providerFetch
// (outboundFetch); the endpoints are settings: the built-in stand-ins under /dev/ locally
// (app/dev/dev-oauth.server.ts for YouTube, app/dev/dev-social.server.ts for TikTok and Instagram).

export type ViewsPlatform = "youtube" | "tiktok" | "instagram";

// YouTube: the Data API's videos?id= (as before, YOUTUBE_API_KEY). TikTok: the Research API's
// video query (POST https://open.tiktokapis.com/v2/research/video/query/?fields=id,view_count) with a
// client-credentials token (TIKTOK_CLIENT_KEY / TIKTOK_CLIENT_SECRET, POST …/v2/oauth/token/).
// Instagram: a reel's views are only given to its owner's token (Instagram Login), so in production
// INSTAGRAM_VIEWS_URL stays unset and Instagram views stay the admin's; locally the stand-in answers.

export type ViewsReading = { kind: "found"; views: number } | { kind: "not_found" } | { kind: "unavailable" };

const count = (v: unknown): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
};

async function youtubeViews(request: Request, videoId: string): Promise<ViewsReading> {
  try {
    const video = await fetchYouTubeVideo(request, videoId);
    if (!video) return { kind: "not_found" };
    return video.viewCount === null ? { kind: "unavailable" } : { kind: "found", views: Math.min(video.viewCount, Number.MAX_SAFE_INTEGER) };
  } catch {
    return { kind: "unavailable" };
  }
}

/** TikTok's client-credentials token, kept for the request (one job run) it was asked for. */
const tiktokTokens = new WeakMap<Request, Promise<string | null>>();

async function tiktokToken(request: Request): Promise<string | null> {
  const key = setting("TIKTOK_CLIENT_KEY");
  const secret = setting("TIKTOK_CLIENT_SECRET");
  if (!key || !secret) return null;
  const res = await providerFetch(request, setting("TIKTOK_TOKEN_URL") ?? "https://open.tiktokapis.com/v2/oauth/token/", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ client_key: key, client_secret: secret, grant_type: "client_credentials" }),
  });
  if (!res.ok) return null;
  const body = (await res.json().catch(() => null)) as { access_token?: unknown } | null;
  return typeof body?.access_token === "string" ? body.access_token : null;
}

async function tiktokViews(request: Request, videoId: string): Promise<ViewsReading> {
  try {
    let token = tiktokTokens.get(request);
    if (!token) {
      token = tiktokToken(request);
      tiktokTokens.set(request, token);
    }
    const bearer = await token;
    if (!bearer) return { kind: "unavailable" };
    const url = new URL(setting("TIKTOK_VIEWS_URL") ?? "https://open.tiktokapis.com/v2/research/video/query/", request.url);
    url.searchParams.set("fields", "id,view_count");
    const today = new Date().toISOString().slice(0, 10).replaceAll("-", "");
    const monthAgo = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10).replaceAll("-", "");
    const res = await providerFetch(request, url.toString(), {
      method: "POST",
      headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        query: { and: [{ operation: "EQ", field_name: "video_id", field_values: [videoId] }] },
        start_date: monthAgo,
        end_date: today,
        max_count: 1,
      }),
    });
    if (!res.ok) return { kind: "unavailable" };
    const body = (await res.json().catch(() => null)) as { data?: { videos?: { id?: unknown; view_count?: unknown }[] } } | null;
    const found = body?.data?.videos?.find((v) => String(v.id) === videoId);
    if (!found) return { kind: "not_found" };
    const views = count(found.view_count);
    return views === null ? { kind: "unavailable" } : { kind: "found", views };
  } catch {
    return { kind: "unavailable" };
  }
}

async function instagramViews(request: Request, videoId: string): Promise<ViewsReading> {
  const endpoint = setting("INSTAGRAM_VIEWS_URL");
  if (!endpoint) return { kind: "unavailable" };
  try {
    const url = new URL(endpoint, request.url);
    url.searchParams.set("shortcode", videoId);
    const res = await providerFetch(request, url.toString(), { headers: { Accept: "application/json" } });
    if (res.status === 404) return { kind: "not_found" };
    if (!res.ok) return { kind: "unavailable" };
    const body = (await res.json().catch(() => null)) as { view_count?: unknown } | null;
    const views = count(body?.view_count);
    return views === null ? { kind: "unavailable" } : { kind: "found", views };
  } catch {
    return { kind: "unavailable" };
  }
}

/** The views provider: the current views of a submitted video, per platform. Never throws. */
export const VIEWS_PROVIDERS: Record<ViewsPlatform, (request: Request, videoId: string) => Promise<ViewsReading>> = {
  youtube: youtubeViews,
  tiktok: tiktokViews,
  instagram: instagramViews,
};
