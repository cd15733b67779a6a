import { DomainError } from "~/lib/errors";
import { fetchYouTubeVideo } from "~/modules/channels/channels.server";
import { setting } from "~/platform/env.server";
import { providerFetch } from "~/platform/oauth.server";
import { CAMPAIGN_MESSAGES as M } from "./messages";
import { PLATFORM_LABELS, type ParsedVideo, type VideoPlatform } from "./video-url";

// The platforms campaigns ask (docs/decisions/0142, 0154, 0265, 0266). Every call leaves through
// providerFetch (outboundFetch): its endpoints are settings, the built-in stand-ins under /dev/
// locally (YouTube: /dev/oauth/youtube/…, TikTok and Instagram: /dev/social/…, app/dev/dev-social.server.ts),
// the real APIs in production.

/** The channel id of a public YouTube video, or null when YouTube has no such video. */
export async function youtubeVideoChannel(request: Request, videoId: string): Promise<string | null> {
  try {
    return (await fetchYouTubeVideo(request, videoId))?.channelId ?? null;
  } catch (error) {
    if (error instanceof DomainError && error.code === "unavailable") throw new DomainError("unavailable", M.youtubeUnavailable);
    throw error;
  }
}

// ---- Who posted a TikTok / Instagram video: the platform's oEmbed (decision 0265) ----------------
// TikTok: GET https://www.tiktok.com/oembed?url=… (public, no key) → author_unique_id / author_url.
// Instagram: GET https://graph.facebook.com/v21.0/instagram_oembed?url=…&access_token=APP_ID|CLIENT_TOKEN
// (Meta's oEmbed Read feature; INSTAGRAM_OEMBED_TOKEN) → author_name.

const OEMBED_DEFAULTS = {
  tiktok: "https://www.tiktok.com/oembed",
  instagram: "https://graph.facebook.com/v21.0/instagram_oembed",
} as const;

type SocialPlatform = Exclude<VideoPlatform, "youtube">;

/** The handle (lower case, no @) in an author field: "casey", "@casey" or "https://www.tiktok.com/@casey". */
function handleOf(value: unknown): string | null {
  if (typeof value !== "string" || !value.trim()) return null;
  const m = /(?:^|\/)@?([A-Za-z0-9._]{1,40})\/?$/.exec(value.trim());
  return m ? m[1].toLowerCase() : null;
}

/**
 * The handle of the account that posted a TikTok or Instagram video, or null when the platform
 * has no public video at the link. Throws "unavailable" (503, nothing written) when the platform
 * cannot be reached, answers with an error, or (Instagram) no app token is configured.
 */
export async function socialVideoAuthor(request: Request, video: ParsedVideo & { platform: SocialPlatform }): Promise<string | null> {
  const label = PLATFORM_LABELS[video.platform];
  const unavailable = () => new DomainError("unavailable", M.socialUnavailable(label));
  const url = new URL(setting(video.platform === "tiktok" ? "TIKTOK_OEMBED_URL" : "INSTAGRAM_OEMBED_URL") ?? OEMBED_DEFAULTS[video.platform], request.url);
  // An Instagram link that named its account is asked as typed (a permalink form the Graph API accepts).
  url.searchParams.set("url", video.platform === "instagram" && video.handle ? `https://www.instagram.com/${video.handle}/reel/${video.videoId}/` : video.url);
  if (video.platform === "instagram") {
    const token = setting("INSTAGRAM_OEMBED_TOKEN");
    if (!token) throw unavailable();
    url.searchParams.set("access_token", token);
    url.searchParams.set("omitscript", "true");
  }
  let res: Response;
  try {
    res = await providerFetch(request, url.toString(), { headers: { Accept: "application/json" } });
  } catch {
    throw unavailable();
  }
  // No such (public) video: TikTok answers 400/404, the Graph API 400 with an error object.
  if (res.status === 404 || res.status === 400) return null;
  if (!res.ok) throw unavailable();
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!body) throw unavailable();
  return video.platform === "tiktok" ? (handleOf(body.author_unique_id) ?? handleOf(body.author_url)) : handleOf(body.author_name);
}
