import { STAND_IN_VIDEOS } from "./dev-oauth-catalogue.server";
import { encodePng, hsl } from "./png";

// ---- Thumbnails (decision 0185) ----------------------------------------------------------------
// YouTube answers image URLs on its own hosts; the stand-in answers a path on our own origin
// (no network locally), which the channels module keeps only in development builds with
// DEV_TOOLS=1 (channelImageUrl). The images are drawn here: a channel's is a 240×240 avatar (a
// head-and-shoulders silhouette on a colour of its id), a video's a 320×180 frame in its channel's colours.

/** The stand-in's thumbnail of a channel or a video (a root-relative path on our own origin). */
export function standInThumbnailUrl(kind: "channel" | "video", id: string): string {
  return `/dev/oauth/youtube/thumbnails/${kind}/${encodeURIComponent(id)}.png`;
}

function hueOf(id: string): number {
  let n = 7;
  for (const ch of id) n = (n * 31 + ch.charCodeAt(0)) % 360;
  return n;
}

export async function standInThumbnail(kind: "channel" | "video", id: string): Promise<Uint8Array> {
  const hue = hueOf(kind === "video" ? (STAND_IN_VIDEOS[id] ?? id) : id);
  const [width, height] = kind === "channel" ? [240, 240] : [320, 180];
  const figure = hsl((hue + 180) % 360, 0.35, 0.88);
  const [cx, unit] = [width / 2, height / 240];
  return encodePng(width, height, (x, y) => {
    const head = (x - cx) ** 2 + (y - 96 * unit) ** 2 <= (46 * unit) ** 2;
    const shoulders = ((x - cx) / (92 * unit)) ** 2 + ((y - 244 * unit) / (96 * unit)) ** 2 <= 1;
    return head || shoulders ? figure : hsl(hue, 0.55, 0.3 + 0.25 * (y / height));
  });
}
