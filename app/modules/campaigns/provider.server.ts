import { DomainError } from "~/lib/errors";
import { fetchYouTubeVideo, ProviderUnauthorized, youtubeCredentialFor, youtubePausedUntil, YouTubeQuotaExceeded } from "~/modules/channels/channels.server";
import { CAMPAIGN_MESSAGES as M } from "./messages";

// The platforms campaigns ask (docs/decisions/0142, 0154, 0266, 0299, 0300). Every call leaves through
// providerFetch (outboundFetch): its endpoints are settings, the built-in stand-ins under /dev/
// locally (YouTube: /dev/oauth/youtube/…), the real APIs in production.

/**
 * The channel id of a public YouTube video, or null when YouTube has no such video. Asked as the
 * submitter (their linked channel's token: the video must be theirs), else with the API key
 * (decision 0303). 503 when neither is available, YouTube fails, or its daily quota is spent.
 */
export async function youtubeVideoChannel(request: Request, videoId: string, submitterId: string): Promise<string | null> {
  const pausedUntil = await youtubePausedUntil();
  if (pausedUntil) throw new DomainError("unavailable", M.youtubeQuotaPaused);
  const credential = await youtubeCredentialFor(request, submitterId);
  if (!credential) throw new DomainError("unavailable", M.youtubeUnavailable);
  try {
    return (await fetchYouTubeVideo(request, videoId, credential))?.channelId ?? null;
  } catch (error) {
    if (error instanceof YouTubeQuotaExceeded) throw new DomainError("unavailable", M.youtubeQuotaPaused);
    // A stored token Google no longer takes (401): the channel refresh asks for a reconnect.
    if ((error instanceof DomainError && error.code === "unavailable") || error instanceof ProviderUnauthorized) {
      throw new DomainError("unavailable", M.youtubeUnavailable);
    }
    throw error;
  }
}

// Who posted a TikTok / Instagram video is asked with the creator's linked account
// (app/modules/channels/social-accounts.server.ts, decisions 0299, 0300): oEmbed no longer names
// Instagram's author and is meant for embedding, not for proving who posted.
