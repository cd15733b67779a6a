import { socialVideoViews } from "./social-accounts.server";
import { youtubeViewsMany } from "./youtube-views.server";

// The views provider (decision 0266): one function per platform returning a video's current views,
// read by the daily jobs (campaign submissions, clips). Every call leaves through providerFetch
// (outboundFetch); the endpoints are settings: the built-in stand-ins under /dev/ locally
// (app/dev/dev-oauth.server.ts for YouTube, app/dev/dev-social-login.server.ts for TikTok and Instagram).

export type ViewsPlatform = "youtube" | "tiktok" | "instagram";

// YouTube: the Data API's videos.list, 50 ids a call (youtube-views.server.ts, decision 0303).
// TikTok and Instagram: below.

export type ViewsReading = { kind: "found"; views: number } | { kind: "not_found" } | { kind: "unavailable" };

/** One YouTube video's views (clip approval): asked with the API key, as the daily job asks a clip's (decision 0303). */
async function youtubeViews(request: Request, videoId: string): Promise<ViewsReading> {
  return (await youtubeViewsMany(request, [{ videoId, ownerUserId: null }])).get(videoId) ?? { kind: "unavailable" };
}

// TikTok and Instagram: only the video's owner's token reads its views (decisions 0299, 0300): the
// Display API's video query (view_count) and the media's insights (metric=views), through the
// account the owner linked on /channels (social-accounts.server.ts). No linked account: "unavailable",
// and the views stay the admin's.

async function tiktokViews(request: Request, videoId: string, ownerId?: string | null): Promise<ViewsReading> {
  return ownerId ? socialVideoViews(request, ownerId, "tiktok", videoId) : { kind: "unavailable" };
}

async function instagramViews(request: Request, videoId: string, ownerId?: string | null): Promise<ViewsReading> {
  return ownerId ? socialVideoViews(request, ownerId, "instagram", videoId) : { kind: "unavailable" };
}

/** The views provider: the current views of a submitted video, per platform. Never throws. */
export const VIEWS_PROVIDERS: Record<ViewsPlatform, (request: Request, videoId: string, ownerId?: string | null) => Promise<ViewsReading>> = {
  youtube: youtubeViews,
  tiktok: tiktokViews,
  instagram: instagramViews,
};
