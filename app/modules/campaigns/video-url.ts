// A submitted video link: which supported platform, which video (client-safe, unit-tested).
// The key (platform:id) is what "one submission per video" is checked on, so the same video
// pasted as youtu.be/…, /shorts/… or /watch?v=… is one video. docs/decisions/0142.

export type VideoPlatform = "youtube" | "tiktok" | "instagram";

export const PLATFORM_LABELS: Record<VideoPlatform, string> = {
  youtube: "YouTube",
  tiktok: "TikTok",
  instagram: "Instagram",
};

/** handle: the account the link names (TikTok's /@handle/, Instagram's optional /handle/ prefix), lower case; null when none. */
export type ParsedVideo = { platform: VideoPlatform; videoId: string; key: string; url: string; handle: string | null };

export const VIDEO_URL_MAX = 500;

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

function youtube(u: URL): string | null {
  const host = u.hostname;
  if (host === "youtu.be") return u.pathname.split("/")[1] ?? null;
  if (!["youtube.com", "m.youtube.com", "music.youtube.com"].includes(host)) return null;
  const parts = u.pathname.split("/").filter(Boolean);
  if (parts[0] === "watch") return u.searchParams.get("v");
  if (["shorts", "embed", "live", "v"].includes(parts[0] ?? "")) return parts[1] ?? null;
  return null;
}

/** The link as a URL with its host in lower case and without "www.", or null when it is not a web link. */
function webUrl(raw: string): URL | null {
  const text = raw.trim();
  if (!text || text.length > VIDEO_URL_MAX) return null;
  let u: URL;
  try {
    u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return null;
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return null;
  if (u.username || u.password) return null;
  u.hostname = u.hostname.toLowerCase().replace(/^www\./, "");
  return u;
}

/**
 * Why a link is not a video link we take, in the words of what is wrong with it (issue 42 §4): a
 * YouTube link whose video id is cut short is told so, not sent back to "Enter the link of a video".
 */
export function videoUrlProblem(raw: string): string {
  const u = webUrl(raw);
  const yt = u ? youtube(u) : null;
  if (yt === null || yt === "") return VIDEO_URL_MESSAGES.notVideo;
  if (/^[A-Za-z0-9_-]{1,10}$/.test(yt)) return VIDEO_URL_MESSAGES.youtubeIdShort;
  return VIDEO_URL_MESSAGES.youtubeIdInvalid;
}

export const VIDEO_URL_MESSAGES = {
  notVideo: "Enter the link of a video on YouTube, TikTok or Instagram.",
  youtubeIdShort: "This YouTube link's video id is not complete: a YouTube video id has 11 characters.",
  youtubeIdInvalid: "This YouTube link's video id is not valid: a YouTube video id is 11 letters, digits, '-' or '_'.",
} as const;

/** The video a link names, or null when it is not a video link of a supported platform. */
export function parseVideoUrl(raw: string): ParsedVideo | null {
  const u = webUrl(raw);
  if (!u) return null;
  const host = u.hostname;
  const hostUrl = u;

  const yt = youtube(hostUrl);
  if (yt !== null) {
    if (!YOUTUBE_ID.test(yt)) return null;
    return { platform: "youtube", videoId: yt, key: `youtube:${yt}`, url: `https://www.youtube.com/shorts/${yt}`, handle: null };
  }
  if (host === "tiktok.com" || host === "m.tiktok.com") {
    const [, handle, videoId] = /^\/@([A-Za-z0-9._]{1,40})\/video\/(\d{5,25})\/?$/.exec(u.pathname) ?? [];
    if (!handle || !videoId) return null;
    return { platform: "tiktok", videoId, key: `tiktok:${videoId}`, url: `https://www.tiktok.com/@${handle}/video/${videoId}`, handle: handle.toLowerCase() };
  }
  if (host === "instagram.com") {
    const [, handle, videoId] = /^\/(?:([A-Za-z0-9._]{1,40})\/)?(?:reel|reels|p)\/([A-Za-z0-9_-]{5,40})\/?$/.exec(u.pathname) ?? [];
    if (!videoId) return null;
    return {
      platform: "instagram",
      videoId,
      key: `instagram:${videoId}`,
      url: `https://www.instagram.com/reel/${videoId}/`,
      handle: handle?.toLowerCase() ?? null,
    };
  }
  return null;
}
