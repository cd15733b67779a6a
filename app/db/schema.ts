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
    // Account deletion (docs/decisions/0213): asked at deletion_requested_at, carried out by the
    // daily job from deletion_due_at (30 days later) unless cancelled; deleted_at once anonymised.
    deletionRequestedAt: text("deletion_requested_at"),
    deletionDueAt: text("deletion_due_at"),
    deletedAt: text("deleted_at"),
  },
  (t) => [
    index("users_deletion_due_idx").on(t.deletionDueAt),
    uniqueIndex("users_email_unique").on(t.email),
    uniqueIndex("users_verified_phone_unique").on(t.phone).where(sql`phone_verified_at is not null`),
  ],
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
    // A Google sign-up that has not yet given the sign-up form's channel details and accepted the
    // Creator Agreement (docs/decisions/0324): the guards send it to /auth/finish-sign-up and the
    // admin's queue does not list it until it has.
    signUpDetailsMissing: bool("sign_up_details_missing"),
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

export const EMAIL_STATUSES = ["pending", "sending", "sent", "failed"] as const;

// Every e-mail is a row here first (the record), then delivered through the EMAIL binding by
// app/platform/email-delivery.server.ts: claimed once (status 'sending' with a claim id and a lease),
// sent, stamped sent_at and message_id; a failure goes back to 'pending' with next_attempt_at later
// (backoff) until the last try marks it 'failed' with the error. docs/decisions/0210.
export const emailOutbox = sqliteTable(
  "email_outbox",
  {
    id: text("id").primaryKey(),
    toEmail: text("to_email").notNull(),
    subject: text("subject").notNull(),
    // The plain-text body; emptied by the retention job after the stated period (body_purged_at).
    bodyText: text("body_text").notNull(),
    // Where in body_text the text someone typed is (JSON [[start, end], …]): shown inert (docs/decisions/0288).
    userSpans: text("user_spans"),
    // The kind's main link (the button), given by the caller: always ours, never found in the text (0288).
    actionUrl: text("action_url"),
    kind: text("kind").notNull(),
    createdAt: createdAt(),
    sentAt: text("sent_at"),
    status: text("status", { enum: EMAIL_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    // When the row may be tried (again): now for a new row, later after a failure.
    nextAttemptAt: text("next_attempt_at").notNull().default(now),
    // The sender that holds the row while status = 'sending', and until when (a crashed sender's rows come back).
    claimId: text("claim_id"),
    claimedUntil: text("claimed_until"),
    // The provider's id of the sent message.
    messageId: text("message_id"),
    // The last failure (code and message), kept when the row is finally 'failed'.
    lastError: text("last_error"),
    bodyPurgedAt: text("body_purged_at"),
  },
  (t) => [
    index("email_outbox_to_idx").on(t.toEmail, t.createdAt),
    index("email_outbox_due_idx").on(t.status, t.nextAttemptAt),
    index("email_outbox_kind_to_idx").on(t.toEmail, t.kind, t.createdAt),
    check("email_outbox_status_check", inList("status", EMAIL_STATUSES)),
    check("email_outbox_sent_check", sql`status <> 'sent' or sent_at is not null`),
  ],
);

export const EMAIL_OPT_OUT_CATEGORIES = ["news"] as const;

// Addresses that turned off a category of non-essential mail (Settings or one-click unsubscribe,
// RFC 8058). Keyed by address, as mail providers keep suppressions: the outbox checks it centrally.
export const emailOptOuts = sqliteTable(
  "email_opt_outs",
  {
    email: text("email").notNull(),
    category: text("category", { enum: EMAIL_OPT_OUT_CATEGORIES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.email, t.category] }), check("email_opt_outs_category_check", inList("category", EMAIL_OPT_OUT_CATEGORIES))],
);

// What the app last saw of each outside service (e-mail, texts, Workers AI, Stripe, Google…), for the
// admin's System status panel and `npm run doctor` (docs/decisions/0312). One row per service.
export const serviceStatus = sqliteTable("service_status", {
  service: text("service").primaryKey(),
  lastSuccessAt: text("last_success_at"),
  lastErrorAt: text("last_error_at"),
  lastErrorCode: text("last_error_code"),
  lastErrorMessage: text("last_error_message"),
  // The provider's quota is spent: sending waits until then (e-mail's E_DAILY_LIMIT_EXCEEDED).
  pausedUntil: text("paused_until"),
  // The configuration problem the admins were alerted about (once per code until a success clears it).
  alertedCode: text("alerted_code"),
  alertedAt: text("alerted_at"),
  updatedAt: updatedAt(),
});

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
    // A small MP3 the uploader's browser made from the audio (issue 30): what listeners stream,
    // so a preview starts within a second; null for tracks without one (the original is streamed).
    // Its bytes count in the partner's quota with the audio and the cover. docs/decisions/0270.
    previewKey: text("preview_key"),
    previewSize: integer("preview_size").notNull().default(0),
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
    // The words a search finds a track by besides its title, artist and tags: its genre (also
    // without its hyphen: "Lo-fi" → "lofi"), its mood and its tempo band. Computed by SQLite and
    // read by the full-text index (music_tracks_fts, external content); docs/decisions/0240.
    searchFacets: text("search_facets").generatedAlwaysAs(
      sql`coalesce(genre, '') || ' ' || replace(coalesce(genre, ''), '-', '') || ' ' || coalesce(mood, '') || ' ' || CASE WHEN bpm IS NULL THEN '' WHEN bpm < 90 THEN 'slow downtempo' WHEN bpm < 120 THEN 'mid-tempo midtempo' ELSE 'fast uptempo' END`,
      { mode: "virtual" },
    ),
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

// A submission's history (issue 30): each admin decision (with its note or reason) and each
// resubmission of a rejected track by its partner, in order. The track's row holds only the latest
// state; these rows keep every round visible to the partner and the reviewing admin.
export const MUSIC_TRACK_EVENT_KINDS = ["rejected", "resubmitted", "approved", "withdrawn"] as const;
export const musicTrackEvents = sqliteTable(
  "music_track_events",
  {
    id: text("id").primaryKey(),
    trackId: text("track_id")
      .notNull()
      .references(() => musicTracks.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: MUSIC_TRACK_EVENT_KINDS }).notNull(),
    // The reviewer's note (rejected, approved) or reason (withdrawn); null for a resubmission.
    note: text("note"),
    // A resubmission's changed fields as a JSON array of names ("title", "audio", …); "[]" otherwise.
    changes: text("changes").notNull().default("[]"),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("music_track_events_track_idx").on(t.trackId, t.createdAt), check("music_track_events_kind_check", inList("kind", MUSIC_TRACK_EVENT_KINDS))],
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

// A clipper works for the creator who invited and approved them. Split in basis points (7000 =
// 70%). A link exists only once the creator approved the clipper (docs/decisions/0205): every link
// made before invitations existed counts as approved from its creation (migration 0020).
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
    /** When the creator approved the clipper (the latest approval, after a revocation too). */
    approvedAt: text("approved_at"),
  },
  (t) => [
    uniqueIndex("clipper_links_pair_unique").on(t.creatorUserId, t.clipperUserId),
    index("clipper_links_clipper_idx").on(t.clipperUserId),
    check("clipper_links_status_check", sql`status in ('active', 'revoked')`),
    check("clipper_links_share_check", sql`clipper_share_bps between 0 and 10000`),
  ],
);

// A creator's invitation to clip for them (docs/decisions/0205): its own single-use code (only its
// SHA-256 is kept; the link is shown once and, if the invitation names an e-mail, sent there),
// expiring after 7 days. open → accepted (a person used it: they wait for the creator) → approved
// (the clipper link is made) or declined; open → withdrawn. "Expired" is an open one past expires_at.
export const CLIPPER_INVITATION_STATUSES = ["open", "accepted", "approved", "declined", "withdrawn"] as const;
export const clipperInvitations = sqliteTable(
  "clipper_invitations",
  {
    id: text("id").primaryKey(),
    creatorUserId: text("creator_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    /** The address it was sent to (normalized): only an account with it may accept. Null: anyone with the link. */
    email: text("email"),
    status: text("status", { enum: CLIPPER_INVITATION_STATUSES }).notNull().default("open"),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "cascade" }),
    acceptedAt: text("accepted_at"),
    /** When it was approved, declined or withdrawn. */
    decidedAt: text("decided_at"),
  },
  (t) => [
    uniqueIndex("clipper_invitations_code_unique").on(t.codeHash),
    index("clipper_invitations_creator_idx").on(t.creatorUserId, t.createdAt),
    index("clipper_invitations_accepted_by_idx").on(t.acceptedBy, t.status),
    // One open invitation per creator and address (inviting again renews it), one waiting request per creator and person.
    uniqueIndex("clipper_invitations_one_open_per_email").on(t.creatorUserId, t.email).where(sql`status = 'open' and email is not null`),
    uniqueIndex("clipper_invitations_one_request").on(t.creatorUserId, t.acceptedBy).where(sql`status = 'accepted'`),
    check("clipper_invitations_status_check", inList("status", CLIPPER_INVITATION_STATUSES)),
    check("clipper_invitations_accepted_check", sql`status in ('open', 'withdrawn') or accepted_at is not null`),
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
// The shape of the file an import read (issue 29, docs/decisions/0221): our own columns, the YouTube
// content-owner revenue report, or any CSV through a column mapping.
export const REVENUE_FORMATS = ["shortbeat", "youtube", "mapped"] as const;
// pending (gathered on the payout day) → processing (a Stripe transfer was asked for) → paid (Stripe's
// webhook, or an admin for a person paid outside Stripe) or failed (refused or reversed: its entries
// go back to the balance). docs/decisions/0224. A transfer refused for the platform's own balance goes
// back to pending with held_at/held_reason set (0307): it is not the person's failure.
export const PAYOUT_STATUSES = ["pending", "processing", "paid", "failed"] as const;
export const PAYOUT_METHODS = ["stripe", "manual"] as const;
export const PAYOUT_ACCOUNT_STATUSES = ["needs_information", "enabled", "restricted"] as const;

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
    // Typed by REVENUE_FORMATS; no CHECK, so that adding the column needs no rebuild of a table others reference.
    format: text("format", { enum: REVENUE_FORMATS }).notNull().default("shortbeat"),
    // The exact sum of the matched rows as written (decimal text, any number of decimals), and what
    // rounding the month once to the cent left over (exact − net_cents, under half a cent). Decision 0220.
    exactTotal: text("exact_total"),
    roundingRemainder: text("rounding_remainder"),
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
    // YYYY-MM-DD: the run's payout date on the calendar (decision 0122); null for runs before it was kept.
    payoutDate: text("payout_date"),
    amountCents: integer("amount_cents").notNull(),
    status: text("status", { enum: PAYOUT_STATUSES }).notNull().default("pending"),
    // The bank's reference (paid outside Stripe) or the Stripe transfer id.
    reference: text("reference"),
    paidAt: text("paid_at"),
    paidBy: text("paid_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    // How it is paid: a Stripe transfer to the person's connected account, or outside Stripe (an admin marks it paid).
    method: text("method", { enum: PAYOUT_METHODS }).notNull().default("manual"),
    stripeAccountId: text("stripe_account_id"),
    stripeTransferId: text("stripe_transfer_id"),
    // When the transfer was asked for; when and why it failed.
    sentAt: text("sent_at"),
    failedAt: text("failed_at"),
    failureReason: text("failure_reason"),
    // Held back (still pending) for a problem of the platform's, not the person's: Stripe refused the
    // transfer with balance_insufficient (docs/decisions/0307). Cleared when the transfer goes out.
    heldAt: text("held_at"),
    heldReason: text("held_reason"),
  },
  (t) => [
    // One payout per person per run: the job gathers once however often it runs.
    uniqueIndex("payouts_user_batch_unique").on(t.userId, t.batch),
    uniqueIndex("payouts_transfer_unique").on(t.stripeTransferId).where(sql`stripe_transfer_id is not null`),
    index("payouts_batch_idx").on(t.batch, t.status),
    index("payouts_user_idx").on(t.userId, t.createdAt),
    index("payouts_method_status_idx").on(t.method, t.status),
    check("payouts_status_check", inList("status", PAYOUT_STATUSES)),
    check("payouts_method_check", inList("method", PAYOUT_METHODS)),
    check("payouts_amount_check", sql`amount_cents > 0`),
    check("payouts_paid_check", sql`status <> 'paid' or (reference is not null and paid_at is not null)`),
    check("payouts_failed_check", sql`status <> 'failed' or (failed_at is not null and failure_reason is not null)`),
    check("payouts_stripe_check", sql`method <> 'stripe' or stripe_account_id is not null`),
  ],
);

// How each person is paid (issue 29, docs/decisions/0224): through their Stripe Connect Express
// account (its id and the status Stripe last reported), or outside Stripe when an admin says so.
export const payoutAccounts = sqliteTable(
  "payout_accounts",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id),
    method: text("method", { enum: PAYOUT_METHODS }).notNull().default("stripe"),
    stripeAccountId: text("stripe_account_id"),
    // needs_information (onboarding not finished) / enabled (transfers and payouts on) / restricted.
    status: text("status", { enum: PAYOUT_ACCOUNT_STATUSES }),
    statusReason: text("status_reason"),
    // The time (Stripe's) of the account data last stored: an older webhook never overwrites a newer one.
    syncedAt: text("synced_at"),
    manualReason: text("manual_reason"),
    manualSetBy: text("manual_set_by").references(() => users.id, { onDelete: "set null" }),
    // "Account creation in progress" (docs/decisions/0296): the request that set it is the one that
    // asks Stripe for the person's Express account; others wait for it. Cleared when it ends; a claim
    // older than two minutes is taken over (its request died).
    accountClaim: text("account_claim"),
    accountClaimedAt: text("account_claimed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("payout_accounts_stripe_unique").on(t.stripeAccountId).where(sql`stripe_account_id is not null`),
    check("payout_accounts_method_check", inList("method", PAYOUT_METHODS)),
    check("payout_accounts_status_check", sql`status is null or status in ('needs_information', 'enabled', 'restricted')`),
    check("payout_accounts_manual_check", sql`(method = 'manual') = (manual_reason is not null)`),
  ],
);

// Every Stripe webhook event accepted (signature verified), stored once by its id: a replay or
// Stripe's own retry of an event already handled changes nothing. docs/decisions/0225.
export const stripeEvents = sqliteTable(
  "stripe_events",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    // The connected account of a Connect event (account.updated), else null.
    account: text("account"),
    objectId: text("object_id"),
    // Stripe's time of the event (seconds since the epoch).
    created: integer("created").notNull(),
    receivedAt: text("received_at").notNull().default(now),
    // What it did: "payout paid", "payout failed", "account enabled", "ignored"…
    outcome: text("outcome").notNull(),
  },
  (t) => [index("stripe_events_object_idx").on(t.objectId)],
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

// The videos of a statement line (issue 29): an imported line's net revenue and amount per video id
// ('' for rows without one), each rounded once and adding up exactly to the line. They follow their
// entry (deleted with it). docs/decisions/0220.
export const ledgerVideoLines = sqliteTable(
  "ledger_video_lines",
  {
    entryId: text("entry_id")
      .notNull()
      .references(() => ledgerEntries.id, { onDelete: "cascade" }),
    videoId: text("video_id").notNull(),
    netCents: integer("net_cents").notNull(),
    amountCents: integer("amount_cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.entryId, t.videoId] })],
);

// Column mappings of revenue files the app does not know (issue 29), remembered per header: the
// next file with the same header is read the same way. docs/decisions/0221.
export const revenueColumnMappings = sqliteTable("revenue_column_mappings", {
  // SHA-256 (hex) of the normalized header.
  headerHash: text("header_hash").primaryKey(),
  // JSON: the header as written; the mapping (column positions, -1 for none).
  columns: text("columns").notNull(),
  mapping: text("mapping").notNull(),
  updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
  updatedAt: updatedAt(),
});

// ---------------------------------------------------------------------------------------------
// Community chat (issue 17): rooms, messages (the record; the room's Durable Object orders them
// with `seq`), mutes and read markers for unread counts. docs/decisions/0160.
// ---------------------------------------------------------------------------------------------

export const CHAT_ROOM_KINDS = ["general", "announcements"] as const;

export const chatRooms = sqliteTable(
  "chat_rooms",
  {
    id: text("id").primaryKey(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    // 'announcements': only admins post.
    kind: text("kind", { enum: CHAT_ROOM_KINDS }).notNull().default("general"),
    position: integer("position").notNull().default(0),
    // Archived rooms are read-only and listed last.
    archivedAt: text("archived_at"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("chat_rooms_slug_unique").on(t.slug),
    index("chat_rooms_position_idx").on(t.position),
    check("chat_rooms_kind_check", inList("kind", CHAT_ROOM_KINDS)),
  ],
);

export const chatMessages = sqliteTable(
  "chat_messages",
  {
    id: text("id").primaryKey(),
    roomId: text("room_id")
      .notNull()
      .references(() => chatRooms.id, { onDelete: "cascade" }),
    // The room object's order: 1, 2, 3 … per room (gaps allowed), the same for every reader.
    seq: integer("seq").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    // JSON array of the mentioned user ids.
    mentions: text("mentions").notNull().default("[]"),
    createdAt: createdAt(),
    editedAt: text("edited_at"),
    deletedAt: text("deleted_at"),
    deletedBy: text("deleted_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("chat_messages_room_seq_unique").on(t.roomId, t.seq),
    index("chat_messages_created_idx").on(t.createdAt),
    index("chat_messages_user_idx").on(t.userId, t.createdAt),
    check("chat_messages_body_check", sql`length(body) between 1 and 1000`),
  ],
);

export const chatMutes = sqliteTable(
  "chat_mutes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // The room the mute applies to; null: every room (decision 0246).
    roomId: text("room_id").references(() => chatRooms.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    mutedUntil: text("muted_until").notNull(),
    mutedBy: text("muted_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    // Set by 'Unmute'; a mute counts while ended_at is null and muted_until is in the future.
    endedAt: text("ended_at"),
    endedBy: text("ended_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    // One open mute per user and room (every room counts as one: ''): muting again is refused (unmute first).
    uniqueIndex("chat_mutes_open_room_unique").on(t.userId, sql`coalesce(${t.roomId}, '')`).where(sql`ended_at is null`),
    index("chat_mutes_until_idx").on(t.mutedUntil),
  ],
);

export const chatReads = sqliteTable(
  "chat_reads",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    roomId: text("room_id")
      .notNull()
      .references(() => chatRooms.id, { onDelete: "cascade" }),
    lastReadSeq: integer("last_read_seq").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roomId] })],
);

// ---------------------------------------------------------------------------------------------
// Thumbnails (issue 19): the admins' thumbnail editor — projects (layers JSON, images in MEDIA),
// their images, and exports (PNG/JPEG in MEDIA, signed downloads; optionally sent to a creator).
// ---------------------------------------------------------------------------------------------

export const THUMBNAIL_FORMATS = ["landscape", "portrait"] as const;
export const THUMBNAIL_EXPORT_TYPES = ["image/png", "image/jpeg"] as const;

export const thumbnailProjects = sqliteTable(
  "thumbnail_projects",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    // 'landscape' 1280×720 (16:9) or 'portrait' 1080×1920 (9:16).
    format: text("format").notNull(),
    // The editor's document (layers, adjustments) as JSON; images are referenced by asset id.
    document: text("document").notNull(),
    // Optimistic concurrency: a save names the version it started from (guarded update).
    version: integer("version").notNull().default(1),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("thumbnail_projects_updated_idx").on(t.updatedAt),
    check("thumbnail_projects_format_check", inList("format", THUMBNAIL_FORMATS)),
    check("thumbnail_projects_name_check", sql`length(name) between 1 and 120`),
  ],
);

export const thumbnailAssets = sqliteTable(
  "thumbnail_assets",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => thumbnailProjects.id, { onDelete: "cascade" }),
    // Private MEDIA key made by the server (thumbnails/assets/<uuid>.<ext>).
    storageKey: text("storage_key").notNull(),
    contentType: text("content_type").notNull(),
    bytes: integer("bytes").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("thumbnail_assets_project_idx").on(t.projectId), uniqueIndex("thumbnail_assets_key_unique").on(t.storageKey)],
);

export const thumbnailExports = sqliteTable(
  "thumbnail_exports",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").references(() => thumbnailProjects.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    storageKey: text("storage_key").notNull(),
    contentType: text("content_type").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    bytes: integer("bytes").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    // 'Send to creator': the recipient and when (one send per export; a second is refused).
    sentTo: text("sent_to").references(() => users.id, { onDelete: "set null" }),
    sentAt: text("sent_at"),
  },
  (t) => [
    index("thumbnail_exports_created_idx").on(t.createdAt),
    uniqueIndex("thumbnail_exports_key_unique").on(t.storageKey),
    check("thumbnail_exports_type_check", inList("content_type", THUMBNAIL_EXPORT_TYPES)),
  ],
);

// ---------------------------------------------------------------------------------------------
// Payments, phase 2 (issue 14): the Creator Agreement's state per person (notice, termination for
// cause, a hold on payouts) and the admin's revised-share offers. docs/decisions/0127-0130.
// ---------------------------------------------------------------------------------------------

export const AGREEMENT_STATUSES = ["active", "notice", "terminated"] as const;
export const SHARE_OFFER_STATUSES = ["offered", "accepted", "declined", "withdrawn"] as const;

export const paymentAgreements = sqliteTable(
  "payment_agreements",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    // active; notice (the creator gave notice: ends_on is the end of the term it takes effect at);
    // terminated (for cause by an admin, with immediate effect: ends_on is that day).
    status: text("status", { enum: AGREEMENT_STATUSES }).notNull().default("active"),
    // YYYY-MM-DD: the start of the current run of 12-month terms when an accepted revised share
    // started a new one; null → the first channel link (profiles.term_started_at).
    termStart: text("term_start"),
    noticeGivenAt: text("notice_given_at"),
    // YYYY-MM-DD (UTC): the last day the account earns.
    endsOn: text("ends_on"),
    terminatedAt: text("terminated_at"),
    terminatedBy: text("terminated_by").references(() => users.id, { onDelete: "set null" }),
    terminationReason: text("termination_reason"),
    // An admin's hold: the payout-day job leaves the person's balance where it is.
    heldAt: text("held_at"),
    heldBy: text("held_by").references(() => users.id, { onDelete: "set null" }),
    holdReason: text("hold_reason"),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("payment_agreements_status_idx").on(t.status, t.endsOn),
    check("payment_agreements_status_check", inList("status", AGREEMENT_STATUSES)),
    check("payment_agreements_ends_check", sql`(status = 'active') = (ends_on is null)`),
    check("payment_agreements_reason_check", sql`status <> 'terminated' or termination_reason is not null`),
    check("payment_agreements_hold_check", sql`(held_at is null) = (hold_reason is null)`),
  ],
);

export const shareOffers = sqliteTable(
  "share_offers",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    shareBp: integer("share_bp").notNull(),
    note: text("note"),
    status: text("status", { enum: SHARE_OFFER_STATUSES }).notNull().default("offered"),
    offeredBy: text("offered_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    respondedAt: text("responded_at"),
    // Set on acceptance: the first month (YYYY-MM) the share applies to, and the new term's start (YYYY-MM-DD).
    effectiveMonth: text("effective_month"),
    termStart: text("term_start"),
  },
  (t) => [
    // One open offer per person.
    uniqueIndex("share_offers_open_unique").on(t.userId).where(sql`status = 'offered'`),
    index("share_offers_user_idx").on(t.userId, t.status, t.effectiveMonth),
    check("share_offers_status_check", inList("status", SHARE_OFFER_STATUSES)),
    check("share_offers_share_check", sql`share_bp between 1 and 10000`),
    check("share_offers_accepted_check", sql`status <> 'accepted' or (effective_month is not null and term_start is not null)`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Campaigns (issue 15): paid promotions. A campaign is 'draft' until an admin launches it
// ('launched'); live and ended follow from starts_at/ends_at (or ended_at, an early end) when read;
// 'settled' once an admin writes its approved amounts to the ledger. spent_cents is the sum of the
// approved submissions' amounts, kept in the same batch as every review (CHECK: never over budget).
// docs/decisions/0140.
// ---------------------------------------------------------------------------------------------

export const CAMPAIGN_STATUSES = ["draft", "launched", "settled"] as const;
export const CAMPAIGN_PLATFORMS = ["youtube", "tiktok", "instagram"] as const;
export const CAMPAIGN_SUBMISSION_STATUSES = ["pending", "approved", "rejected"] as const;
/** What freed the budget that raised a capped submission: another one rejected, its views lowered, or a larger budget. */
export const CAMPAIGN_RAISE_CAUSES = ["rejected", "views", "budget"] as const;

export const campaigns = sqliteTable(
  "campaigns",
  {
    id: text("id").primaryKey(),
    slug: text("slug").notNull(),
    brand: text("brand").notNull(),
    title: text("title").notNull(),
    brief: text("brief").notNull(),
    // Per 1,000 verified views, for submissions made from now on (each submission keeps its own rate).
    rateCents: integer("rate_cents").notNull(),
    budgetCents: integer("budget_cents").notNull(),
    spentCents: integer("spent_cents").notNull().default(0),
    // ISO instants (UTC): live from starts_at (inclusive) to ends_at (exclusive).
    startsAt: text("starts_at").notNull(),
    endsAt: text("ends_at").notNull(),
    requiredTrackId: text("required_track_id").references(() => musicTracks.id, { onDelete: "set null" }),
    minSubscribers: integer("min_subscribers").notNull().default(0),
    status: text("status", { enum: CAMPAIGN_STATUSES }).notNull().default("draft"),
    launchedAt: text("launched_at"),
    // An admin's early end (otherwise ends_at decides).
    endedAt: text("ended_at"),
    // When the participants were told it ended (the daily job or the early end), so they are told once.
    endNotifiedAt: text("end_notified_at"),
    settledAt: text("settled_at"),
    settledBy: text("settled_by").references(() => users.id, { onDelete: "set null" }),
    fundsReceivedAt: text("funds_received_at"),
    fundsReceivedBy: text("funds_received_by").references(() => users.id, { onDelete: "set null" }),
    // YYYY-MM-DD: the first payout date after settled + funds received.
    payableOn: text("payable_on"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("campaigns_slug_unique").on(t.slug),
    index("campaigns_status_ends_idx").on(t.status, t.endsAt),
    check("campaigns_status_check", inList("status", CAMPAIGN_STATUSES)),
    check("campaigns_rate_check", sql`rate_cents > 0`),
    check("campaigns_budget_check", sql`budget_cents > 0 and spent_cents between 0 and budget_cents`),
    check("campaigns_dates_check", sql`ends_at > starts_at`),
    check("campaigns_min_subscribers_check", sql`min_subscribers >= 0`),
    check("campaigns_settled_check", sql`status <> 'settled' or settled_at is not null`),
  ],
);

// A creator's opt-in: the campaign terms (payout up to 60 days after the end) accepted once.
export const campaignParticipants = sqliteTable(
  "campaign_participants",
  {
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    termsAcceptedAt: text("terms_accepted_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.userId] }), index("campaign_participants_user_idx").on(t.userId, t.createdAt)],
);

export const campaignSubmissions = sqliteTable(
  "campaign_submissions",
  {
    id: text("id").primaryKey(),
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    platform: text("platform", { enum: CAMPAIGN_PLATFORMS }).notNull(),
    // platform + ':' + the platform's video id: one submission per video, whichever campaign.
    videoKey: text("video_key").notNull(),
    // The YouTube channel the provider named for the video (null for other platforms).
    channelId: text("channel_id"),
    // Why the admin must check ownership by hand (decision 0301), e.g. "Needs review: Instagram not
    // linked"; null when the platform confirmed the video is the creator's.
    ownershipReview: text("ownership_review"),
    // The campaign's rate when the submission was made: a later rate change does not touch it.
    rateCents: integer("rate_cents").notNull(),
    status: text("status", { enum: CAMPAIGN_SUBMISSION_STATUSES }).notNull().default("pending"),
    views: integer("views").notNull().default(0),
    // The estimated payout: views / 1,000 × rate, capped by the budget left when it was set.
    amountCents: integer("amount_cents").notNull().default(0),
    reason: text("reason"),
    reviewedBy: text("reviewed_by").references(() => users.id, { onDelete: "set null" }),
    reviewedAt: text("reviewed_at"),
    // The last time freed budget raised this capped submission (decision 0143), from what amount
    // and why, so the creator is told (decision 0245). Cleared when the submission is reviewed again.
    raisedAt: text("raised_at"),
    raisedFromCents: integer("raised_from_cents"),
    raiseCause: text("raise_cause", { enum: CAMPAIGN_RAISE_CAUSES }),
    // The views provider (decision 0266): the last views it read and when; an admin's views
    // override pins the views (when), and the daily job then leaves them.
    providerViews: integer("provider_views"),
    viewsCheckedAt: text("views_checked_at"),
    viewsPinnedAt: text("views_pinned_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("campaign_submissions_video_unique").on(t.videoKey),
    index("campaign_submissions_campaign_idx").on(t.campaignId, t.status, t.createdAt),
    index("campaign_submissions_user_idx").on(t.userId, t.createdAt),
    check("campaign_submissions_status_check", inList("status", CAMPAIGN_SUBMISSION_STATUSES)),
    check("campaign_submissions_platform_check", inList("platform", CAMPAIGN_PLATFORMS)),
    check("campaign_submissions_amounts_check", sql`views >= 0 and amount_cents >= 0 and rate_cents > 0`),
    check("campaign_submissions_approved_check", sql`status = 'approved' or amount_cents = 0`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Growth (issue 18): activity per user per day (written with the session's sliding-expiry write),
// the weekly aggregates the scheduled job precomputes for /user-retention, and the record of
// 'notify' nudges to inactive users (once per user per ISO week). docs/decisions/0170.
// ---------------------------------------------------------------------------------------------

// A user was active on a UTC day (signed in or used the product). At most one row per user and day.
export const userActivityDays = sqliteTable(
  "user_activity_days",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // YYYY-MM-DD (UTC)
    day: text("day").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] }), index("user_activity_days_day_idx").on(t.day, t.userId)],
);

// Weekly active users of an ISO week (UTC): the cohort cells summed by week, written with every snapshot (0250).
export const retentionWeeks = sqliteTable(
  "retention_weeks",
  {
    // ISO week's Monday, YYYY-MM-DD (UTC)
    week: text("week").primaryKey(),
    activeUsers: integer("active_users").notNull(),
    computedAt: createdAt(),
  },
  () => [check("retention_weeks_week_check", sql`week glob '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'`)],
);

// Cohort cells: of the people who signed up in `cohort` (by source), how many were active (or signed
// up) in the week `weeks_since` weeks later. Recomputed for a year by every snapshot (docs/decisions/0250).
export const retentionCohortCells = sqliteTable(
  "retention_cohort_cells",
  {
    cohort: text("cohort").notNull(),
    source: text("source", { enum: ["direct", "referral", "agency"] }).notNull(),
    weeksSince: integer("weeks_since").notNull(),
    active: integer("active").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.cohort, t.source, t.weeksSince] }),
    check("retention_cohort_cells_source_check", sql`source in ('direct', 'referral', 'agency')`),
    check("retention_cohort_cells_weeks_check", sql`weeks_since >= 0`),
  ],
);

// An inactive user nudged by an admin ('notify': bell and e-mail). One per user per ISO week.
export const retentionNotices = sqliteTable(
  "retention_notices",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // ISO week's Monday, YYYY-MM-DD (UTC), of the sending
    week: text("week").notNull(),
    inactiveDays: integer("inactive_days").notNull(),
    sentBy: text("sent_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("retention_notices_user_week_unique").on(t.userId, t.week), index("retention_notices_week_idx").on(t.week)],
);

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
