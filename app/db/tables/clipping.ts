import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { APPROVAL_STATUSES, bool, createdAt, inList } from "./shared";
import { users } from "./accounts";
import { clipperLinks } from "./music";

// ---------------------------------------------------------------------------------------------
// Clipping (issue 16): the creator's source folder in R2 (uploaded in parts), the clips a clipper
// submits, and the history of split requests of a clipper link. docs/decisions/0150.
// ---------------------------------------------------------------------------------------------

export const CLIP_SOURCE_STATUSES = ["uploading", "ready"] as const;
export const CLIP_PLATFORMS = ["youtube_shorts", "tiktok", "instagram_reels"] as const;
export const CLIP_STATUSES = ["pending", "approved", "rejected", "removal_requested", "removed"] as const;
export const CLIP_SPLIT_STATUSES = ["pending", "approved", "declined"] as const;

// A source video in a creator's folder. 'uploading': an R2 multipart upload in progress (parts in
// clip_source_parts); 'ready': completed. size_bytes is the declared size (counted against the quota
// from the start, so two uploads cannot both pass it).
export const clipSources = sqliteTable(
  "clip_sources",
  {
    id: text("id").primaryKey(),
    creatorUserId: text("creator_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    objectKey: text("object_key").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    partBytes: integer("part_bytes").notNull(),
    partCount: integer("part_count").notNull(),
    status: text("status", { enum: CLIP_SOURCE_STATUSES }).notNull().default("uploading"),
    uploadId: text("upload_id"),
    // The request finishing the upload (complete, abort, delete or the daily job) claims the row
    // first with a guarded update, then calls R2, and undoes the claim if R2 fails: parallel
    // finishes have one winner (docs/decisions/0200). A claim older than a few minutes is stale.
    claimId: text("claim_id"),
    claimedAt: text("claimed_at"),
    createdAt: createdAt(),
    completedAt: text("completed_at"),
  },
  (t) => [
    uniqueIndex("clip_sources_object_key_unique").on(t.objectKey),
    index("clip_sources_creator_idx").on(t.creatorUserId, t.status, t.createdAt),
    index("clip_sources_status_idx").on(t.status, t.createdAt),
    check("clip_sources_status_check", inList("status", CLIP_SOURCE_STATUSES)),
    check("clip_sources_size_check", sql`size_bytes > 0 and part_bytes > 0 and part_count between 1 and 10000`),
  ],
);

// The parts of a multipart upload received so far (resuming asks which are missing).
export const clipSourceParts = sqliteTable(
  "clip_source_parts",
  {
    sourceId: text("source_id")
      .notNull()
      .references(() => clipSources.id, { onDelete: "cascade" }),
    partNumber: integer("part_number").notNull(),
    etag: text("etag").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sourceId, t.partNumber] })],
);

// A clip a clipper cut from a creator's source and posted. video_id is the platform's id of the
// posted video (from its URL): the revenue import names it. Kept after revocation, for accounting.
export const clips = sqliteTable(
  "clips",
  {
    id: text("id").primaryKey(),
    creatorUserId: text("creator_user_id")
      .notNull()
      .references(() => users.id),
    clipperUserId: text("clipper_user_id")
      .notNull()
      .references(() => users.id),
    sourceId: text("source_id").references(() => clipSources.id, { onDelete: "set null" }),
    sourceName: text("source_name").notNull().default(""),
    platform: text("platform", { enum: CLIP_PLATFORMS }).notNull(),
    url: text("url").notNull(),
    videoId: text("video_id").notNull(),
    status: text("status", { enum: CLIP_STATUSES }).notNull().default("pending"),
    views: integer("views").notNull().default(0),
    viewsUpdatedAt: text("views_updated_at"),
    // When YouTube last answered that it has no such video (issue 31 §3): the clip is flagged to the
    // creator and cannot be approved until YouTube knows it; cleared when it does. Null otherwise.
    videoNotFoundAt: text("video_not_found_at"),
    // When an admin entered the views by hand (decision 0266): the daily views job then leaves them.
    viewsPinnedAt: text("views_pinned_at"),
    approvedAt: text("approved_at"),
    reviewedAt: text("reviewed_at"),
    removalRequestedAt: text("removal_requested_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("clips_platform_video_unique").on(t.platform, t.videoId),
    index("clips_video_idx").on(t.videoId),
    index("clips_creator_idx").on(t.creatorUserId, t.createdAt),
    index("clips_clipper_idx").on(t.clipperUserId, t.createdAt),
    check("clips_status_check", inList("status", CLIP_STATUSES)),
    check("clips_platform_check", inList("platform", CLIP_PLATFORMS)),
    check("clips_views_check", sql`views >= 0`),
  ],
);

// A clipper's request for a higher share, and the creator's answer. An approved row is a split in
// force from decided_at (the moment of confirmation); the rows are the history of the link's splits.
export const clipSplitRequests = sqliteTable(
  "clip_split_requests",
  {
    id: text("id").primaryKey(),
    linkId: text("link_id")
      .notNull()
      .references(() => clipperLinks.id, { onDelete: "cascade" }),
    fromBps: integer("from_bps").notNull(),
    shareBps: integer("share_bps").notNull(),
    status: text("status", { enum: CLIP_SPLIT_STATUSES }).notNull().default("pending"),
    createdAt: createdAt(),
    decidedAt: text("decided_at"),
    decidedBy: text("decided_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    // One open request per link.
    uniqueIndex("clip_split_requests_pending_unique").on(t.linkId).where(sql`status = 'pending'`),
    index("clip_split_requests_link_idx").on(t.linkId, t.status, t.decidedAt),
    check("clip_split_requests_status_check", inList("status", CLIP_SPLIT_STATUSES)),
    check("clip_split_requests_share_check", sql`share_bps between 0 and 10000 and from_bps between 0 and 10000`),
    check("clip_split_requests_decided_check", sql`status = 'pending' or decided_at is not null`),
  ],
);

// Growth (issue 18), second part: one row per person as of the daily job's last run (its facts
// for the funnel, source and the last active day), so /user-retention reads 50,000 people in a
// few milliseconds; people who signed up since are read live. docs/decisions/0172.
export const retentionPeople = sqliteTable(
  "retention_people",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    joinedAt: text("joined_at").notNull(),
    // ISO week's Monday of the sign-up, YYYY-MM-DD (UTC)
    week: text("week").notNull(),
    source: text("source", { enum: ["direct", "referral", "agency"] }).notNull(),
    status: text("status", { enum: APPROVAL_STATUSES }).notNull(),
    banned: bool("banned"),
    verified: bool("verified"),
    approved: bool("approved"),
    linked: bool("linked"),
    licensed: bool("licensed"),
    earning: bool("earning"),
    // YYYY-MM-DD of the last activity, or null
    lastDay: text("last_day"),
    computedAt: text("computed_at").notNull(),
  },
  (t) => [
    // Covering the funnel's group by (the page reads no table row for it).
    index("retention_people_week_idx").on(t.week, t.source, t.verified, t.approved, t.linked, t.licensed, t.earning),
    index("retention_people_last_day_idx").on(t.lastDay, t.joinedAt),
  ],
);
