import { DomainError } from "~/lib/errors";
import { fetchYouTubeVideo } from "~/modules/channels/channels.server";
import { CAMPAIGN_MESSAGES as M } from "./messages";

// The platforms campaigns ask (docs/decisions/0142, 0154, 0266, 0299, 0300). Every call leaves through
// providerFetch (outboundFetch): its endpoints are settings, the built-in stand-ins under /dev/
// locally (YouTube: /dev/oauth/youtube/…), the real APIs in production.

/** The channel id of a public YouTube video, or null when YouTube has no such video. */
export async function youtubeVideoChannel(request: Request, videoId: string): Promise<string | null> {
  try {
    return (await fetchYouTubeVideo(request, videoId))?.channelId ?? null;
  } catch (error) {
    if (error instanceof DomainError && error.code === "unavailable") throw new DomainError("unavailable", M.youtubeUnavailable);
    throw error;
  }
}

// Who posted a TikTok / Instagram video is asked with the creator's linked account
// (app/modules/channels/social-accounts.server.ts, decisions 0299, 0300): oEmbed no longer names
// Instagram's author and is meant for embedding, not for proving who posted.
