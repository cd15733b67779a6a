// The single source of Shortbeat's tables. Field names follow product-spec.md section 3;
// what accounts need (users, sessions, tokens, audit, outbox, settings) is added around them.
// Times are ISO-8601 UTC strings; booleans are 0/1 integers; ids are UUIDs unless noted.
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
const createdAt = () => text("created_at").notNull().default(now);
const updatedAt = () => text("updated_at").notNull().default(now);
const bool = (name: string) => integer(name, { mode: "boolean" }).notNull().default(false);

export const APPROVAL_STATUSES = ["pending", "approved", "rejected"] as const;
export const AGENCY_STATUSES = ["active", "inactive"] as const;
export const SEVERITIES = ["low", "medium", "high", "critical"] as const;
export const MANUAL_SUBMISSION_STATUSES = ["pending", "verification_submitted", "verified", "rejected"] as const;
export const ONE_TIME_TOKEN_PURPOSES = ["email_verification", "password_reset"] as const;

const inList = (column: string, values: readonly string[]) => sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(", ")})`);

// ---------------------------------------------------------------------------------------------
// Accounts
// ---------------------------------------------------------------------------------------------

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    emailVerifiedAt: text("email_verified_at"),
    // Self-describing PHC string ($argon2id$v=19$m=…,t=…,p=…$salt$hash); null for
    // accounts that only ever signed in with Google.
    passwordHash: text("password_hash"),
    // The sign-up metadata of spec section 3 (full_name, referral_code, agency_slug,
    // agency_name, youtube_channel_url, subscriber_count, monthly_views,
    // wants_to_be_clipper, clipper_agreement_accepted), kept as sent, as JSON.
    userMetadata: text("user_metadata").notNull().default("{}"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email)],
);

export const profiles = sqliteTable(
  "profiles",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    // Short public code; also the creator's referral code.
    creatorId: text("creator_id").notNull(),
    fullName: text("full_name"),
    avatarUrl: text("avatar_url"),
    approvalStatus: text("approval_status", { enum: APPROVAL_STATUSES }).notNull().default("pending"),
    rejectionReason: text("rejection_reason"),
    isBanned: bool("is_banned"),
    banReason: text("ban_reason"),
    isMusicPartner: bool("is_music_partner"),
    // Music partner sign-up details.
    artistName: text("artist_name"),
    catalogueUrl: text("catalogue_url"),
    // Who referred this user (the referrer's user id), and the agency they joined through.
    referredBy: text("referred_by").references(() => users.id, { onDelete: "set null" }),
    agencyId: text("agency_id").references(() => agencies.id, { onDelete: "set null" }),
    // The agency signup token the user joined with (attribution), if any.
    agencySignupTokenId: text("agency_signup_token_id"),
    lastSignInAt: text("last_sign_in_at"),
    // The creator's 12-month term starts when their first channel is linked.
    termStartedAt: text("term_started_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("profiles_creator_id_unique").on(t.creatorId),
    index("profiles_approval_status_idx").on(t.approvalStatus, t.createdAt),
    index("profiles_agency_idx").on(t.agencyId),
    index("profiles_referred_by_idx").on(t.referredBy),
    check("profiles_approval_status_check", inList("approval_status", APPROVAL_STATUSES)),
  ],
);

export const userRoles = sqliteTable(
  "user_roles",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["admin"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("user_roles_user_role_unique").on(t.userId, t.role), check("user_roles_role_check", sql`role in ('admin')`)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    // SHA-256 of the cookie token, hex. The token itself is never stored.
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    // Sliding expiry, extended on use, never past absolute_expires_at.
    expiresAt: text("expires_at").notNull(),
    absoluteExpiresAt: text("absolute_expires_at").notNull(),
    lastSeenAt: text("last_seen_at").notNull().default(now),
    userAgent: text("user_agent"),
    ip: text("ip"),
  },
  (t) => [index("sessions_user_idx").on(t.userId, t.createdAt)],
);

export const oauthAccounts = sqliteTable(
  "oauth_accounts",
  {
    provider: text("provider").notNull(),
    providerUserId: text("provider_user_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerUserId] }), index("oauth_accounts_user_idx").on(t.userId)],
);

export const oneTimeTokens = sqliteTable(
  "one_time_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ONE_TIME_TOKEN_PURPOSES }).notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    createdAt: createdAt(),
  },
  (t) => [index("one_time_tokens_user_idx").on(t.userId, t.purpose), check("one_time_tokens_purpose_check", inList("purpose", ONE_TIME_TOKEN_PURPOSES))],
);

export const securityAuditLog = sqliteTable(
  "security_audit_log",
  {
    id: text("id").primaryKey(),
    eventType: text("event_type").notNull(),
    severity: text("severity", { enum: SEVERITIES }).notNull().default("low"),
    // Who acted (null when anonymous) and whom it concerned.
    userId: text("user_id"),
    targetUserId: text("target_user_id"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    path: text("path"),
    // JSON; never a password or token.
    details: text("details").notNull().default("{}"),
    createdAt: createdAt(),
  },
  (t) => [
    index("security_audit_log_created_idx").on(t.createdAt),
    index("security_audit_log_type_idx").on(t.eventType, t.createdAt),
    index("security_audit_log_user_idx").on(t.userId, t.createdAt),
    index("security_audit_log_target_idx").on(t.targetUserId, t.createdAt),
    check("security_audit_log_severity_check", inList("severity", SEVERITIES)),
  ],
);

export const emailOutbox = sqliteTable(
  "email_outbox",
  {
    id: text("id").primaryKey(),
    toEmail: text("to_email").notNull(),
    subject: text("subject").notNull(),
    bodyText: text("body_text").notNull(),
    kind: text("kind").notNull(),
    createdAt: createdAt(),
    sentAt: text("sent_at"),
  },
  (t) => [index("email_outbox_to_idx").on(t.toEmail, t.createdAt)],
);

export const appSettings = sqliteTable("app_settings", {
  key: text("key").primaryKey(),
  // JSON value.
  value: text("value").notNull(),
  updatedAt: updatedAt(),
  updatedBy: text("updated_by"),
});

// ---------------------------------------------------------------------------------------------
// Agencies
// ---------------------------------------------------------------------------------------------

export const agencies = sqliteTable(
  "agencies",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    contactEmail: text("contact_email").notNull(),
    description: text("description"),
    logoUrl: text("logo_url"),
    status: text("status", { enum: AGENCY_STATUSES }).notNull().default("active"),
    approvalStatus: text("approval_status", { enum: APPROVAL_STATUSES }).notNull().default("pending"),
    rejectionReason: text("rejection_reason"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    // The owner (the applicant).
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("agencies_slug_unique").on(t.slug),
    index("agencies_user_idx").on(t.userId, t.createdAt),
    index("agencies_created_idx").on(t.createdAt),
    // One pending application per applicant, also when two arrive at once.
    uniqueIndex("agencies_one_pending_per_user").on(t.userId).where(sql`approval_status = 'pending'`),
    check("agencies_status_check", inList("status", AGENCY_STATUSES)),
    check("agencies_approval_status_check", inList("approval_status", APPROVAL_STATUSES)),
  ],
);

export const agencyUsers = sqliteTable(
  "agency_users",
  {
    id: text("id").primaryKey(),
    agencyId: text("agency_id")
      .notNull()
      .references(() => agencies.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").notNull().default("manager"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("agency_users_agency_user_unique").on(t.agencyId, t.userId), index("agency_users_user_idx").on(t.userId)],
);

export const agencySignupTokens = sqliteTable(
  "agency_signup_tokens",
  {
    id: text("id").primaryKey(),
    agencyId: text("agency_id")
      .notNull()
      .references(() => agencies.id, { onDelete: "cascade" }),
    token: text("token").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("agency_signup_tokens_token_unique").on(t.token), index("agency_signup_tokens_agency_idx").on(t.agencyId, t.createdAt)],
);

// ---------------------------------------------------------------------------------------------
// Notifications
// ---------------------------------------------------------------------------------------------

export const notifications = sqliteTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    // Key in AVATARS (public) and in MEDIA (served through signed URLs).
    imageUrl: text("image_url"),
    videoUrl: text("video_url"),
    // 'broadcast' from an admin, or an account event (approval, rejection, ban, verification…).
    kind: text("kind").notNull().default("broadcast"),
    // Who it was sent to: 'all', 'role:<kind>', 'users', or 'user' for account events.
    audience: text("audience").notNull().default("user"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("notifications_created_idx").on(t.createdAt)],
);

export const userNotifications = sqliteTable(
  "user_notifications",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    notificationId: text("notification_id")
      .notNull()
      .references(() => notifications.id, { onDelete: "cascade" }),
    isRead: bool("is_read"),
    readAt: text("read_at"),
    createdAt: createdAt(),
  },
  (t) => [index("user_notifications_user_created_idx").on(t.userId, t.createdAt), index("user_notifications_user_unread_idx").on(t.userId, t.isRead)],
);

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
  },
  (t) => [
    index("manual_channel_submissions_user_created_idx").on(t.userId, t.createdAt),
    index("manual_channel_submissions_status_idx").on(t.status, t.verificationSubmittedAt),
    check("manual_channel_submissions_status_check", inList("status", MANUAL_SUBMISSION_STATUSES)),
  ],
);

// ---------------------------------------------------------------------------------------------
// Music and clipping
// ---------------------------------------------------------------------------------------------

export const musicTracks = sqliteTable(
  "music_tracks",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    artist: text("artist").notNull(),
    genre: text("genre"),
    mood: text("mood"),
    bpm: integer("bpm"),
    durationSeconds: integer("duration_seconds").notNull(),
    // Key of the audio file in MEDIA.
    audioKey: text("audio_key").notNull(),
    audioContentType: text("audio_content_type").notNull().default("audio/wav"),
    coverUrl: text("cover_url"),
    status: text("status", { enum: ["published", "unpublished"] })
      .notNull()
      .default("published"),
    submittedBy: text("submitted_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("music_tracks_audio_key_unique").on(t.audioKey),
    index("music_tracks_status_created_idx").on(t.status, t.createdAt),
    check("music_tracks_status_check", sql`status in ('published', 'unpublished')`),
  ],
);

// A clipper works for the creator who invited them. Split in basis points (7000 = 70%).
export const clipperLinks = sqliteTable(
  "clipper_links",
  {
    id: text("id").primaryKey(),
    creatorUserId: text("creator_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clipperUserId: text("clipper_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clipperShareBps: integer("clipper_share_bps").notNull().default(7000),
    status: text("status", { enum: ["active", "revoked"] })
      .notNull()
      .default("active"),
    createdAt: createdAt(),
    revokedAt: text("revoked_at"),
  },
  (t) => [
    uniqueIndex("clipper_links_pair_unique").on(t.creatorUserId, t.clipperUserId),
    index("clipper_links_clipper_idx").on(t.clipperUserId),
    check("clipper_links_status_check", sql`status in ('active', 'revoked')`),
    check("clipper_links_share_check", sql`clipper_share_bps between 0 and 10000`),
  ],
);
