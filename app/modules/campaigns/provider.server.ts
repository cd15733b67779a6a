import { DomainError } from "~/lib/errors";
import { env } from "~/platform/env.server";
import { endpoints, providerFetch } from "~/platform/oauth.server";
import { CAMPAIGN_MESSAGES as M } from "./messages";

// Which channel a YouTube video is on: the YouTube Data API v3 videos?part=snippet&id=… (public
// data; YOUTUBE_API_KEY when set). The endpoint sits beside the channels endpoint, which is a
// setting (…/channels → …/videos), so locally and in the tests the stand-in provider answers
// (app/dev/dev-oauth.server.ts, /dev/oauth/youtube/videos). docs/decisions/0142.

function videosEndpoint(request: Request): string {
  const settings = env as unknown as Record<string, unknown>;
  const override = settings.YOUTUBE_VIDEOS_URL;
  if (typeof override === "string" && override) return new URL(override, request.url).toString();
  return endpoints(request).youtubeChannels.replace(/\/channels(\?.*)?$/, "/videos");
}

/** The channel id of a public YouTube video, or null when YouTube has no such video. */
export async function youtubeVideoChannel(request: Request, videoId: string): Promise<string | null> {
  const url = new URL(videosEndpoint(request));
  url.searchParams.set("part", "snippet");
  url.searchParams.set("id", videoId);
  const key = (env as unknown as Record<string, unknown>).YOUTUBE_API_KEY;
  if (typeof key === "string" && key) url.searchParams.set("key", key);
  let res: Response;
  try {
    res = await providerFetch(request, url.toString(), { headers: { Accept: "application/json" } });
  } catch {
    throw new DomainError("unavailable", M.youtubeUnavailable);
  }
  if (!res.ok) throw new DomainError("unavailable", M.youtubeUnavailable);
  const body = (await res.json().catch(() => null)) as { items?: { id?: unknown; snippet?: { channelId?: unknown } }[] } | null;
  if (!body || !Array.isArray(body.items)) throw new DomainError("unavailable", M.youtubeUnavailable);
  const item = body.items.find((i) => i?.id === videoId) ?? body.items[0];
  const channelId = item?.snippet?.channelId;
  return typeof channelId === "string" && channelId ? channelId : null;
}
