import { and, eq, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { oneTimeTokens, profiles, sessions, users } from "~/db/schema";
import { columnsOf } from "~/db/columns";
import { DomainError, conflict, invalid, rateLimited } from "~/lib/errors";
import { authorize, safeRedirect } from "~/lib/permissions";
import { oneLine, sanitizeStrict } from "~/lib/sanitize";
import { fact, statementsFor, tell, type NewAccount } from "~/platform/account-hooks.server";
import { audit, auditQuery } from "~/platform/audit.server";
import { randomToken, sha256Hex, shortCode } from "~/platform/crypto.server";
import { db } from "~/platform/db.server";
import { appLink, emailQuery } from "~/platform/email.server";
import { appName } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { LIMITS, consume, ipScope, logRateLimitHit, monitorSuspicious, peek, release, tooManyAttempts, type Limit } from "~/platform/rate-limit.server";
import { FRESH_SIGN_IN_MS } from "./deletion.server";
import { actorOf } from "./directory.server";
import { burnPasswordCheck, hashPassword, verifyPassword } from "./password.server";
import { emailForSignIn } from "./phone.server";
import { bannedMessage, type SignUpInput } from "./schema";
import { afterSessionsEnded, createSession, endSessions, endSessionsStatements, type SessionUser } from "./session.server";

// The account rules: sign-up, sign-in, e-mail verification, password reset and change.
// Answers never reveal whether an e-mail has an account. Refusals are DomainErrors carrying the
// spec's toast (section 8); the route turns them into the answer.

export const VERIFY_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_TTL_MS = 60 * 60 * 1000;

/** 'Too many attempts' / 'Please wait {n} minutes before trying again.', 429 with Retry-After. */
function limited(limit: Limit, retryAfterSeconds: number): DomainError {
  const { title, description } = tooManyAttempts(limit);
  return rateLimited(retryAfterSeconds, description, title);
}

type TokenPurpose = (typeof oneTimeTokens.$inferSelect)["purpose"];

/** A new one-time token and its insert (not executed); D1 keeps only the token's hash. */
function oneTimeToken(userId: string, purpose: TokenPurpose, ttlMs: number) {
  const token = randomToken();
  const query = db()
    .insert(oneTimeTokens)
    .values({ tokenHash: sha256Hex(token), userId, purpose, expiresAt: new Date(Date.now() + ttlMs).toISOString() });
  return { token, query };
}

/**
 * The confirmation e-mail. `returnTo`: the same-origin page the person was on when they signed up
 * (a campaign's public page), carried through the link so that confirming leads back to it.
 */
function verificationEmail(to: string, token: string, returnTo = "") {
  const back = safeRedirect(returnTo, "");
  const link = appLink(`/auth/verify-email?token=${token}${back ? `&redirectTo=${encodeURIComponent(back)}` : ""}`);
  return emailQuery({
    to,
    kind: "email_verification",
    subject: `Confirm your ${appName()} e-mail address`,
    action: link,
    text: `Welcome to ${appName()}!\n\nConfirm your e-mail address by opening this link (valid for 24 hours):\n${link}\n\nYour account will then be reviewed. You'll receive an email once approved.\n\nIf you did not sign up, ignore this message.`,
  });
}

const userIdByEmail = (email: string) => db().select({ id: users.id }).from(users).where(eq(users.email, email)).get();

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

/** The spec's password-check failure (section 8): 'Verification failed', also 'User not authenticated'. */
const VERIFICATION_FAILED = "Verification failed";
const USER_NOT_AUTHENTICATED = "User not authenticated";

/**
 * The signed-in user changes their password: every session ends, this one included, and this
 * browser gets a fresh one (its Set-Cookie is returned).
 */
export async function changePassword(
  request: Request,
  user: SessionUser,
  input: { currentPassword: string; password: string },
): Promise<{ setCookie: string }> {
  authorize(actorOf(user), "account", "changePassword");
  const scope = `user:${user.id}`;
  // Counted before the check (parallel guesses cannot all pass); the right password gives it back.
  const state = await consume("change-password", scope, LIMITS.generic);
  if (!state.allowed) throw limited(LIMITS.generic, state.retryAfterSeconds);
  const row = await db().select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.id)).get();
  if (!row) {
    // The account is gone under the session: the spec's password-check failure for no user.
    await release("change-password", scope, LIMITS.generic);
    throw new DomainError("unauthenticated", USER_NOT_AUTHENTICATED, { title: VERIFICATION_FAILED });
  }
  let check: { valid: boolean };
  try {
    check = row.passwordHash ? await verifyPassword(row.passwordHash, input.currentPassword) : { valid: false };
  } catch (error) {
    console.error("password verification failed", error);
    await release("change-password", scope, LIMITS.generic);
    throw new DomainError("unavailable", "Unable to verify password. Please try again.", { title: VERIFICATION_FAILED });
  }
  if (!check.valid) {
    await audit({ eventType: "password_change_failure", severity: "medium", userId: user.id, request });
    const message = "The current password you entered is incorrect.";
    throw invalid(message, { title: "Incorrect password", fieldErrors: { currentPassword: message } });
  }
  await release("change-password", scope, LIMITS.generic);
  const now = new Date().toISOString();
  const passwordHash = await hashPassword(input.password);
  await endSessions({ userId: user.id, reason: "password_changed", scope: "all" }, (end) =>
    db().batch([
      db().update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, user.id)),
      ...end,
      auditQuery({ eventType: "password_change", severity: "medium", userId: user.id, targetUserId: user.id, request }),
    ]),
  );
  return { setCookie: await createSession(request, user.id) };
}

/**
 * A Google-only account sets its first password (docs/decisions/0325). It has no current password
 * to ask for, so, as for deleting such an account (0213), this session must come from a Google
 * sign-in of the last FRESH_SIGN_IN_MS. Like a password change, every session ends, this one
 * included, and this browser gets a fresh one (its Set-Cookie is returned). One guarded update
 * (WHERE password_hash IS NULL): a second request, or an account that has a password, changes nothing.
 */
export async function setFirstPassword(request: Request, user: SessionUser, input: { password: string }): Promise<{ setCookie: string }> {
  authorize(actorOf(user), "account", "changePassword");
  const row = await db()
    .select({ passwordHash: users.passwordHash, sessionCreatedAt: sessions.createdAt })
    .from(users)
    .innerJoin(sessions, eq(sessions.userId, users.id))
    .where(and(eq(users.id, user.id), eq(sessions.id, user.sessionId)))
    .get();
  if (!row) throw new DomainError("unauthenticated", USER_NOT_AUTHENTICATED, { title: VERIFICATION_FAILED });
  const hasOne = () => conflict("Your account already has a password. Change it with your current password.", { title: "Password already set" });
  if (row.passwordHash) throw hasOne();
  if (Date.now() - Date.parse(row.sessionCreatedAt) > FRESH_SIGN_IN_MS) {
    throw new DomainError("forbidden", "For your security, sign in with Google again, then set your password within 10 minutes.", { title: "Sign in again" });
  }
  const now = new Date().toISOString();
  const passwordHash = await hashPassword(input.password);
  try {
    await endSessions({ userId: user.id, reason: "password_changed", scope: "all" }, (end) =>
      db().batch([
        db()
          .update(users)
          .set({ passwordHash, updatedAt: now })
          .where(and(eq(users.id, user.id), isNull(users.passwordHash))),
        precondition(previousStatementChanged(1)),
        ...end,
        auditQuery({
          eventType: "password_set",
          severity: "medium",
          userId: user.id,
          targetUserId: user.id,
          request,
          details: { method: "fresh_google_sign_in" },
        }),
      ]),
    );
  } catch (error) {
    if (isPreconditionFailure(error)) throw hasOne();
    throw error;
  }
  return { setCookie: await createSession(request, user.id) };
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
  /**
   * drizzle queries (not executed) written in the same batch as the account, given its id: the
   * agency application, the clipper link. Their owners' modules build them.
   */
  extraQueries?: (userId: string) => BatchItem<"sqlite">[];
  auditDetails?: Record<string, unknown>;
  /** The page the confirmation link leads back to (verificationEmail). */
  returnTo?: string;
};

function isDuplicateEmail(error: unknown): boolean {
  return /UNIQUE.*users\.email/.test(`${String(error)} ${String((error as { cause?: unknown })?.cause ?? "")}`);
}

/** The e-mail the owner of an address gets when someone signs up with it again, and its audit row. */
function existingAccountNotice(request: Request, email: string, ownerId: string) {
  return [
    emailQuery({
      to: email,
      kind: "signup_existing",
      subject: `Someone tried to sign up to ${appName()} with your e-mail`,
      text: `Someone (maybe you) tried to create a ${appName()} account with this e-mail address, which already has one.\n\nIf it was you, sign in at ${appLink("/auth")} and continue from there, or reset your password at ${appLink("/auth/forgot-password")}.\n\nIf it was not you, you can ignore this message: nothing was changed.`,
    }),
    auditQuery({ eventType: "sign_up_existing_email", severity: "low", request, targetUserId: ownerId }),
  ] as const;
}

/**
 * A pending account made under the same rules as signUp: the sign-up limit per address (429), the
 * same answer in the same time whether or not the e-mail already has an account (the password is
 * hashed either way; the owner is told by e-mail and nothing else is written), and the
 * verification e-mail. Returns the new user's id, or null when the e-mail already had an account.
 * Errors other than a duplicate e-mail are thrown as they come (the batch wrote nothing), so
 * callers can recognise their own (e.g. a taken slug).
 */
export async function createPendingAccount(request: Request, input: PendingAccountInput): Promise<{ userId: string | null }> {
  const ipLimit = await consume("signup", ipScope(request), LIMITS.signup);
  if (!ipLimit.allowed) {
    await logRateLimitHit(request, "signup");
    throw limited(LIMITS.signup, ipLimit.retryAfterSeconds);
  }

  // Hashed before the e-mail is looked up, on both paths: skipping the hash for a known e-mail
  // made that answer 3x faster, which told anyone whether the address has an account.
  const [passwordHash, existing] = await Promise.all([hashPassword(input.password), userIdByEmail(input.email)]);
  if (existing) {
    await db().batch([...existingAccountNotice(request, input.email, existing.id)]);
    return { userId: null };
  }

  const userId = crypto.randomUUID();
  const { token, query: tokenQuery } = oneTimeToken(userId, "email_verification", VERIFY_TTL_MS);
  try {
    await db().batch([
      db()
        .insert(users)
        .values({
          id: userId,
          email: input.email,
          passwordHash,
          userMetadata: JSON.stringify({ full_name: oneLine(input.fullName), ...input.metadata }),
        }),
      db()
        .insert(profiles)
        .values({
          userId,
          creatorId: shortCode(),
          // The schemas made it one line already; a name is never stored otherwise (docs/decisions/0287).
          fullName: oneLine(input.fullName),
          approvalStatus: "pending",
          isMusicPartner: Boolean(input.isMusicPartner),
          artistName: input.artistName == null ? null : oneLine(input.artistName),
          catalogueUrl: input.catalogueUrl ?? null,
          agencyId: input.agencyId ?? null,
          referredBy: input.referredBy ?? null,
          agencySignupTokenId: input.agencySignupTokenId ?? null,
        }),
      tokenQuery,
      verificationEmail(input.email, token, input.returnTo),
      auditQuery({
        eventType: "sign_up",
        severity: "low",
        userId,
        targetUserId: userId,
        request,
        details: { agency_id: input.agencyId ?? null, music_partner: Boolean(input.isMusicPartner), ...input.auditDetails },
      }),
      ...(input.extraQueries?.(userId) ?? []),
    ]);
  } catch (error) {
    // A race on the same e-mail: nothing was written (one batch); same answer as above.
    if (!isDuplicateEmail(error)) throw error;
    const owner = await userIdByEmail(input.email);
    if (owner) await db().batch([...existingAccountNotice(request, input.email, owner.id)]);
    return { userId: null };
  }
  return { userId };
}
