import { and, eq, isNull } from "drizzle-orm";
import { signUpMetadata } from "./sign-up-metadata";
import { oauthAccounts, oneTimeTokens, profiles, users } from "~/db/schema";
import { NAME_MAX } from "~/lib/constants";
import { DomainError } from "~/lib/errors";
import { safeRedirect } from "~/lib/permissions";
import { sanitizeLine } from "~/lib/sanitize";
import { audit, auditQuery } from "~/platform/audit.server";
import { shortCode } from "~/platform/crypto.server";
import { db } from "~/platform/db.server";
import { OAuthError, beginAuthorization, completeAuthorization, fetchGoogleProfile, oauthConfigured, type GoogleProfile } from "~/platform/oauth.server";
import { referrerQuery } from "./auth.server";
import { statementsFor, tell, type NewAccount } from "~/platform/account-hooks.server";
import { FINISH_SIGN_UP_PATH } from "./finish-sign-up.server";
import { FINISH_SIGN_UP_TOAST, SIGNED_IN_TOAST, type AccountRedirect } from "./outcomes.server";
import { bannedMessage } from "./schema";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { afterSessionsEnded, createSession, endSessionsStatements } from "./session.server";

// Google sign-in: the provider redirect with PKCE and state, then the callback that signs in (or
// up) by provider + subject. See docs/decisions/0004 and the stand-in provider under /dev/oauth.

export const GOOGLE_FLOW_COOKIE = "sb_google_oauth";
const GOOGLE_FAILED = "Google sign in failed";

type FlowPayload = { ref: string | null; redirectTo: string; clipper?: boolean; invite?: string | null };

/** Whether Google sign-in is set up on this deployment. */
export function googleSignInAvailable(): boolean {
  return oauthConfigured();
}

/** What the sign-in screen shows when Google sign-in cannot start. */
export const GOOGLE_UNAVAILABLE_TOAST = { type: "error", title: GOOGLE_FAILED, description: "Please try again." } as const;

/**
 * Starts Google sign-in: the redirect to the provider (built by the OAuth platform code), with a
 * fresh state and PKCE verifier. The referral code rides along in the signed flow cookie, so it
 * survives the round trip.
 */
export function startGoogleSignIn(
  request: Request,
  input: { ref: string | null; redirectTo?: string; clipper?: boolean; invite?: string | null },
): Promise<Response> {
  return beginAuthorization<FlowPayload>(request, {
    cookieName: GOOGLE_FLOW_COOKIE,
    callbackPath: "/auth/google/callback",
    scopes: ["openid", "email", "profile"],
    payload: { ref: input.ref, redirectTo: safeRedirect(input.redirectTo, "/dashboard"), clipper: input.clipper === true, invite: input.invite ?? null },
    // No offline access and no forced consent: sign-in uses the access token once, for the profile,
    // and keeps no refresh token (only the channel link does, decision 0305).
  });
}

/**
 * The provider's return: signs in (or up) and says where to go. Every failure ends on /auth with
 * 'Google sign in failed' and the reason when it is a known one (spec section 8), and is audited.
 */
export async function finishGoogleSignIn(request: Request): Promise<AccountRedirect> {
  const cookies: string[] = [];
  try {
    const { tokens, payload, clearCookie } = await completeAuthorization<FlowPayload>(request, GOOGLE_FLOW_COOKIE);
    cookies.push(clearCookie);
    const profile = await fetchGoogleProfile(request, tokens.accessToken());
    const { setCookie, created, firstSignIn } = await signInWithGoogle(
      request,
      profile,
      payload.ref,
      payload.clipper === true ? (payload.invite ?? null) : null,
    );
    cookies.push(setCookie);
    // A new account gives the sign-up form's details and accepts the terms first (docs/decisions/0324).
    // A new account gives its sign-up details first (0324), then goes on to where it was headed (a campaign's
    // page); an invited clipper goes on to the waiting page, which shows both approvals (issue 42 §3).
    const headed = payload.redirectTo && payload.redirectTo !== "/dashboard" && !payload.clipper && !payload.invite;
    const back = headed ? `?redirectTo=${encodeURIComponent(payload.redirectTo)}` : "";
    if (created) return { to: `${FINISH_SIGN_UP_PATH}${back}`, toast: FINISH_SIGN_UP_TOAST(), cookies };
    return { to: payload.redirectTo || "/dashboard", toast: SIGNED_IN_TOAST({ firstSignIn }), cookies };
  } catch (error) {
    const clear = (error as { clearCookie?: string }).clearCookie;
    if (clear) cookies.push(clear);
    const known = error instanceof OAuthError || error instanceof DomainError;
    if (!known) console.error("Google sign-in failed", error);
    await audit({
      eventType: "sign_in_failure",
      severity: "medium",
      request,
      details: { method: "google", reason: known ? (error as Error).message : "unexpected" },
    });
    return {
      to: "/auth",
      toast: { type: "error", title: GOOGLE_FAILED, description: known ? (error as Error).message : "Please try again." },
      cookies,
    };
  }
}

const linkQuery = (profile: GoogleProfile, userId: string) =>
  db().insert(oauthAccounts).values({ provider: "google", providerUserId: profile.sub, userId, email: profile.email });

/**
 * A name as Google sends it, made safe to keep: the same sanitizer and 100-character cap as the
 * sign-up form's full name (one line: control characters and line breaks, angle brackets, script
 * schemes removed; docs/decisions/0287), or null.
 */
export function googleDisplayName(name: string | null): string | null {
  if (!name) return null;
  return sanitizeLine(name).slice(0, NAME_MAX).trim() || null;
}

const UNVERIFIED_EMAIL = "Your Google account's e-mail address is not verified. Verify it with Google, or sign in with your password.";

/**
 * Signs in (or up) with a Google profile. Accounts are keyed on provider + subject. Only an
 * e-mail Google says it has verified is used at all: otherwise nothing is created or signed in.
 * An existing account with that e-mail is linked; if its own e-mail was never verified, whoever
 * made it never proved they own the address, so the verified identity takes it over (see
 * takeOverUnverifiedAccount). New accounts are 'pending' and pass the same approval gate as
 * password accounts. Returns the new session's cookie.
 */
export async function signInWithGoogle(
  request: Request,
  profile: GoogleProfile,
  referralCode: string | null,
  /** A clipper invitation to use for a new account (its clipper boxes were ticked before leaving for Google). */
  clipperInvitation: string | null = null,
): Promise<{ setCookie: string; userId: string; created: boolean; firstSignIn: boolean }> {
  // Refused before anything is read or written (finishGoogleSignIn audits the failure).
  if (!profile.email_verified) {
    throw new DomainError("forbidden", UNVERIFIED_EMAIL, { title: GOOGLE_FAILED });
  }
  const name = googleDisplayName(profile.name);
  const linked = await db()
    .select({ userId: oauthAccounts.userId })
    .from(oauthAccounts)
    .where(and(eq(oauthAccounts.provider, "google"), eq(oauthAccounts.providerUserId, profile.sub)))
    .get();

  let userId = linked?.userId ?? null;
  let created = false;
  if (!userId) {
    const existing = await db().select({ id: users.id, emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.email, profile.email)).get();
    if (existing?.emailVerifiedAt) {
      userId = existing.id;
      await db().batch([
        linkQuery(profile, userId),
        auditQuery({ eventType: "oauth_account_linked", userId, targetUserId: userId, request, details: { provider: "google" } }),
      ]);
    } else if (existing) {
      userId = existing.id;
      await takeOverUnverifiedAccount(request, profile, userId, name);
    } else {
      userId = crypto.randomUUID();
      created = true;
      const referrer = referralCode ? await referrerQuery(referralCode).get() : null;
      // A clipper invitation (docs/decisions/0205): the clipper option and its agreement were ticked
      // before leaving for Google; the invitation is used for the new account (verified e-mail).
      const joinsAsClipper = Boolean(clipperInvitation);
      const account: NewAccount = { userId, email: profile.email, request, clipperInvitation: clipperInvitation || null, referred: Boolean(referrer) };
      const metadata = signUpMetadata({
        full_name: name,
        referral_code: referralCode,
        provider: "google",
        ...(joinsAsClipper ? { wants_to_be_clipper: true, clipper_agreement_accepted: true } : {}),
      });
      await db().batch([
        db()
          .insert(users)
          .values({
            id: userId,
            email: profile.email,
            emailVerifiedAt: new Date().toISOString(),
            passwordHash: null,
            userMetadata: JSON.stringify(metadata),
          }),
        db()
          .insert(profiles)
          .values({
            userId,
            creatorId: shortCode(),
            fullName: name,
            approvalStatus: "pending",
            // The sign-up form's channel details and the Creator Agreement come next, on
            // /auth/finish-sign-up; until then the admin's queue does not list the account (0324).
            signUpDetailsMissing: true,
            referredBy: referrer?.userId ?? null,
          }),
        linkQuery(profile, userId),
        ...statementsFor("signUpStatements", account),
        auditQuery({
          eventType: "sign_up",
          userId,
          targetUserId: userId,
          request,
          details: { method: "google", referral: Boolean(referrer), clipper: joinsAsClipper },
        }),
      ]);
      await tell("signedUp", account);
    }
  }

  const banned = await db()
    .select({ isBanned: profiles.isBanned, banReason: profiles.banReason, lastSignInAt: profiles.lastSignInAt })
    .from(profiles)
    .where(eq(profiles.userId, userId))
    .get();
  if (banned?.isBanned) {
    await audit({ eventType: "sign_in_banned", severity: "medium", userId, request, details: { method: "google" } });
    throw new DomainError("forbidden", bannedMessage(banned.banReason), { title: GOOGLE_FAILED });
  }
  const setCookie = await createSession(request, userId);
  await audit({ eventType: "sign_in_success", userId, request, details: { method: "google" } });
  return { setCookie, userId, created, firstSignIn: !banned?.lastSignInAt };
}

/**
 * Account pre-hijack defence. Someone signed up with this e-mail and a password of their own and
 * never proved they own the address; Google now vouches that this person does. The account
 * becomes theirs: the unproven password is removed (the owner can set one by reset), every
 * session and open one-time link of the account ends (sockets close too), the e-mail counts as
 * verified and the Google identity is linked, all in one batch that holds only if the e-mail is
 * still unverified when it runs. Audited as 'account_taken_over_by_verified_identity'.
 */
async function takeOverUnverifiedAccount(request: Request, profile: GoogleProfile, userId: string, name: string | null): Promise<void> {
  const now = new Date().toISOString();
  try {
    await db().batch([
      db()
        .update(users)
        .set({ passwordHash: null, emailVerifiedAt: now, updatedAt: now })
        .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt))),
      precondition(previousStatementChanged(1)),
      ...(name ? [db().update(profiles).set({ fullName: name, updatedAt: now }).where(eq(profiles.userId, userId))] : []),
      db()
        .update(oneTimeTokens)
        .set({ usedAt: now })
        .where(and(eq(oneTimeTokens.userId, userId), isNull(oneTimeTokens.usedAt))),
      ...endSessionsStatements({ userId, reason: "password_changed", scope: "all" }),
      linkQuery(profile, userId),
      auditQuery({
        eventType: "account_taken_over_by_verified_identity",
        severity: "high",
        userId,
        targetUserId: userId,
        request,
        details: { provider: "google", reason: "unverified_password_account", removed: ["password", "sessions", "one_time_links"] },
      }),
    ]);
  } catch (error) {
    // Verified meanwhile (its owner used the link): nothing was written; try again as a plain link.
    if (isPreconditionFailure(error)) throw new DomainError("conflict", "Please try again.", { title: GOOGLE_FAILED });
    throw error;
  }
  await afterSessionsEnded(userId);
}
