import { DomainError } from "~/lib/errors";
import { fetchYouTubeVideo } from "~/modules/channels/channels.server";
import { CAMPAIGN_MESSAGES as M } from "./messages";

// Which channel a YouTube video is on: the channels module's provider call (videos?id=…, the
// stand-in locally: /dev/oauth/youtube/videos), shared with clipping's view counts. docs/decisions/0142, 0154.

/** The channel id of a public YouTube video, or null when YouTube has no such video. */
export async function youtubeVideoChannel(request: Request, videoId: string): Promise<string | null> {
  try {
    return (await fetchYouTubeVideo(request, videoId))?.channelId ?? null;
  } catch (error) {
    if (error instanceof DomainError && error.code === "unavailable") throw new DomainError("unavailable", M.youtubeUnavailable);
    throw error;
  }
}
