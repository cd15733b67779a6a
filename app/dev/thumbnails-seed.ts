import { encodePng } from "./png.ts";
import { iso } from "./music-seed.ts";

// Demo thumbnail editor data (issue 19, decision 0185): one saved project of the admin's (a
// 16:9 thumbnail for the demo channel: a drawn backdrop image, a banner shape and outlined text)
// with its image in MEDIA, and one export of it, so /ai-thumbnail-editor's recent lists are not
// empty. The demo channel gets the local stand-in provider's thumbnail (a path on our own
// origin, served by app/dev/dev-oauth.server.ts in development builds only), so the editor's
// "Creator's channel thumbnail" panel opens it. Fixed ids, INSERT OR IGNORE, objects put once: idempotent.

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, "0")}`;

export const THUMBNAILS_SEED = {
  projectId: uuid(190001),
  assetId: uuid(190002),
  exportId: uuid(190003),
  assetKey: `thumbnails/assets/${uuid(190002)}.png`,
  exportKey: `thumbnails/exports/${uuid(190003)}.png`,
  name: "Casey Creates - kitchen fail",
} as const;

/** The stand-in provider's image of a channel (standInThumbnailUrl in app/dev/dev-oauth.server.ts, which the seed cannot import in Node). */
const standInChannelThumbnail = (channelId: string) => `/dev/oauth/youtube/thumbnails/channel/${channelId}.png`;

/** A 1280×720 warm kitchen-light backdrop: a diagonal orange→plum gradient with a soft light spot. */
function backdrop(banner: boolean) {
  return encodePng(1280, 720, (x, y) => {
    const t = (x / 1280 + y / 720) / 2;
    const spot = Math.max(0, 1 - Math.hypot(x - 900, y - 260) / 420) * 70;
    // The export carries the banner the project draws as a shape (its text is drawn by the editor only).
    if (banner && y >= 520 && y < 640) return [17, 24, 39];
    return [Math.min(255, 245 - 120 * t + spot), Math.min(255, 140 - 90 * t + spot * 0.8), Math.min(255, 60 + 70 * t + spot * 0.5)];
  });
}

export async function thumbnailsSeed({
  db,
  media,
  adminId,
  channelRowId,
  channelId,
}: {
  db: D1Database;
  media: R2Bucket;
  adminId: string;
  channelRowId: string;
  channelId: string;
}): Promise<D1PreparedStatement[]> {
  const s = THUMBNAILS_SEED;
  const [asset, exported] = await Promise.all([media.head(s.assetKey), media.head(s.exportKey)]);
  const assetBytes = asset?.size ?? (await putPng(media, s.assetKey, await backdrop(false), "kitchen-backdrop.png"));
  const exportBytes = exported?.size ?? (await putPng(media, s.exportKey, await backdrop(true), "casey-creates-kitchen-fail.png"));
  const document = {
    format: "landscape",
    background: "#111827",
    adjust: { brightness: 100, contrast: 110, saturation: 115 },
    layers: [
      { id: "bg", name: "Image", kind: "image", assetId: s.assetId, x: 640, y: 360, width: 1280, height: 720, rotation: 0, hidden: false },
      { id: "band", name: "Banner", kind: "shape", shape: "rect", fill: "#111827", x: 640, y: 580, width: 1280, height: 120, rotation: 0, hidden: false },
      {
        id: "title",
        name: "Text",
        kind: "text",
        text: "I BURNED IT",
        font: "Anton",
        size: 96,
        color: "#facc15",
        outlineColor: "#000000",
        outlineWidth: 8,
        shadow: true,
        x: 640,
        y: 580,
        width: 900,
        height: 110,
        rotation: 0,
        hidden: false,
      },
    ],
  };
  const at = iso(4, 15); // five days ago, relative to the day it runs
  return [
    db
      .prepare(
        `INSERT OR IGNORE INTO thumbnail_projects (id, name, format, document, version, created_by, updated_by, created_at, updated_at)
         VALUES (?, ?, 'landscape', ?, 1, ?, ?, ?, ?)`,
      )
      .bind(s.projectId, s.name, JSON.stringify(document), adminId, adminId, at, at),
    db
      .prepare(
        `INSERT OR IGNORE INTO thumbnail_assets (id, project_id, storage_key, content_type, bytes, width, height, created_by, created_at)
         VALUES (?, ?, ?, 'image/png', ?, 1280, 720, ?, ?)`,
      )
      .bind(s.assetId, s.projectId, s.assetKey, assetBytes, adminId, at),
    db
      .prepare(
        `INSERT OR IGNORE INTO thumbnail_exports (id, project_id, name, storage_key, content_type, width, height, bytes, created_by, created_at)
         VALUES (?, ?, ?, ?, 'image/png', 1280, 720, ?, ?, ?)`,
      )
      .bind(s.exportId, s.projectId, s.name, s.exportKey, exportBytes, adminId, iso(4, 16)),
    db.prepare(`UPDATE youtube_channels SET thumbnail_url = ? WHERE id = ? AND thumbnail_url IS NULL`).bind(standInChannelThumbnail(channelId), channelRowId),
  ];
}

async function putPng(media: R2Bucket, key: string, png: Uint8Array, filename: string): Promise<number> {
  await media.put(key, png, { httpMetadata: { contentType: "image/png" }, customMetadata: { filename } });
  return png.byteLength;
}
