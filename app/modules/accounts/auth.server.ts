import { and, eq, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { oneTimeTokens, profiles, users } from "~/db/schema";
import { columnsOf } from "~/db/columns";
import { DomainError, invalid } from "~/lib/errors";
import { sanitizeStrict } from "~/lib/sanitize";
import { fact, statementsFor, tell, type NewAccount } from "~/platform/account-hooks.server";
import { audit, auditQuery } from "~/platform/audit.server";
import { sha256Hex } from "~/platform/crypto.server";
import { db } from "~/platform/db.server";
import { appLink, emailQuery } from "~/platform/email.server";
import { appName } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { LIMITS, consume, ipScope, logRateLimitHit, monitorSuspicious, peek, release } from "~/platform/rate-limit.server";
import { burnPasswordCheck, hashPassword, verifyPassword } from "./password.server";
import { emailForSignIn } from "./phone.server";
import { bannedMessage, type SignUpInput } from "./schema";
import { afterSessionsEnded, createSession, endSessionsStatements } from "./session.server";

import { limited, oneTimeToken, RESET_TTL_MS, type TokenPurpose, userIdByEmail, VERIFY_TTL_MS, verificationEmail } from "./account-tokens.server";
import { createPendingAccount } from "./pending-accounts.server";

// The account rules: sign-up, sign-in, e-mail verification, password reset and change.
// Answers never reveal whether an e-mail has an account. Refusals are DomainErrors carrying the
// spec's toast (section 8); the route turns them into the answer.

/** The referrer named by a public creator code (case-insensitive), as a query for a batch. */
export function referrerQuery(code: string) {
  return db().select({ userId: profiles.userId }).from(profiles).where(eq(profiles.creatorId, code.toUpperCase())).limit(1);
}

// ---------------------------------------------------------------------------------------------
// Sign-up
// ---------------------------------------------------------------------------------------------

const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The referral code goes through the strict sanitizer; a code of the wrong shape is dropped and
 * logged (INVALID_INPUT_REJECTED), the sign-up itself goes on.
 */
async function screenReferralCode(request: Request, raw: string): Promise<string> {
  if (!raw) return "";
  const checked = sanitizeStrict(raw, [REFERRAL_CODE_PATTERN]);
  if (!checked.ok) {
    await audit({ eventType: "INVALID_INPUT_REJECTED", severity: "medium", request, details: { field: "referral_code" } });
    return "";
  }
  return checked.value
    .trim()
    .slice(0, 64)
    .replace(/[^A-Za-z0-9_-]/g, "");
}

export const SIGN_UP_FAILED = "Sign up failed";

/**
 * The spec's sign-up failures (section 8): a refusal is 'Sign up failed' with the server's message
 * (unless it names its own title, e.g. 'Too many attempts'); anything unexpected is 'An error
 * occurred' / 'Please try again later.'. An e-mail that already has an account is no failure: it
 * answers like a new one (see createPendingAccount).
 */
async function signUpFailsQuietly<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) {
      if (error.title) throw error;
      throw new DomainError(error.code, error.message, {
        title: SIGN_UP_FAILED,
        fieldErrors: error.fieldErrors,
        retryAfterSeconds: error.retryAfterSeconds,
        details: error.details,
      });
    }
    console.error(`${what} failed`, error);
    throw new DomainError("unavailable", "Please try again later.", { title: "An error occurred" });
  }
}

/** A creator signs up (the sign-up form, also through an agency's link or a referral). */
export async function signUp(request: Request, input: SignUpInput): Promise<void> {
  await signUpFailsQuietly("sign-up", async () => {
    const referralCode = await screenReferralCode(request, input.referralCode);
    // Referral: the referrer's public code. Agency: only an approved, active agency counts; a
    // signup token (not revoked) attributes the creator to its agency; the agencies module answers
    // which (a fact it owns), at the same time as the referrer.
    const [referrer, agency] = await Promise.all([referrerQuery(referralCode), fact("agencyForSignUp")(input.agencySlug, input.agencyToken)]);
    const referrerId = referrer[0]?.userId ?? null;
    // A clipper joins through a creator's invitation, never a referral code (docs/decisions/0205):
    // with both clipper boxes ticked the invitation is used for the new account in its batch, and
    // the person then waits for the creator's approval.
    const joinsAsClipper = input.wantsToBeClipper && input.acceptClipperAgreement && input.clipperInvitation !== "";
    const newAccount = (userId: string): NewAccount => ({
      userId,
      email: input.email,
      request,
      clipperInvitation: joinsAsClipper ? input.clipperInvitation : null,
      referred: referrerId !== null,
    });

    const { userId } = await createPendingAccount(request, {
      email: input.email,
      password: input.password,
      fullName: input.fullName,
      // The sign-up metadata of spec section 3, as sent.
      metadata: {
        referral_code: referralCode || null,
        agency_slug: input.agencySlug || null,
        agency_name: input.agencyName || null,
        youtube_channel_url: input.channelUrl,
        subscriber_count: input.subscribers,
        monthly_views: input.monthlyViews,
        wants_to_be_clipper: input.wantsToBeClipper,
        clipper_agreement_accepted: input.acceptClipperAgreement,
      },
      agencyId: agency?.agencyId ?? null,
      referredBy: referrerId,
      agencySignupTokenId: agency?.tokenId ?? null,
      extraQueries: (userId) => statementsFor("signUpStatements", newAccount(userId)),
      auditDetails: { referral: Boolean(referrerId), clipper: input.wantsToBeClipper, clipper_invitation: joinsAsClipper },
      returnTo: input.redirectTo,
    });
    if (userId) await tell("signedUp", newAccount(userId));
  });
}

/** What a music partner's sign-up form gives (the agencies module's schema parses it). */
export type MusicPartnerAccount = { email: string; password: string; fullName: string; artistName: string; catalogueUrl: string };

/** A music partner signs up (pending, flagged, with artist name and catalogue), optionally through an agency. */
export async function signUpMusicPartner(
  request: Request,
  input: MusicPartnerAccount,
  agency: { id: string; slug: string; name: string } | null,
): Promise<void> {
  await signUpFailsQuietly("music partner sign-up", () =>
    createPendingAccount(request, {
      email: input.email,
      password: input.password,
      fullName: input.fullName,
      isMusicPartner: true,
      artistName: input.artistName,
      catalogueUrl: input.catalogueUrl,
      agencyId: agency?.id ?? null,
      metadata: {
        agency_slug: agency?.slug ?? null,
        agency_name: agency?.name ?? null,
        music_partner: true,
        artist_name: input.artistName,
        catalogue_url: input.catalogueUrl,
        music_partner_terms_accepted: true,
      },
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Sign-in
// ---------------------------------------------------------------------------------------------

const INVALID = "Invalid login credentials";
const LOGIN_FAILED = "Login failed";

export async function signIn(request: Request, identifier: string, password: string): Promise<{ setCookie: string; userId: string; firstSignIn: boolean }> {
  // An e-mail, or a verified phone number standing for its account's e-mail (same limit, same answer).
  const email = await emailForSignIn(identifier);
  const accountScope = `acct:${sha256Hex(email)}`;
  // Every attempt is counted before the password is checked, so parallel attempts cannot all
  // pass the limit; an attempt with the right password is given back.
  const [account, ipState] = await Promise.all([
    consume("signin", accountScope, LIMITS.generic),
    peek("suspicious:signin", ipScope(request), LIMITS.suspicious),
  ]);
  if (!account.allowed) {
    await logRateLimitHit(request, "signin");
    throw limited(LIMITS.generic, account.retryAfterSeconds);
  }
  if (!ipState.allowed) {
    await Promise.all([release("signin", accountScope, LIMITS.generic), logRateLimitHit(request, "suspicious:signin")]);
    throw limited(LIMITS.suspicious, ipState.retryAfterSeconds);
  }

  const user = await db()
    .select({ ...columnsOf(users, "id", "passwordHash", "emailVerifiedAt"), ...columnsOf(profiles, "isBanned", "banReason", "lastSignInAt") })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.email, email))
    .get();

  let valid = false;
  let rehash = false;
  if (user?.passwordHash) {
    const result = await verifyPassword(user.passwordHash, password);
    valid = result.valid;
    rehash = result.needsRehash;
  } else {
    await burnPasswordCheck(password);
  }

  if (!user || !valid) {
    await Promise.all([
      monitorSuspicious(request, "signin", user?.id),
      audit({
        eventType: "sign_in_failure",
        severity: "medium",
        targetUserId: user?.id ?? null,
        request,
        details: { reason: user ? "wrong_password" : "unknown_account" },
      }),
    ]);
    throw invalid(INVALID, { title: LOGIN_FAILED });
  }
  await release("signin", accountScope, LIMITS.generic);

  if (user.isBanned) {
    await audit({ eventType: "sign_in_banned", severity: "medium", userId: user.id, request });
    throw new DomainError("forbidden", bannedMessage(user.banReason), { title: LOGIN_FAILED });
  }

  if (!user.emailVerifiedAt) {
    await resendVerification(user.id, email);
    throw new DomainError("forbidden", "Email not confirmed. We have e-mailed you a confirmation link: open it, then sign in.", { title: LOGIN_FAILED });
  }

  if (rehash) {
    await db()
      .update(users)
      .set({ passwordHash: await hashPassword(password), updatedAt: new Date().toISOString() })
      .where(eq(users.id, user.id))
      .run();
  }
  const setCookie = await createSession(request, user.id);
  await audit({ eventType: "sign_in_success", severity: "low", userId: user.id, request, details: { method: "password" } });
  // No earlier sign-in recorded: the account's first (the welcome says so).
  return { setCookie, userId: user.id, firstSignIn: !user.lastSignInAt };
}

/**
 * A new confirmation link for an unverified account that signs in. At most one verification e-mail
 * per address within its window (app/platform/email.server.ts writes no second one), so repeated
 * sign-in attempts cannot flood the inbox; the earlier link stays valid for 24 hours.
 */
async function resendVerification(userId: string, email: string) {
  const limit = await consume("verify-resend", `acct:${userId}`, LIMITS.generic);
  if (!limit.allowed) return;
  const { token, query } = oneTimeToken(userId, "email_verification", VERIFY_TTL_MS);
  await db().batch([query, verificationEmail(email, token)]);
}

// ---------------------------------------------------------------------------------------------
// One-time links: e-mail verification and password reset
// ---------------------------------------------------------------------------------------------

async function findToken(token: string, purpose: TokenPurpose) {
  if (!token || token.length > 200) return null;
  const row = await db()
    .select({ userId: oneTimeTokens.userId, expiresAt: oneTimeTokens.expiresAt, usedAt: oneTimeTokens.usedAt })
    .from(oneTimeTokens)
    .where(and(eq(oneTimeTokens.tokenHash, sha256Hex(token)), eq(oneTimeTokens.purpose, purpose)))
    .get();
  if (!row || row.usedAt || Date.parse(row.expiresAt) <= Date.now()) return null;
  return row;
}

/** Uses the token up, once: the guard the rest of its batch depends on (a second use changes nothing). */
function consumeTokenQueries(token: string, now: string) {
  return [
    db()
      .update(oneTimeTokens)
      .set({ usedAt: now })
      .where(and(eq(oneTimeTokens.tokenHash, sha256Hex(token)), isNull(oneTimeTokens.usedAt))),
    precondition(previousStatementChanged(1)),
  ] as const;
}

export async function checkToken(token: string, purpose: TokenPurpose): Promise<boolean> {
  return (await findToken(token, purpose)) !== null;
}

/**
 * Spends a one-time link of `purpose`: the token is used up and `writes` run in one batch, only if
 * this request is the one that used it. An unknown, expired or meanwhile used token is `refused`.
 * Returns the token's user.
 */
async function spendToken(
  token: string,
  purpose: TokenPurpose,
  refused: DomainError,
  writes: (userId: string, now: string) => Promise<BatchItem<"sqlite">[]>,
): Promise<string> {
  const row = await findToken(token, purpose);
  if (!row) throw refused;
  const now = new Date().toISOString();
  const rest = await writes(row.userId, now);
  try {
    await db().batch([...consumeTokenQueries(token, now), ...rest]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw refused;
    throw error;
  }
  return row.userId;
}

/** The e-mail counts as verified from `now` (a link that reached the inbox proves it), unless it already was. */
const verifiedSince = (now: string) => sql`coalesce(${users.emailVerifiedAt}, ${now})`;

export async function verifyEmail(request: Request, token: string): Promise<void> {
  const refused = invalid("This link is invalid or has expired. Sign in to get a new one.", { title: "Verification failed" });
  await spendToken(token, "email_verification", refused, async (userId, now) => [
    db()
      .update(users)
      .set({ emailVerifiedAt: verifiedSince(now), updatedAt: now })
      .where(eq(users.id, userId)),
    auditQuery({ eventType: "email_verified", userId, targetUserId: userId, request }),
  ]);
}

export async function requestPasswordReset(request: Request, email: string): Promise<void> {
  // Strict limits on every endpoint that sends e-mail: per address and per account.
  const [ip, account] = await Promise.all([
    consume("reset:ip", ipScope(request), LIMITS.generic),
    consume("reset:acct", `acct:${sha256Hex(email)}`, LIMITS.generic),
  ]);
  if (!ip.allowed || !account.allowed) {
    await logRateLimitHit(request, "password-reset");
    throw limited(LIMITS.generic, Math.max(ip.retryAfterSeconds, account.retryAfterSeconds));
  }
  const user = await userIdByEmail(email);
  if (!user) return;
  const { token, query } = oneTimeToken(user.id, "password_reset", RESET_TTL_MS);
  const link = appLink(`/auth/reset-password?token=${token}`);
  await db().batch([
    query,
    emailQuery({
      to: email,
      kind: "password_reset",
      subject: `Reset your ${appName()} password`,
      action: link,
      text: `Someone asked to reset the password of your ${appName()} account.\n\nChoose a new password here (valid for 1 hour):\n${link}\n\nIf it was not you, ignore this message: your password stays the same.`,
    }),
    auditQuery({ eventType: "password_reset_requested", targetUserId: user.id, request }),
  ]);
}

/**
 * Completes a reset link: the new password, every session and other reset link of the account
 * ended, the e-mail verified (the link reached the inbox), and this browser signed in. The link
 * proves the owner, so it works while the account's sign-in limit is exhausted (someone failing
 * its password on purpose cannot lock the owner out; docs/decisions/0060-lockout.md). A banned
 * account gets its password but no session. Returns the new session's Set-Cookie, or null.
 */
export async function resetPassword(request: Request, token: string, password: string): Promise<{ setCookie: string | null }> {
  const refused = invalid("This link is invalid or has expired. Please ask for a new one.", { title: "Reset failed" });
  const userId = await spendToken(token, "password_reset", refused, async (userId, now) => {
    const hash = await hashPassword(password);
    return [
      // Every other reset link of the account stops working too.
      db()
        .update(oneTimeTokens)
        .set({ usedAt: now })
        .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, "password_reset"), isNull(oneTimeTokens.usedAt))),
      db()
        .update(users)
        .set({ passwordHash: hash, updatedAt: now, emailVerifiedAt: verifiedSince(now) })
        .where(eq(users.id, userId)),
      ...endSessionsStatements({ userId, reason: "password_changed", scope: "all" }),
      auditQuery({ eventType: "password_reset", severity: "medium", userId, targetUserId: userId, request }),
    ];
  });
  await afterSessionsEnded(userId);
  const profile = await db().select({ isBanned: profiles.isBanned }).from(profiles).where(eq(profiles.userId, userId)).get();
  if (!profile || profile.isBanned) return { setCookie: null };
  const setCookie = await createSession(request, userId);
  await audit({ eventType: "sign_in_success", severity: "low", userId, request, details: { method: "password_reset" } });
  return { setCookie };
}
