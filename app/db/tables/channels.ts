import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { MANUAL_SUBMISSION_STATUSES, createdAt, inList, updatedAt } from "./shared";
import { users } from "./accounts";

// ---------------------------------------------------------------------------------------------
// Channels
// ---------------------------------------------------------------------------------------------

export const youtubeChannels = sqliteTable(
  "youtube_channels",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    channelId: text("channel_id").notNull(),
    channelTitle: text("channel_title").notNull(),
    channelHandle: text("channel_handle"),
    subscriberCount: integer("subscriber_count").notNull().default(0),
    viewCount: integer("view_count").notNull().default(0),
    videoCount: integer("video_count").notNull().default(0),
    thumbnailUrl: text("thumbnail_url"),
    description: text("description"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastSyncedAt: text("last_synced_at"),
  },
  (t) => [
    // One channel cannot be linked to two users.
    uniqueIndex("youtube_channels_channel_unique").on(t.channelId),
    index("youtube_channels_user_created_idx").on(t.userId, t.createdAt),
  ],
);

// The creator's TikTok and Instagram handles (decision 0265): a campaign submission on those
// platforms must be a video whose author (the platform's oEmbed) is the declared handle. One
// handle per platform per person, and a handle belongs to one person (first declared).
export const SOCIAL_PLATFORMS = ["tiktok", "instagram"] as const;
export const socialHandles = sqliteTable(
  "social_handles",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    platform: text("platform", { enum: SOCIAL_PLATFORMS }).notNull(),
    // Lower case, without the @.
    handle: text("handle").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.platform] }),
    uniqueIndex("social_handles_handle_unique").on(t.platform, t.handle),
    check("social_handles_platform_check", inList("platform", SOCIAL_PLATFORMS)),
  ],
);

// A creator's linked TikTok / Instagram account (decisions 0299, 0300): the platform's id for the
// account, its name as the platform gives it, and the account's own tokens (AES-GCM ciphertexts,
// token-crypto.server.ts), with which ownership of a submitted video and its views are read.
// One account per platform per person; one person per platform account.
export const socialAccounts = sqliteTable(
  "social_accounts",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    platform: text("platform", { enum: SOCIAL_PLATFORMS }).notNull(),
    // TikTok's open_id, Instagram's user_id (strings: platform ids can exceed 2^53).
    externalUserId: text("external_user_id").notNull(),
    username: text("username"),
    accessTokenEnc: text("access_token_enc").notNull(),
    accessTokenExpiresAt: text("access_token_expires_at"),
    refreshTokenEnc: text("refresh_token_enc"),
    refreshTokenExpiresAt: text("refresh_token_expires_at"),
    scope: text("scope"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("social_accounts_user_platform_unique").on(t.userId, t.platform),
    uniqueIndex("social_accounts_external_unique").on(t.platform, t.externalUserId),
    check("social_accounts_platform_check", inList("platform", SOCIAL_PLATFORMS)),
  ],
);

// Provider tokens live apart from the channel rows so no query that lists channels can
// carry them by accident. Both values are AES-GCM ciphertexts (base64), never raw tokens.
export const youtubeChannelTokens = sqliteTable("youtube_channel_tokens", {
  channelRowId: text("channel_row_id")
    .primaryKey()
    .references(() => youtubeChannels.id, { onDelete: "cascade" }),
  accessTokenEnc: text("access_token_enc").notNull(),
  refreshTokenEnc: text("refresh_token_enc"),
  accessTokenExpiresAt: text("access_token_expires_at"),
  updatedAt: updatedAt(),
});

export const channelSnapshots = sqliteTable(
  "channel_snapshots",
  {
    id: text("id").primaryKey(),
    channelRowId: text("channel_row_id")
      .notNull()
      .references(() => youtubeChannels.id, { onDelete: "cascade" }),
    // YYYY-MM-DD (UTC): one snapshot per channel per day, the latest refresh wins.
    day: text("day").notNull(),
    subscriberCount: integer("subscriber_count").notNull(),
    viewCount: integer("view_count").notNull(),
    videoCount: integer("video_count").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("channel_snapshots_channel_day_unique").on(t.channelRowId, t.day)],
);

export const manualChannelSubmissions = sqliteTable(
  "manual_channel_submissions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    creatorId: text("creator_id").notNull(),
    channelName: text("channel_name").notNull(),
    channelUrl: text("channel_url"),
    subscriberCount: integer("subscriber_count").notNull().default(0),
    avgMonthlyViews: integer("avg_monthly_views").notNull().default(0),
    status: text("status", { enum: MANUAL_SUBMISSION_STATUSES }).notNull().default("pending"),
    verificationSubmittedAt: text("verification_submitted_at"),
    rejectionReason: text("rejection_reason"),
    reviewedBy: text("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    reviewedAt: text("reviewed_at"),
    createdAt: createdAt(),
    // Which channel this is, for the 'one submission per channel' rule (docs/decisions/0071):
    // 'url:' + the URL lower-cased without scheme, www./m., query, fragment and trailing slashes;
    // 'name:' + the lower-cased name when no URL was given. Computed by SQLite, so every writer
    // (the app, the demo seed) gets the same key.
    channelKey: text("channel_key").generatedAlwaysAs(
      sql`CASE WHEN channel_url IS NULL OR trim(channel_url) = '' THEN 'name:' || lower(trim(channel_name)) ELSE 'url:' || rtrim(substr(replace(substr(replace(replace(replace(replace('//' || lower(trim(channel_url)), '//www.', '//'), '//m.', '//'), '//https://', '//'), '//http://', '//'), 3), '#', '?'), 1, instr(replace(substr(replace(replace(replace(replace('//' || lower(trim(channel_url)), '//www.', '//'), '//m.', '//'), '//https://', '//'), '//http://', '//'), 3), '#', '?') || '?', '?') - 1), '/') END`,
      { mode: "virtual" },
    ),
  },
  (t) => [
    index("manual_channel_submissions_user_created_idx").on(t.userId, t.createdAt),
    index("manual_channel_submissions_status_idx").on(t.status, t.verificationSubmittedAt),
    check("manual_channel_submissions_status_check", inList("status", MANUAL_SUBMISSION_STATUSES)),
    // One pending, under-review or verified submission per user and channel; a rejected one may be sent again.
    uniqueIndex("manual_channel_submissions_user_channel_unique")
      .on(t.userId, t.channelKey)
      .where(sql`status in ('pending', 'verification_submitted', 'verified')`),
  ],
);
