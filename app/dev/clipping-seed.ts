// Demo clipping (issue 16): the demo creator's source folder with two videos (tiny MP4 files put
// in MEDIA), the demo clipper's clips in each state with views, and a split history (one declined
// request, one waiting for the creator), and the creator's clipper invitations (docs/decisions/0205):
// the one the demo clipper used, approved ~60 days ago, and one still waiting to be used, sent to
// jordan.lee@example.com. Dates relative to the day it runs (music-seed's iso(): days before
// yesterday): sources uploaded ~50 and ~33 days ago, the approved clip ~40 days ago and the others over the last three weeks, a split
// request declined ~7 weeks ago and one waiting since ~3 days ago. Fixed ids and INSERT OR IGNORE:
// idempotent, and a later run changes no date — except that the waiting invitation, while still
// unused, is kept valid (it expires 7 days after it was sent, and the demo should show one).
import { expectAt } from "../lib/arrays.ts";
import { iso } from "./music-seed.ts";

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, "0")}`;

/** A small file whose first bytes are an MP4 'ftyp' box (what the upload's type check accepts). */
function tinyMp4(size: number): Uint8Array {
  const b = new Uint8Array(size);
  b.set([0, 0, 0, 0x18, ...new TextEncoder().encode("ftypisom")]);
  return b;
}

export async function clippingSeed({
  db,
  media,
  creatorId,
  clipperId,
  linkId,
}: {
  db: D1Database;
  media: R2Bucket;
  creatorId: string;
  clipperId: string;
  linkId: string;
}): Promise<D1PreparedStatement[]> {
  const sources = [
    { id: uuid(6001), name: "Studio session - full take.mp4", size: 180_000, at: iso(49, 14) },
    { id: uuid(6002), name: "Behind the scenes vlog.mp4", size: 120_000, at: iso(32, 9) },
  ];
  const out: D1PreparedStatement[] = [];
  for (const s of sources) {
    const key = `clipping/${creatorId}/${s.id}.mp4`;
    if (!(await media.head(key))) {
      await media.put(key, tinyMp4(s.size), {
        httpMetadata: { contentType: "video/mp4" },
        customMetadata: { filename: s.name.replace(/[^A-Za-z0-9._-]+/g, "-") },
      });
    }
    out.push(
      db
        .prepare(
          `INSERT OR IGNORE INTO clip_sources (id, creator_user_id, name, object_key, content_type, size_bytes, part_bytes, part_count, status, created_at, completed_at)
           VALUES (?, ?, ?, ?, 'video/mp4', ?, 8388608, 1, 'ready', ?, ?)`,
        )
        .bind(s.id, creatorId, s.name, key, s.size, s.at, s.at),
    );
  }
  const clips = [
    {
      n: 6101,
      platform: "youtube_shorts",
      url: "https://www.youtube.com/shorts/DemoClip001",
      videoId: "DemoClip001",
      status: "approved",
      views: 48_210,
      source: 0,
    },
    {
      n: 6102,
      platform: "tiktok",
      url: "https://www.tiktok.com/@charlieclips/video/7300000000000000001",
      videoId: "7300000000000000001",
      status: "pending",
      views: 0,
      source: 1,
    },
    { n: 6103, platform: "instagram_reels", url: "https://www.instagram.com/reel/DemoReel01/", videoId: "DemoReel01", status: "rejected", views: 0, source: 1 },
    {
      n: 6104,
      platform: "youtube_shorts",
      url: "https://www.youtube.com/shorts/DemoClip002",
      videoId: "DemoClip002",
      status: "removal_requested",
      views: 9_870,
      source: 0,
    },
    {
      n: 6105,
      platform: "tiktok",
      url: "https://www.tiktok.com/@charlieclips/video/7300000000000000002",
      videoId: "7300000000000000002",
      status: "removed",
      views: 2_310,
      source: 0,
    },
  ] as const;
  clips.forEach((c, i) => {
    // The approved clip 40 days ago (so last month's revenue report holds it: payments-seed), the others 18, 16, … 12 days ago.
    const at = iso(i === 0 ? 39 : 19 - i * 2);
    const approved = c.status === "approved" || c.status === "removal_requested" || c.status === "removed" ? at : null;
    out.push(
      db
        .prepare(
          `INSERT OR IGNORE INTO clips (id, creator_user_id, clipper_user_id, source_id, source_name, platform, url, video_id, status, views, views_updated_at, approved_at, reviewed_at, removal_requested_at, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .bind(
          uuid(c.n),
          creatorId,
          clipperId,
          expectAt(sources, c.source, "seed sources").id,
          expectAt(sources, c.source, "seed sources").name,
          c.platform,
          c.url,
          c.videoId,
          c.status,
          c.views,
          c.views ? at : null,
          approved,
          c.status === "pending" ? null : at,
          c.status === "removal_requested" || c.status === "removed" ? at : null,
          at,
        ),
    );
  });
  // The invitations. No code hashes to these values (a code's SHA-256 is 64 hex digits): their
  // links were never shown, as a real invitation's link is shown once to its creator.
  const open = { id: uuid(6301), sentAt: iso(1, 9) };
  const week = 7 * 24 * 3_600_000;
  out.push(
    db
      .prepare(
        `INSERT OR IGNORE INTO clipper_invitations (id, creator_user_id, code_hash, email, status, created_at, expires_at, accepted_by, accepted_at, decided_at)
         VALUES (?, ?, ?, NULL, 'approved', ?, ?, ?, ?, ?)`,
      )
      .bind(uuid(6300), creatorId, `demo-used-${uuid(6300)}`, iso(61, 9), iso(54, 9), clipperId, iso(60, 10), iso(60, 11)),
    db
      .prepare(
        `INSERT OR IGNORE INTO clipper_invitations (id, creator_user_id, code_hash, email, status, created_at, expires_at) VALUES (?, ?, ?, 'jordan.lee@example.com', 'open', ?, ?)`,
      )
      .bind(open.id, creatorId, `demo-open-${open.id}`, open.sentAt, new Date(Date.parse(open.sentAt) + week).toISOString()),
    db
      .prepare(`UPDATE clipper_invitations SET created_at = ?, expires_at = ? WHERE id = ? AND status = 'open' AND expires_at < ?`)
      .bind(open.sentAt, new Date(Date.parse(open.sentAt) + week).toISOString(), open.id, new Date().toISOString()),
  );
  out.push(
    db
      .prepare(
        `INSERT OR IGNORE INTO clip_split_requests (id, link_id, from_bps, share_bps, status, created_at, decided_at, decided_by)
         VALUES (?, ?, 7000, 8500, 'declined', ?, ?, ?)`,
      )
      .bind(uuid(6201), linkId, iso(48), iso(47, 9), creatorId),
    db
      .prepare(`INSERT OR IGNORE INTO clip_split_requests (id, link_id, from_bps, share_bps, status, created_at) VALUES (?, ?, 7000, 7500, 'pending', ?)`)
      .bind(uuid(6202), linkId, iso(2)),
  );
  return out;
}
