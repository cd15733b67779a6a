import { auditStatement, audit } from "~/platform/audit.server";
import { shortCode } from "~/platform/crypto.server";
import { env } from "~/platform/env.server";
import type { GoogleProfile } from "~/platform/oauth.server";
import { createSession } from "./session.server";

export class GoogleSignInError extends Error {}

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
  const linked = await env.DB.prepare(
    "SELECT user_id FROM oauth_accounts WHERE provider = 'google' AND provider_user_id = ?",
  )
    .bind(profile.sub)
    .first<{ user_id: string }>();

  let userId = linked?.user_id ?? null;
  let created = false;
  if (!userId) {
    const existing = await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(profile.email).first<{ id: string }>();
    if (existing) {
      if (!profile.email_verified) {
        throw new GoogleSignInError("This Google account's e-mail is not verified. Sign in with your password instead.");
      }
      userId = existing.id;
      const now = new Date().toISOString();
      await env.DB.batch([
        env.DB.prepare("INSERT INTO oauth_accounts (provider, provider_user_id, user_id, email) VALUES ('google', ?, ?, ?)").bind(
          profile.sub,
          userId,
          profile.email,
        ),
        env.DB.prepare("UPDATE users SET email_verified_at = COALESCE(email_verified_at, ?) WHERE id = ?").bind(now, userId),
        auditStatement({ eventType: "oauth_account_linked", userId, targetUserId: userId, request, details: { provider: "google" } }),
      ]);
    } else {
      userId = crypto.randomUUID();
      created = true;
      const referrer = referralCode
        ? await env.DB.prepare("SELECT user_id FROM profiles WHERE creator_id = ?").bind(referralCode.toUpperCase()).first<{ user_id: string }>()
        : null;
      const metadata = {
        full_name: profile.name,
        referral_code: referralCode,
        agency_slug: null,
        agency_name: null,
        youtube_channel_url: null,
        subscriber_count: 0,
        monthly_views: 0,
        wants_to_be_clipper: false,
        clipper_agreement_accepted: false,
        provider: "google",
      };
      await env.DB.batch([
        env.DB.prepare("INSERT INTO users (id, email, email_verified_at, password_hash, user_metadata) VALUES (?, ?, ?, NULL, ?)").bind(
          userId,
          profile.email,
          profile.email_verified ? new Date().toISOString() : null,
          JSON.stringify(metadata),
        ),
        env.DB.prepare(
          "INSERT INTO profiles (user_id, creator_id, full_name, approval_status, referred_by) VALUES (?, ?, ?, 'pending', ?)",
        ).bind(userId, shortCode(), profile.name, referrer?.user_id ?? null),
        env.DB.prepare("INSERT INTO oauth_accounts (provider, provider_user_id, user_id, email) VALUES ('google', ?, ?, ?)").bind(
          profile.sub,
          userId,
          profile.email,
        ),
        auditStatement({ eventType: "sign_up", userId, targetUserId: userId, request, details: { method: "google", referral: Boolean(referrer) } }),
      ]);
    }
  }

  const banned = await env.DB.prepare("SELECT is_banned, ban_reason FROM profiles WHERE user_id = ?").bind(userId).first<{
    is_banned: number;
    ban_reason: string | null;
  }>();
  if (banned?.is_banned) {
    await audit({ eventType: "sign_in_banned", severity: "medium", userId, request, details: { method: "google" } });
    throw new GoogleSignInError(banned.ban_reason ? `Your account has been banned: ${banned.ban_reason}` : "Your account has been banned.");
  }
  const setCookie = await createSession(request, userId);
  await audit({ eventType: "sign_in_success", userId, request, details: { method: "google" } });
  return { setCookie, userId, created };
}
