import { and, eq } from "drizzle-orm";
import { socialAccounts } from "~/db/schema";
import { conflict, DomainError, forbidden, notFound } from "~/lib/errors";
import { authorize, type Actor } from "~/lib/permissions";
import { audit, auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { OAuthError, clearFlowCookie, readProviderCallback, startProviderAuthorization, type AuthorizationStart } from "~/platform/oauth.server";
import { isUniqueViolation } from "~/platform/precondition.server";
import { decryptToken, encryptToken } from "~/platform/token-crypto.server";
import { SOCIAL_LABELS, type SocialPlatform } from "./messages";
import { type ProviderToken, shortcodeOf } from "./social-answers";
import {
  SocialTokenRefused,
  SocialUnavailable,
  instagramAuthorizeUrl,
  instagramExchangeCode,
  instagramMe,
  instagramMediaViews,
  instagramOwnMedia,
  instagramRefresh,
  socialConfigured,
  tiktokAuthorizeUrl,
  tiktokExchangeCode,
  tiktokMe,
  tiktokQueryVideos,
  tiktokRefresh,
  tiktokRevoke,
} from "./social-provider.server";

// Linked TikTok and Instagram accounts (decisions 0299, 0300): the creator links an account on
// /channels through the platform's own login, and its tokens (encrypted) are what prove that a
// submitted video is theirs and read its views. Every query names the user; tokens never leave here.

const FLOW_COOKIE: Record<SocialPlatform, string> = { tiktok: "sb_tiktok_oauth", instagram: "sb_instagram_oauth" };
/** Where each platform returns the browser (register https://<origin>/channels/link/<platform> with it). */
export const socialCallbackPath = (platform: SocialPlatform) => `/channels/link/${platform}`;
/** Refresh a TikTok access token with less than this left; an Instagram 60-day token with less than a week. */
const REFRESH_MARGIN_MS: Record<SocialPlatform, number> = { tiktok: 5 * 60_000, instagram: 7 * 86_400_000 };

// ---- Reading -------------------------------------------------------------------------------------

export type LinkedSocialAccount = { platform: SocialPlatform; username: string | null; createdAt: string };

/** The user's linked accounts (never their tokens): /channels and the data export. */
export async function listSocialAccounts(actor: Actor): Promise<LinkedSocialAccount[]> {
  authorize(actor, "channel", "list");
  return socialAccountsOf(actor.id);
}

export function socialAccountsOf(userId: string): Promise<LinkedSocialAccount[]> {
  return db()
    .select({ platform: socialAccounts.platform, username: socialAccounts.username, createdAt: socialAccounts.createdAt })
    .from(socialAccounts)
    .where(eq(socialAccounts.userId, userId))
    .orderBy(socialAccounts.platform)
    .all();
}

// ---- Linking -------------------------------------------------------------------------------------

/** Starts the link: the platform's authorization page and the flow cookie (state, who started it). */
export async function startSocialLink(actor: Actor, request: Request, platform: SocialPlatform): Promise<AuthorizationStart> {
  authorize(actor, "channel", "link");
  if (!socialConfigured(platform)) throw new DomainError("unavailable", `Linking ${SOCIAL_LABELS[platform]} is not configured on this server.`);
  return startProviderAuthorization(request, {
    cookieName: FLOW_COOKIE[platform],
    callbackPath: socialCallbackPath(platform),
    payload: { userId: actor.id },
    buildUrl: (state, redirectUri) => (platform === "instagram" ? instagramAuthorizeUrl : tiktokAuthorizeUrl)(request, state, redirectUri),
  });
}

export function clearSocialLinkCookie(request: Request, platform: SocialPlatform): Promise<string> {
  return clearFlowCookie(request, FLOW_COOKIE[platform]);
}

type Granted = { externalUserId: string; username: string | null; token: ProviderToken };

async function grantOf(request: Request, platform: SocialPlatform, code: string, redirectUri: string): Promise<Granted> {
  if (platform === "instagram") {
    const token = await instagramExchangeCode(request, code, redirectUri);
    const me = await instagramMe(request, token.accessToken);
    return { externalUserId: me.userId, username: me.username, token };
  }
  const token = await tiktokExchangeCode(request, code, redirectUri);
  const me = await tiktokMe(request, token.accessToken);
  if (token.openId && token.openId !== me.openId) throw new SocialUnavailable("TikTok named two different accounts.");
  return { externalUserId: me.openId, username: me.displayName, token };
}

const expiryOf = (seconds: number | null, now: number) => (seconds === null ? null : new Date(now + seconds * 1000).toISOString());

async function tokenColumns(rowId: string, token: ProviderToken, now: number) {
  return {
    accessTokenEnc: await encryptToken(token.accessToken, `social-access:${rowId}`),
    accessTokenExpiresAt: expiryOf(token.expiresIn, now),
    refreshTokenEnc: token.refreshToken ? await encryptToken(token.refreshToken, `social-refresh:${rowId}`) : null,
    refreshTokenExpiresAt: expiryOf(token.refreshExpiresIn, now),
  };
}

/**
 * The platform's return to /channels/link/<platform>: the state must match the flow cookie's and the
 * flow must have been started by this user; the code is exchanged, the account read, and the link
 * stored (or renewed) with its tokens. An account linked to another Shortbeat user is refused.
 */
export async function completeSocialLink(actor: Actor, request: Request, platform: SocialPlatform): Promise<{ username: string | null }> {
  authorize(actor, "channel", "link");
  const label = SOCIAL_LABELS[platform];
  const cancelled = new URL(request.url).searchParams.has("error");
  try {
    const { code, redirectUri, payload } = await readProviderCallback<{ userId: string }>(request, FLOW_COOKIE[platform]);
    if (payload.userId !== actor.id) throw forbidden("This authorization was started from another account. Please try again.");
    const granted = await grantOf(request, platform, code, redirectUri);
    return await storeLink(actor.id, request, platform, granted);
  } catch (error) {
    const known = error instanceof DomainError || error instanceof OAuthError || error instanceof SocialTokenRefused ? error.message : null;
    if (!known && !(error instanceof SocialUnavailable)) console.error(`${label} link failed`, error);
    await audit({
      eventType: "social_account_link_failed",
      severity: cancelled ? "low" : "medium",
      userId: actor.id,
      request,
      details: { platform, reason: known ?? (error as Error).message ?? "unexpected" },
    });
    if (error instanceof SocialUnavailable)
      throw new DomainError("unavailable", `${label} could not be reached. Please try again.`, { title: `Could not link ${label}` });
    throw new DomainError(error instanceof DomainError ? error.code : "invalid_input", known ?? "Something went wrong. Please try again.", {
      title: `Could not link ${label}`,
    });
  }
}

async function storeLink(userId: string, request: Request, platform: SocialPlatform, g: Granted): Promise<{ username: string | null }> {
  const label = SOCIAL_LABELS[platform];
  const taken = `This ${label} account is already linked to another Shortbeat account.`;
  const cols = { id: socialAccounts.id, userId: socialAccounts.userId };
  const [byAccount, ownRow] = await db().batch([
    db()
      .select(cols)
      .from(socialAccounts)
      .where(and(eq(socialAccounts.platform, platform), eq(socialAccounts.externalUserId, g.externalUserId))),
    db()
      .select(cols)
      .from(socialAccounts)
      .where(and(eq(socialAccounts.platform, platform), eq(socialAccounts.userId, userId))),
  ]);
  if (byAccount[0] && byAccount[0].userId !== userId) {
    await audit({
      eventType: "social_account_link_refused",
      severity: "medium",
      userId,
      request,
      details: { platform, reason: "account linked to another user" },
    });
    throw conflict(taken);
  }
  // Linking another account of the same platform replaces the user's link.
  const existing = ownRow[0];
  const now = Date.now();
  const rowId = existing?.id ?? crypto.randomUUID();
  const at = new Date(now).toISOString();
  const columns = {
    externalUserId: g.externalUserId,
    username: g.username,
    scope: g.token.scope,
    ...(await tokenColumns(rowId, g.token, now)),
    updatedAt: at,
  };
  try {
    await db().batch([
      existing
        ? db()
            .update(socialAccounts)
            .set(columns)
            .where(and(eq(socialAccounts.id, rowId), eq(socialAccounts.userId, userId)))
        : db()
            .insert(socialAccounts)
            .values({ id: rowId, userId, platform, ...columns, createdAt: at }),
      auditQuery({
        eventType: existing ? "social_account_relinked" : "social_account_linked",
        userId,
        targetUserId: userId,
        request,
        details: { platform, external_user_id: g.externalUserId, username: g.username },
      }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error, "social_accounts.platform") || isUniqueViolation(error, "social_accounts.external_user_id")) throw conflict(taken);
    throw error;
  }
  return { username: g.username };
}

// ---- Unlinking -----------------------------------------------------------------------------------

/** Removes the user's own link and its tokens; TikTok's grant is revoked too (Instagram Login has no revoke endpoint). */
export async function unlinkSocialAccount(actor: Actor, request: Request, platform: SocialPlatform): Promise<void> {
  authorize(actor, "channel", "list");
  const row = await db()
    .select({
      id: socialAccounts.id,
      userId: socialAccounts.userId,
      accessTokenEnc: socialAccounts.accessTokenEnc,
      externalUserId: socialAccounts.externalUserId,
    })
    .from(socialAccounts)
    .where(and(eq(socialAccounts.userId, actor.id), eq(socialAccounts.platform, platform)))
    .get();
  if (!row) throw notFound(`No ${SOCIAL_LABELS[platform]} account is linked.`);
  authorize(actor, "channel", "disconnect", { ownerId: row.userId });
  let grant: string | null = null;
  try {
    grant = await decryptToken(row.accessTokenEnc, `social-access:${row.id}`);
  } catch (error) {
    console.error("could not decrypt a token to revoke it", error);
  }
  const [deleted] = await db().batch([
    db()
      .delete(socialAccounts)
      .where(and(eq(socialAccounts.id, row.id), eq(socialAccounts.userId, actor.id)))
      .returning({ id: socialAccounts.id }),
    auditQuery({
      eventType: "social_account_unlinked",
      userId: actor.id,
      targetUserId: actor.id,
      request,
      details: { platform, external_user_id: row.externalUserId },
    }),
  ]);
  if (deleted.length === 0) throw notFound(`No ${SOCIAL_LABELS[platform]} account is linked.`);
  if (grant && platform === "tiktok") await tiktokRevoke(request, grant);
}

// ---- Using the owner's token ---------------------------------------------------------------------

type StoredAccount = typeof socialAccounts.$inferSelect;

async function accountOf(userId: string, platform: SocialPlatform): Promise<StoredAccount | null> {
  return (
    (await db()
      .select()
      .from(socialAccounts)
      .where(and(eq(socialAccounts.userId, userId), eq(socialAccounts.platform, platform)))
      .get()) ?? null
  );
}

/** Runs `use` with a current access token: refreshed (and stored) when near expiry, or once after a refusal (TikTok). */
async function withToken<T>(request: Request, account: StoredAccount, use: (accessToken: string) => Promise<T>): Promise<T> {
  const { id, platform } = account;
  let accessToken = await decryptToken(account.accessTokenEnc, `social-access:${id}`);
  const expiresAt = account.accessTokenExpiresAt ? Date.parse(account.accessTokenExpiresAt) : Number.NaN;
  const renew = async () => {
    let token: ProviderToken;
    if (platform === "tiktok") {
      if (!account.refreshTokenEnc) throw new SocialTokenRefused("No TikTok refresh token is stored.");
      token = await tiktokRefresh(request, await decryptToken(account.refreshTokenEnc, `social-refresh:${id}`));
    } else {
      token = await instagramRefresh(request, accessToken);
    }
    const now = Date.now();
    const columns = await tokenColumns(id, token, now);
    await db()
      .update(socialAccounts)
      .set({ ...columns, refreshTokenEnc: columns.refreshTokenEnc ?? account.refreshTokenEnc, updatedAt: new Date(now).toISOString() })
      .where(eq(socialAccounts.id, id));
    return token.accessToken;
  };
  let renewed = false;
  if (Number.isFinite(expiresAt) && expiresAt - Date.now() < REFRESH_MARGIN_MS[platform]) {
    // An expired Instagram token cannot be refreshed: the owner links again.
    if (platform === "instagram" && expiresAt <= Date.now()) throw new SocialTokenRefused("The Instagram authorization has expired.");
    try {
      accessToken = await renew();
      renewed = true;
    } catch (error) {
      // An Instagram token not yet 24 hours old cannot be refreshed; it is still good until it expires.
      if (platform === "tiktok") throw error;
    }
  }
  try {
    return await use(accessToken);
  } catch (error) {
    if (!(error instanceof SocialTokenRefused) || renewed || platform !== "tiktok") throw error;
    return use(await renew());
  }
}

export type Ownership = { kind: "not_linked" } | { kind: "mine" } | { kind: "not_mine"; username: string | null };

/**
 * Whether a TikTok video / Instagram reel is the user's own, asked with their token: TikTok's video
 * query returns only the owner's ids; an Instagram reel is theirs when /me/media lists its shortcode.
 * "unavailable" (503, nothing written) when the platform fails or refused the token (link again).
 */
export async function socialVideoOwnership(request: Request, userId: string, platform: SocialPlatform, videoId: string): Promise<Ownership> {
  const account = await accountOf(userId, platform);
  if (!account) return { kind: "not_linked" };
  const label = SOCIAL_LABELS[platform];
  try {
    const mine = await withToken(request, account, async (token) =>
      platform === "tiktok"
        ? (await tiktokQueryVideos(request, token, [videoId])).has(videoId)
        : (await instagramOwnMedia(request, token, (m) => shortcodeOf(m) === videoId)) !== null,
    );
    return mine ? { kind: "mine" } : { kind: "not_mine", username: account.username };
  } catch (error) {
    if (error instanceof SocialTokenRefused) {
      throw new DomainError("unavailable", `${label} refused your linked account's authorization. Link ${label} again on the Channels page, then submit.`);
    }
    if (error instanceof SocialUnavailable)
      throw new DomainError("unavailable", `${label} could not be reached to check the video. Nothing was submitted: try again in a moment.`);
    throw error;
  }
}

export type SocialViews = { kind: "found"; views: number } | { kind: "not_found" } | { kind: "unavailable" };

/** A video's views with its owner's token (the daily job). Never throws. */
export async function socialVideoViews(request: Request, userId: string, platform: SocialPlatform, videoId: string): Promise<SocialViews> {
  try {
    const account = await accountOf(userId, platform);
    if (!account) return { kind: "unavailable" };
    return await withToken(request, account, async (token): Promise<SocialViews> => {
      if (platform === "tiktok") {
        const videos = await tiktokQueryVideos(request, token, [videoId]);
        if (!videos.has(videoId)) return { kind: "not_found" };
        const views = videos.get(videoId);
        return views == null ? { kind: "unavailable" } : { kind: "found", views };
      }
      const media = await instagramOwnMedia(request, token, (m) => shortcodeOf(m) === videoId);
      if (!media) return { kind: "not_found" };
      const views = await instagramMediaViews(request, token, media.id);
      return views === null ? { kind: "unavailable" } : { kind: "found", views };
    });
  } catch (error) {
    if (!(error instanceof SocialTokenRefused || error instanceof SocialUnavailable)) console.error("social views failed", error);
    return { kind: "unavailable" };
  }
}
