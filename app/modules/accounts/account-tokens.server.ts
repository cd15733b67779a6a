import { eq } from "drizzle-orm";
import { oneTimeTokens, users } from "~/db/schema";
import { type DomainError, rateLimited } from "~/lib/errors";
import { safeRedirect } from "~/lib/permissions";
import { randomToken, sha256Hex } from "~/platform/crypto.server";
import { db } from "~/platform/db.server";
import { appLink, emailQuery } from "~/platform/email.server";
import { appName } from "~/platform/env.server";
import { tooManyAttempts, type Limit } from "~/platform/rate-limit.server";

// The building blocks the account rules share (auth.server.ts, pending-accounts.server.ts,
// password-change.server.ts): the 429 refusal, one-time tokens, the confirmation e-mail.

export const VERIFY_TTL_MS = 24 * 60 * 60 * 1000;
export const RESET_TTL_MS = 60 * 60 * 1000;

/** 'Too many attempts' / 'Please wait {n} minutes before trying again.', 429 with Retry-After. */
export function limited(limit: Limit, retryAfterSeconds: number): DomainError {
  const { title, description } = tooManyAttempts(limit);
  return rateLimited(retryAfterSeconds, description, title);
}

export type TokenPurpose = (typeof oneTimeTokens.$inferSelect)["purpose"];

/** A new one-time token and its insert (not executed); D1 keeps only the token's hash. */
export function oneTimeToken(userId: string, purpose: TokenPurpose, ttlMs: number) {
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
export function verificationEmail(to: string, token: string, returnTo = "") {
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

/** The id of the account with this e-mail, if any. */
export const userIdByEmail = (email: string) => db().select({ id: users.id }).from(users).where(eq(users.email, email)).get();
