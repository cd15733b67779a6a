import { and, eq, sql } from "drizzle-orm";
import { signUpMetadata } from "./sign-up-metadata";
import { oauthAccounts, profiles, users } from "~/db/schema";
import { DomainError } from "~/lib/errors";
import { safeRedirect } from "~/lib/permissions";
import { audit, auditQuery } from "~/platform/audit.server";
import { shortCode } from "~/platform/crypto.server";
import { db } from "~/platform/db.server";
import { OAuthError, beginAuthorization, completeAuthorization, fetchGoogleProfile, oauthConfigured, type GoogleProfile } from "~/platform/oauth.server";
import { referrerQuery } from "./auth.server";
import { SIGNED_IN_TOAST, type AccountRedirect } from "./outcomes.server";
import { bannedMessage } from "./schema";
import { createSession } from "./session.server";

// Google sign-in: the provider redirect with PKCE and state, then the callback that signs in (or
// up) by provider + subject. See docs/decisions/0004 and the stand-in provider under /dev/oauth.

export const GOOGLE_FLOW_COOKIE = "sb_google_oauth";
const GOOGLE_FAILED = "Google sign in failed";

type FlowPayload = { ref: string | null; redirectTo: string };

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
export function startGoogleSignIn(request: Request, input: { ref: string | null; redirectTo?: string }): Promise<Response> {
  return beginAuthorization<FlowPayload>(request, {
    cookieName: GOOGLE_FLOW_COOKIE,
    callbackPath: "/auth/google/callback",
    scopes: ["openid", "email", "profile"],
    payload: { ref: input.ref, redirectTo: safeRedirect(input.redirectTo, "/dashboard") },
    // Offline access and the consent prompt, as the spec's identity-provider call asks.
    params: { access_type: "offline", prompt: "consent" },
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
    const { setCookie } = await signInWithGoogle(request, profile, payload.ref);
    cookies.push(setCookie);
    return { to: payload.redirectTo || "/dashboard", toast: SIGNED_IN_TOAST(), cookies };
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
 * Signs in (or up) with a Google profile. Accounts are keyed on provider + subject; an existing
 * e-mail is linked only when Google says the address is verified. New accounts are 'pending'
 * and pass the same approval gate as password accounts. Returns the new session's cookie.
 */
export async function signInWithGoogle(
  request: Request,
  profile: GoogleProfile,
  referralCode: string | null,
): Promise<{ setCookie: string; userId: string; created: boolean }> {
  const linked = await db()
    .select({ userId: oauthAccounts.userId })
    .from(oauthAccounts)
    .where(and(eq(oauthAccounts.provider, "google"), eq(oauthAccounts.providerUserId, profile.sub)))
    .get();

  let userId = linked?.userId ?? null;
  let created = false;
  if (!userId) {
    const existing = await db().select({ id: users.id }).from(users).where(eq(users.email, profile.email)).get();
    if (existing) {
      if (!profile.email_verified) {
        throw new DomainError("forbidden", "This Google account's e-mail is not verified. Sign in with your password instead.", {
          title: GOOGLE_FAILED,
        });
      }
      userId = existing.id;
      const now = new Date().toISOString();
      await db().batch([
        linkQuery(profile, userId),
        db()
          .update(users)
          .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now})` })
          .where(eq(users.id, userId)),
        auditQuery({ eventType: "oauth_account_linked", userId, targetUserId: userId, request, details: { provider: "google" } }),
      ]);
    } else {
      userId = crypto.randomUUID();
      created = true;
      const referrer = referralCode ? await referrerQuery(referralCode).get() : null;
      const metadata = signUpMetadata({ full_name: profile.name, referral_code: referralCode, provider: "google" });
      await db().batch([
        db()
          .insert(users)
          .values({
            id: userId,
            email: profile.email,
            emailVerifiedAt: profile.email_verified ? new Date().toISOString() : null,
            passwordHash: null,
            userMetadata: JSON.stringify(metadata),
          }),
        db()
          .insert(profiles)
          .values({
            userId,
            creatorId: shortCode(),
            fullName: profile.name,
            approvalStatus: "pending",
            referredBy: referrer?.userId ?? null,
          }),
        linkQuery(profile, userId),
        auditQuery({
          eventType: "sign_up",
          userId,
          targetUserId: userId,
          request,
          details: { method: "google", referral: Boolean(referrer) },
        }),
      ]);
    }
  }

  const banned = await db().select({ isBanned: profiles.isBanned, banReason: profiles.banReason }).from(profiles).where(eq(profiles.userId, userId)).get();
  if (banned?.isBanned) {
    await audit({ eventType: "sign_in_banned", severity: "medium", userId, request, details: { method: "google" } });
    throw new DomainError("forbidden", bannedMessage(banned.banReason), { title: GOOGLE_FAILED });
  }
  const setCookie = await createSession(request, userId);
  await audit({ eventType: "sign_in_success", userId, request, details: { method: "google" } });
  return { setCookie, userId, created };
}
