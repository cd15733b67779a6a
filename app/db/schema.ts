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
    // A phone number in E.164 (+15551234567), a second sign-in identifier once verified.
    // Changing or removing it clears phone_verified_at; one verified owner per number.
    phone: text("phone"),
    phoneVerifiedAt: text("phone_verified_at"),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email), uniqueIndex("users_verified_phone_unique").on(t.phone).where(sql`phone_verified_at is not null`)],
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

export const SESSION_END_REASONS = ["ended_by_user", "ended_by_admin", "banned", "password_changed", "role_changed"] as const;

// Sessions ended by someone else than the browser holding them, kept 30 days after their row is
// gone, so that a browser still carrying the cookie can be told why (a ban's reason on /auth).
// Written in the same batch that deletes the sessions (docs/decisions/0068).
export const endedSessions = sqliteTable(
  "ended_sessions",
  {
    // The ended session's id (SHA-256 of its cookie token).
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reason: text("reason", { enum: SESSION_END_REASONS }).notNull(),
    endedAt: text("ended_at").notNull(),
  },
  (t) => [index("ended_sessions_ended_idx").on(t.endedAt), check("ended_sessions_reason_check", inList("reason", SESSION_END_REASONS))],
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

// One-time codes sent by text to verify a phone number (docs/decisions/0075). The code is stored
// as an HMAC, tried at most 5 times, valid 10 minutes, consumed once by a guarded update.
export const phoneCodes = sqliteTable(
  "phone_codes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    phone: text("phone").notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: text("expires_at").notNull(),
    consumedAt: text("consumed_at"),
    createdAt: createdAt(),
  },
  (t) => [index("phone_codes_user_idx").on(t.userId, t.createdAt)],
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

// An invitation to manage an agency, sent to an e-mail address whether or not an account uses it
// (docs/decisions/0065). Only the SHA-256 of the link's token is stored; accepting consumes it
// once (guarded update on accepted_at). One pending invitation per agency and address.
export const agencyManagerInvitations = sqliteTable(
  "agency_manager_invitations",
  {
    id: text("id").primaryKey(),
    agencyId: text("agency_id")
      .notNull()
      .references(() => agencies.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
    acceptedAt: text("accepted_at"),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("agency_manager_invitations_token_unique").on(t.tokenHash),
    uniqueIndex("agency_manager_invitations_one_pending").on(t.agencyId, t.email).where(sql`accepted_at is null`),
  ],
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

// ---------------------------------------------------------------------------------------------
// Music and clipping
// ---------------------------------------------------------------------------------------------

export const TRACK_STATUSES = ["in_review", "published", "rejected", "withdrawn"] as const;

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
    audioSize: integer("audio_size").notNull().default(0),
    // Key of the cover image in MEDIA (served through a route); cover_url is the legacy field.
    coverKey: text("cover_key"),
    // Bytes of the cover in MEDIA (0 without one): counted with audio_size in the partner's quota.
    coverSize: integer("cover_size").notNull().default(0),
    coverUrl: text("cover_url"),
    // Lower-case words separated by single spaces (searched with the title and artist).
    tags: text("tags").notNull().default(""),
    // Waveform peaks: a JSON array of 64..1024 integers 0..255, computed once when the track is stored.
    peaks: text("peaks").notNull().default("[]"),
    status: text("status", { enum: TRACK_STATUSES }).notNull().default("in_review"),
    submittedBy: text("submitted_by").references(() => users.id, { onDelete: "set null" }),
    reviewNote: text("review_note"),
    reviewedBy: text("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    reviewedAt: text("reviewed_at"),
    publishedAt: text("published_at"),
    withdrawnAt: text("withdrawn_at"),
    withdrawReason: text("withdraw_reason"),
    // Licences taken (the 'most used' sort); +1 in the same batch as each new licence.
    licenceCount: integer("licence_count").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("music_tracks_audio_key_unique").on(t.audioKey),
    index("music_tracks_status_created_idx").on(t.status, t.createdAt),
    index("music_tracks_status_used_idx").on(t.status, t.licenceCount),
    index("music_tracks_status_title_idx").on(t.status, t.title),
    index("music_tracks_status_genre_idx").on(t.status, t.genre),
    index("music_tracks_status_mood_idx").on(t.status, t.mood),
    index("music_tracks_status_bpm_idx").on(t.status, t.bpm),
    index("music_tracks_status_duration_idx").on(t.status, t.durationSeconds),
    index("music_tracks_submitter_idx").on(t.submittedBy, t.createdAt),
    // The library's sorts, each with its tie-break, so a page is read off an index (scripts/bench-music.mjs; docs/decisions/0103).
    index("music_tracks_library_newest_idx").on(t.status, t.publishedAt, t.id),
    index("music_tracks_library_used_idx").on(t.status, t.licenceCount, t.publishedAt, t.id),
    index("music_tracks_library_title_idx").on(t.status, sql`${t.title} COLLATE NOCASE`, t.id),
    check("music_tracks_status_check", inList("status", TRACK_STATUSES)),
    check("music_tracks_bpm_check", sql`bpm is null or bpm between 40 and 250`),
  ],
);

// A creator's licence to use a track: one per creator and track. The code (SB-XXXX-XXXX-XXXX,
// 60 random bits in Crockford base32) is what the public verification page looks up.
export const musicLicences = sqliteTable(
  "music_licences",
  {
    id: text("id").primaryKey(),
    code: text("code").notNull(),
    trackId: text("track_id")
      .notNull()
      .references(() => musicTracks.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("music_licences_code_unique").on(t.code),
    uniqueIndex("music_licences_track_user_unique").on(t.trackId, t.userId),
    index("music_licences_user_idx").on(t.userId, t.createdAt),
    index("music_licences_track_idx").on(t.trackId, t.createdAt),
  ],
);

// The creator's linked or verified channels when the licence was taken (a snapshot: the
// certificate and the public page keep naming them after a channel is unlinked).
export const musicLicenceChannels = sqliteTable(
  "music_licence_channels",
  {
    licenceId: text("licence_id")
      .notNull()
      .references(() => musicLicences.id, { onDelete: "cascade" }),
    channelKind: text("channel_kind", { enum: ["youtube", "manual"] }).notNull(),
    channelRef: text("channel_ref").notNull(),
    title: text("title").notNull(),
    url: text("url"),
  },
  (t) => [
    primaryKey({ columns: [t.licenceId, t.channelKind, t.channelRef] }),
    check("music_licence_channels_kind_check", sql`channel_kind in ('youtube', 'manual')`),
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

// ---------------------------------------------------------------------------------------------
// Payments (issue 14): the earnings ledger in integer cents, shares in basis points. A month's
// revenue arrives as an import: its entries are written while the import is staged (invisible),
// then one guarded update of revenue_months.live_import_id switches it live. docs/decisions/0120.
// ---------------------------------------------------------------------------------------------

export const LEDGER_SOURCE_KINDS = ["music", "campaign", "clip", "referral", "adjustment"] as const;
export const LEDGER_STATUSES = ["estimated", "finalized", "paid"] as const;
export const REVENUE_IMPORT_STATUSES = ["staged", "live", "replaced", "discarded"] as const;
export const PAYOUT_STATUSES = ["pending", "paid"] as const;

export const revenueImports = sqliteTable(
  "revenue_imports",
  {
    id: text("id").primaryKey(),
    // YYYY-MM (UTC)
    month: text("month").notNull(),
    status: text("status", { enum: REVENUE_IMPORT_STATUSES }).notNull().default("staged"),
    fileName: text("file_name"),
    rowCount: integer("row_count").notNull().default(0),
    entryCount: integer("entry_count").notNull().default(0),
    netCents: integer("net_cents").notNull().default(0),
    amountCents: integer("amount_cents").notNull().default(0),
    shareBp: integer("share_bp").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    wentLiveAt: text("went_live_at"),
  },
  (t) => [
    index("revenue_imports_month_idx").on(t.month, t.createdAt),
    // At most one live import per month.
    uniqueIndex("revenue_imports_month_live_unique").on(t.month).where(sql`status = 'live'`),
    check("revenue_imports_status_check", inList("status", REVENUE_IMPORT_STATUSES)),
    check("revenue_imports_month_check", sql`month glob '[0-9][0-9][0-9][0-9]-[0-1][0-9]'`),
  ],
);

export const revenueMonths = sqliteTable(
  "revenue_months",
  {
    month: text("month").primaryKey(),
    // The import whose entries count; the switch is one guarded update of this column.
    liveImportId: text("live_import_id").references(() => revenueImports.id),
    fundsReceivedAt: text("funds_received_at"),
    fundsReceivedBy: text("funds_received_by").references(() => users.id, { onDelete: "set null" }),
    finalizedAt: text("finalized_at"),
    finalizedBy: text("finalized_by").references(() => users.id, { onDelete: "set null" }),
  },
  () => [
    check("revenue_months_month_check", sql`month glob '[0-9][0-9][0-9][0-9]-[0-1][0-9]'`),
    check("revenue_months_finalized_check", sql`finalized_at is null or funds_received_at is not null`),
  ],
);

export const payouts = sqliteTable(
  "payouts",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    // The payout run: YYYY-MM of the payout day it was gathered on.
    batch: text("batch").notNull(),
    amountCents: integer("amount_cents").notNull(),
    status: text("status", { enum: PAYOUT_STATUSES }).notNull().default("pending"),
    reference: text("reference"),
    paidAt: text("paid_at"),
    paidBy: text("paid_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    // One payout per person per run: the job gathers once however often it runs.
    uniqueIndex("payouts_user_batch_unique").on(t.userId, t.batch),
    index("payouts_batch_idx").on(t.batch, t.status),
    index("payouts_user_idx").on(t.userId, t.createdAt),
    check("payouts_status_check", inList("status", PAYOUT_STATUSES)),
    check("payouts_amount_check", sql`amount_cents > 0`),
    check("payouts_paid_check", sql`status = 'pending' or (reference is not null and paid_at is not null)`),
  ],
);

export const ledgerEntries = sqliteTable(
  "ledger_entries",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    month: text("month").notNull(),
    sourceKind: text("source_kind", { enum: LEDGER_SOURCE_KINDS }).notNull(),
    // The source item: a channel id (music), a campaign, clip or referred user id; '' for a creator-level line.
    sourceId: text("source_id").notNull().default(""),
    // What the source earned this month (net of platform taxes and fees), the person's share, and their part.
    netCents: integer("net_cents").notNull(),
    shareBp: integer("share_bp").notNull(),
    amountCents: integer("amount_cents").notNull(),
    status: text("status", { enum: LEDGER_STATUSES }).notNull().default("estimated"),
    payoutId: text("payout_id").references(() => payouts.id),
    // The import that wrote it (null for an adjustment made by hand).
    importId: text("import_id").references(() => revenueImports.id),
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [
    // A month, person and source is written once per import.
    uniqueIndex("ledger_entries_import_source_unique").on(t.importId, t.userId, t.month, t.sourceKind, t.sourceId),
    index("ledger_entries_user_month_idx").on(t.userId, t.month),
    index("ledger_entries_month_status_idx").on(t.month, t.status),
    index("ledger_entries_payout_idx").on(t.payoutId),
    check("ledger_entries_source_kind_check", inList("source_kind", LEDGER_SOURCE_KINDS)),
    check("ledger_entries_status_check", inList("status", LEDGER_STATUSES)),
    check("ledger_entries_share_check", sql`share_bp between 0 and 10000`),
    check("ledger_entries_month_check", sql`month glob '[0-9][0-9][0-9][0-9]-[0-1][0-9]'`),
    check("ledger_entries_paid_check", sql`status <> 'paid' or payout_id is not null`),
  ],
);
