import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { AGENCY_STATUSES, APPROVAL_STATUSES, ONE_TIME_TOKEN_PURPOSES, SEVERITIES, bool, createdAt, inList, now, updatedAt } from "./shared";

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
    // The admin's user list, newest first (decision 0339): without it every load sorted all users.
    index("users_created_idx").on(t.createdAt),
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

// An agency sits here, beside the profiles that name it: a profile points at its agency and an agency
// at the users who made it, and two tables that point at each other stay in one file (no import circle).
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
