import type { SignUpInput } from "./schema";
import { auditStatement, audit } from "~/platform/audit.server";
import { randomToken, sha256Hex, shortCode } from "~/platform/crypto.server";
import { emailStatement, sendEmail } from "~/platform/email.server";
import { appName, env } from "~/platform/env.server";
import { burnPasswordCheck, hashPassword, verifyPassword } from "./password.server";
import { LIMITS, consume, ipScope, logRateLimitHit, monitorSuspicious, peek, type Limit } from "~/platform/rate-limit.server";
import { createSession, endAllSessions, endSessionsStatement, type SessionUser } from "./session.server";

// The account rules: sign-up, sign-in, e-mail verification, password reset and change.
// Answers never reveal whether an e-mail has an account.

export const VERIFY_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_TTL_MS = 60 * 60 * 1000;

export type Failure = {
  ok: false;
  status: number;
  toast: { title: string; description: string };
  limit?: Limit;
  retryAfterSeconds?: number;
};
type Ok<T> = { ok: true } & T;

const fail = (status: number, title: string, description: string, extra: Partial<Failure> = {}): Failure => ({
  ok: false,
  status,
  toast: { title, description },
  ...extra,
});

const limited = (limit: Limit, retryAfterSeconds: number): Failure =>
  fail(429, "Too many attempts", `Please wait ${Math.round(limit.windowMs / 60_000)} minutes before trying again.`, {
    limit,
    retryAfterSeconds,
  });

function originOf(request: Request): string {
  return new URL(request.url).origin;
}

async function oneTimeTokenStatement(userId: string, purpose: "email_verification" | "password_reset", ttlMs: number) {
  const token = randomToken();
  const statement = env.DB.prepare(
    `INSERT INTO one_time_tokens (token_hash, user_id, purpose, expires_at) VALUES (?, ?, ?, ?)`,
  ).bind(sha256Hex(token), userId, purpose, new Date(Date.now() + ttlMs).toISOString());
  return { token, statement };
}

function verificationEmail(request: Request, to: string, token: string) {
  const link = `${originOf(request)}/auth/verify-email?token=${token}`;
  return emailStatement({
    to,
    kind: "email_verification",
    subject: `Confirm your ${appName()} e-mail address`,
    text: `Welcome to ${appName()}!\n\nConfirm your e-mail address by opening this link (valid for 24 hours):\n${link}\n\nYour account will then be reviewed. You'll receive an email once approved.\n\nIf you did not sign up, ignore this message.`,
  });
}

// ---------------------------------------------------------------------------------------------
// Sign-up
// ---------------------------------------------------------------------------------------------

export async function signUp(request: Request, input: SignUpInput): Promise<Ok<{}> | Failure> {
  // Referral: the referrer's public code. Agency: only an approved, active agency counts; a
  // signup token (not revoked) attributes the creator to its agency.
  const [referrer, agency, agencyToken] = await env.DB.batch<Record<string, string>>([
    env.DB.prepare("SELECT user_id FROM profiles WHERE creator_id = ?").bind(input.referralCode.toUpperCase() || "-"),
    env.DB.prepare("SELECT id, name FROM agencies WHERE slug = ? AND approval_status = 'approved' AND status = 'active'").bind(
      input.agencySlug || "-",
    ),
    env.DB.prepare(
      `SELECT t.id, t.agency_id FROM agency_signup_tokens t JOIN agencies a ON a.id = t.agency_id
       WHERE t.token = ? AND t.revoked_at IS NULL AND a.approval_status = 'approved' AND a.status = 'active'`,
    ).bind(input.agencyToken || "-"),
  ]);
  const referrerId = referrer.results[0]?.user_id ?? null;
  const tokenRow = agencyToken.results[0] ?? null;
  const agencyId = tokenRow?.agency_id ?? agency.results[0]?.id ?? null;
  const joinsAsClipper = input.wantsToBeClipper && input.acceptClipperAgreement && referrerId !== null;

  const result = await createPendingAccount(request, {
    email: input.email,
    password: input.password,
    fullName: input.fullName,
    // The sign-up metadata of spec section 3, as sent.
    metadata: {
      referral_code: input.referralCode || null,
      agency_slug: input.agencySlug || null,
      agency_name: input.agencyName || null,
      youtube_channel_url: input.channelUrl,
      subscriber_count: input.subscribers,
      monthly_views: input.monthlyViews,
      wants_to_be_clipper: input.wantsToBeClipper,
      clipper_agreement_accepted: input.acceptClipperAgreement,
    },
    agencyId,
    referredBy: referrerId,
    agencySignupTokenId: tokenRow?.id ?? null,
    extraStatements: (userId) =>
      joinsAsClipper
        ? [
            env.DB.prepare("INSERT OR IGNORE INTO clipper_links (id, creator_user_id, clipper_user_id) VALUES (?, ?, ?)").bind(
              crypto.randomUUID(),
              referrerId,
              userId,
            ),
          ]
        : [],
    auditDetails: { referral: Boolean(referrerId), clipper: input.wantsToBeClipper },
  });
  return result.ok ? { ok: true } : result;
}

// ---------------------------------------------------------------------------------------------
// Sign-in
// ---------------------------------------------------------------------------------------------

type UserAuthRow = {
  id: string;
  password_hash: string | null;
  email_verified_at: string | null;
  is_banned: number;
  ban_reason: string | null;
};

const INVALID = "Invalid login credentials";

export async function signIn(
  request: Request,
  email: string,
  password: string,
): Promise<Ok<{ setCookie: string; userId: string }> | Failure> {
  const accountScope = `acct:${sha256Hex(email)}`;
  const [accountState, ipState] = await Promise.all([
    peek("signin", accountScope, LIMITS.generic),
    peek("suspicious:signin", ipScope(request), LIMITS.suspicious),
  ]);
  if (!accountState.allowed) {
    await logRateLimitHit(request, "signin");
    return limited(LIMITS.generic, accountState.retryAfterSeconds);
  }
  if (!ipState.allowed) {
    await logRateLimitHit(request, "suspicious:signin");
    return limited(LIMITS.suspicious, ipState.retryAfterSeconds);
  }

  const user = await env.DB.prepare(
    `SELECT u.id, u.password_hash, u.email_verified_at, p.is_banned, p.ban_reason
     FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.email = ?`,
  )
    .bind(email)
    .first<UserAuthRow>();

  let valid = false;
  let rehash = false;
  if (user?.password_hash) {
    const result = await verifyPassword(user.password_hash, password);
    valid = result.valid;
    rehash = result.needsRehash;
  } else {
    await burnPasswordCheck(password);
  }

  if (!user || !valid) {
    await Promise.all([
      consume("signin", accountScope, LIMITS.generic),
      monitorSuspicious(request, "signin", user?.id),
      audit({
        eventType: "sign_in_failure",
        severity: "medium",
        targetUserId: user?.id ?? null,
        request,
        details: { reason: user ? "wrong_password" : "unknown_account" },
      }),
    ]);
    return fail(400, "Login failed", INVALID);
  }

  if (user.is_banned) {
    await audit({ eventType: "sign_in_banned", severity: "medium", userId: user.id, request });
    return fail(403, "Login failed", user.ban_reason ? `Your account has been banned: ${user.ban_reason}` : "Your account has been banned.");
  }

  if (!user.email_verified_at) {
    await resendVerification(request, user.id, email);
    return fail(403, "Login failed", "Email not confirmed. We have sent you a new confirmation link.");
  }

  if (rehash) {
    await env.DB.prepare("UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?")
      .bind(await hashPassword(password), new Date().toISOString(), user.id)
      .run();
  }
  const setCookie = await createSession(request, user.id);
  await audit({ eventType: "sign_in_success", severity: "low", userId: user.id, request, details: { method: "password" } });
  return { ok: true, setCookie, userId: user.id };
}

async function resendVerification(request: Request, userId: string, email: string) {
  const limit = await consume("verify-resend", `acct:${userId}`, LIMITS.generic);
  if (!limit.allowed) return;
  const { token, statement } = await oneTimeTokenStatement(userId, "email_verification", VERIFY_TTL_MS);
  await env.DB.batch([statement, verificationEmail(request, email, token)]);
}

// ---------------------------------------------------------------------------------------------
// One-time links: e-mail verification and password reset
// ---------------------------------------------------------------------------------------------

type TokenRow = { user_id: string; expires_at: string; used_at: string | null };

async function findToken(token: string, purpose: "email_verification" | "password_reset"): Promise<TokenRow | null> {
  if (!token || token.length > 200) return null;
  const row = await env.DB.prepare(
    "SELECT user_id, expires_at, used_at FROM one_time_tokens WHERE token_hash = ? AND purpose = ?",
  )
    .bind(sha256Hex(token), purpose)
    .first<TokenRow>();
  if (!row || row.used_at || Date.parse(row.expires_at) <= Date.now()) return null;
  return row;
}

export async function checkToken(token: string, purpose: "email_verification" | "password_reset"): Promise<boolean> {
  return (await findToken(token, purpose)) !== null;
}

export async function verifyEmail(request: Request, token: string): Promise<Ok<{}> | Failure> {
  const row = await findToken(token, "email_verification");
  if (!row) return fail(400, "Verification failed", "This link is invalid or has expired. Sign in to get a new one.");
  const now = new Date().toISOString();
  await env.DB.batch([
    env.DB.prepare("UPDATE users SET email_verified_at = COALESCE(email_verified_at, ?), updated_at = ? WHERE id = ?").bind(
      now,
      now,
      row.user_id,
    ),
    env.DB.prepare("UPDATE one_time_tokens SET used_at = ? WHERE token_hash = ?").bind(now, sha256Hex(token)),
    auditStatement({ eventType: "email_verified", userId: row.user_id, targetUserId: row.user_id, request }),
  ]);
  return { ok: true };
}

export async function requestPasswordReset(request: Request, email: string): Promise<Ok<{}> | Failure> {
  // Strict limits on every endpoint that sends e-mail: per address and per account.
  const [ip, account] = await Promise.all([
    consume("reset:ip", ipScope(request), LIMITS.generic),
    consume("reset:acct", `acct:${sha256Hex(email)}`, LIMITS.generic),
  ]);
  if (!ip.allowed || !account.allowed) {
    await logRateLimitHit(request, "password-reset");
    return limited(LIMITS.generic, Math.max(ip.retryAfterSeconds, account.retryAfterSeconds));
  }
  const user = await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first<{ id: string }>();
  if (user) {
    const { token, statement } = await oneTimeTokenStatement(user.id, "password_reset", RESET_TTL_MS);
    const link = `${originOf(request)}/auth/reset-password?token=${token}`;
    await env.DB.batch([
      statement,
      emailStatement({
        to: email,
        kind: "password_reset",
        subject: `Reset your ${appName()} password`,
        text: `Someone asked to reset the password of your ${appName()} account.\n\nChoose a new password here (valid for 1 hour):\n${link}\n\nIf it was not you, ignore this message: your password stays the same.`,
      }),
      auditStatement({ eventType: "password_reset_requested", targetUserId: user.id, request }),
    ]);
  }
  return { ok: true };
}

export async function resetPassword(request: Request, token: string, password: string): Promise<Ok<{}> | Failure> {
  const row = await findToken(token, "password_reset");
  if (!row) return fail(400, "Reset failed", "This link is invalid or has expired. Please ask for a new one.");
  const now = new Date().toISOString();
  const hash = await hashPassword(password);
  await env.DB.batch([
    env.DB.prepare("UPDATE users SET password_hash = ?, updated_at = ?, email_verified_at = COALESCE(email_verified_at, ?) WHERE id = ?").bind(
      hash,
      now,
      now,
      row.user_id,
    ),
    env.DB.prepare("UPDATE one_time_tokens SET used_at = ? WHERE user_id = ? AND purpose = 'password_reset' AND used_at IS NULL").bind(
      now,
      row.user_id,
    ),
    endSessionsStatement(row.user_id),
    auditStatement({ eventType: "password_reset", severity: "medium", userId: row.user_id, targetUserId: row.user_id, request }),
  ]);
  await endAllSessions(row.user_id);
  return { ok: true };
}

export async function changePassword(
  request: Request,
  user: SessionUser,
  currentPassword: string,
  newPassword: string,
): Promise<Ok<{ setCookie: string }> | Failure> {
  const scope = `user:${user.id}`;
  const state = await peek("change-password", scope, LIMITS.generic);
  if (!state.allowed) return limited(LIMITS.generic, state.retryAfterSeconds);
  const row = await env.DB.prepare("SELECT password_hash FROM users WHERE id = ?").bind(user.id).first<{ password_hash: string | null }>();
  let check: { valid: boolean };
  try {
    check = row?.password_hash ? await verifyPassword(row.password_hash, currentPassword) : { valid: false };
  } catch (error) {
    console.error("password verification failed", error);
    return fail(500, "Verification failed", "Unable to verify password. Please try again.");
  }
  if (!check.valid) {
    await Promise.all([
      consume("change-password", scope, LIMITS.generic),
      audit({ eventType: "password_change_failure", severity: "medium", userId: user.id, request }),
    ]);
    return fail(400, "Incorrect password", "The current password you entered is incorrect.");
  }
  const now = new Date().toISOString();
  await env.DB.batch([
    env.DB.prepare("UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?").bind(await hashPassword(newPassword), now, user.id),
    endSessionsStatement(user.id),
    auditStatement({ eventType: "password_change", severity: "medium", userId: user.id, targetUserId: user.id, request }),
  ]);
  await endAllSessions(user.id);
  // Every session ended, this one included; this browser gets a fresh one.
  const setCookie = await createSession(request, user.id);
  return { ok: true, setCookie };
}

// ---------------------------------------------------------------------------------------------
// Pending accounts: every sign-up screen (creator, agency application, music partner)
// ---------------------------------------------------------------------------------------------

export type PendingAccountInput = {
  email: string;
  password: string;
  fullName: string;
  /** Kept as users.user_metadata (the sign-up metadata of spec section 3 plus extras). */
  metadata: Record<string, unknown>;
  isMusicPartner?: boolean;
  artistName?: string | null;
  catalogueUrl?: string | null;
  agencyId?: string | null;
  referredBy?: string | null;
  agencySignupTokenId?: string | null;
  /** Written in the same batch as the account (e.g. the agency application), given its id. */
  extraStatements?: (userId: string) => D1PreparedStatement[];
  auditDetails?: Record<string, unknown>;
};

/**
 * A pending account made under the same rules as signUp: the sign-up limit per address, the
 * same answer whether or not the e-mail already has an account (its owner is told by e-mail and
 * nothing else is written), and the verification e-mail. Returns the new user's id, or null
 * when the e-mail already had an account. Errors other than a duplicate e-mail are thrown.
 */
export async function createPendingAccount(
  request: Request,
  input: PendingAccountInput,
): Promise<Ok<{ userId: string | null }> | Failure> {
  const ipLimit = await consume("signup", ipScope(request), LIMITS.signup);
  if (!ipLimit.allowed) {
    await logRateLimitHit(request, "signup");
    return limited(LIMITS.signup, ipLimit.retryAfterSeconds);
  }

  const existing = await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(input.email).first<{ id: string }>();
  if (existing) {
    await env.DB.batch([
      emailStatement({
        to: input.email,
        kind: "signup_existing",
        subject: `Someone tried to sign up to ${appName()} with your e-mail`,
        text: `Someone (maybe you) tried to create a ${appName()} account with this e-mail address, which already has one.\n\nIf it was you, sign in at ${originOf(request)}/auth and continue from there, or reset your password at ${originOf(request)}/auth/forgot-password.`,
      }),
      auditStatement({ eventType: "sign_up_existing_email", severity: "low", request, targetUserId: existing.id }),
    ]);
    return { ok: true, userId: null };
  }

  const userId = crypto.randomUUID();
  const passwordHash = await hashPassword(input.password);
  const { token, statement: tokenStatement } = await oneTimeTokenStatement(userId, "email_verification", VERIFY_TTL_MS);
  const statements: D1PreparedStatement[] = [
    env.DB.prepare("INSERT INTO users (id, email, password_hash, user_metadata) VALUES (?, ?, ?, ?)").bind(
      userId,
      input.email,
      passwordHash,
      JSON.stringify({ full_name: input.fullName, ...input.metadata }),
    ),
    env.DB.prepare(
      `INSERT INTO profiles (user_id, creator_id, full_name, approval_status, is_music_partner, artist_name, catalogue_url, agency_id, referred_by, agency_signup_token_id)
       VALUES (?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?)`,
    ).bind(
      userId,
      shortCode(),
      input.fullName,
      input.isMusicPartner ? 1 : 0,
      input.artistName ?? null,
      input.catalogueUrl ?? null,
      input.agencyId ?? null,
      input.referredBy ?? null,
      input.agencySignupTokenId ?? null,
    ),
    tokenStatement,
    verificationEmail(request, input.email, token),
    auditStatement({
      eventType: "sign_up",
      severity: "low",
      userId,
      targetUserId: userId,
      request,
      details: { agency_id: input.agencyId ?? null, music_partner: Boolean(input.isMusicPartner), ...input.auditDetails },
    }),
    ...(input.extraStatements?.(userId) ?? []),
  ];
  try {
    await env.DB.batch(statements);
  } catch (error) {
    // A race on the same e-mail: nothing was written (one batch); same answer as above.
    if (/UNIQUE.*users\.email/.test(String(error))) return { ok: true, userId: null };
    throw error;
  }
  return { ok: true, userId };
}
