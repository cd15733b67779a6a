import type { ClipPlatform } from "./messages";

// A clip's URL, per platform: the video's id on the platform is what the revenue import names
// (its video_id column). Pure and client-safe; tests/unit/clipping/urls.test.ts.

export type ParsedClipUrl = { platform: ClipPlatform; videoId: string; url: string };

const HOSTS: Record<ClipPlatform, RegExp> = {
  youtube_shorts: /^(?:(?:www\.|m\.)?youtube\.com|youtu\.be)$/,
  tiktok: /^(?:www\.|m\.)?tiktok\.com$/,
  instagram_reels: /^(?:www\.)?instagram\.com$/,
};

/** The text as an http(s) URL, or null. */
function webUrl(raw: string): URL | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  return url.protocol === "https:" || url.protocol === "http:" ? url : null;
}

/** The platform a URL's host belongs to, or null for any other host (or not a URL). */
export function platformOfUrl(raw: string): ClipPlatform | null {
  const url = webUrl(raw);
  if (!url) return null;
  const host = url.hostname.toLowerCase();
  for (const [platform, re] of Object.entries(HOSTS) as [ClipPlatform, RegExp][]) if (re.test(host)) return platform;
  return null;
}

/**
 * The platform's id of the video a clip URL points at, or null when the URL is not a clip of that
 * platform: youtube.com/shorts/<11 chars> (or the share link youtu.be/<11 chars>, stored as the
 * youtube.com/shorts/ URL so both spellings are one clip), tiktok.com/@user/video/<digits>,
 * instagram.com/reel(s)/<code>.
 */
export function parseClipUrl(raw: string, platform: ClipPlatform): ParsedClipUrl | null {
  const url = webUrl(raw);
  if (!url) return null;
  if (url.username || url.password || url.port) return null;
  const host = url.hostname.toLowerCase();
  if (!HOSTS[platform].test(host)) return null;
  const path = url.pathname;
  let m: RegExpMatchArray | null = null;
  switch (platform) {
    case "youtube_shorts":
      m = path.match(host === "youtu.be" ? /^\/([A-Za-z0-9_-]{11})\/?$/ : /^\/shorts\/([A-Za-z0-9_-]{11})\/?$/);
      break;
    case "tiktok":
      m = path.match(/^\/@[A-Za-z0-9._]{1,64}\/video\/(\d{5,25})\/?$/);
      break;
    case "instagram_reels":
      m = path.match(/^\/reels?\/([A-Za-z0-9_-]{5,40})\/?$/);
      break;
  }
  const videoId = m?.[1];
  if (!videoId) return null;
  const canonical =
    platform === "youtube_shorts"
      ? `https://www.youtube.com/shorts/${videoId}`
      : platform === "tiktok"
        ? `https://www.tiktok.com${path.replace(/\/$/, "")}`
        : `https://www.instagram.com/reel/${videoId}/`;
  return { platform, videoId, url: canonical };
}
