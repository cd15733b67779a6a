import type { SocialPlatform } from "./messages";
import { setting } from "~/platform/env.server";
import { providerFetch } from "~/platform/oauth.server";
import { recordFailure, recordSuccessOnce } from "~/platform/service-status.server";
import {
  type InstagramMedia,
  type ProviderToken,
  instagramMediaPage,
  instagramProfile,
  instagramToken,
  instagramViews,
  tiktokToken,
  tiktokUser,
  tiktokVideos,
} from "./social-answers";

// Instagram Login and TikTok Login Kit + Display API, the calls themselves (decisions 0299, 0300).
// Every endpoint is a setting (the stand-ins under /dev/social/ locally, app/dev/dev-social-login.server.ts)
// and leaves through providerFetch → outboundFetch. The answers are read by social-answers.ts.
// Each answer is recorded here for the System status page (docs/decisions/0326): no answer, a 5xx,
// an answer of another shape or a refusal of our app's credentials is the platform's (or our
// setup's) failure; a refused user token or grant (expired, revoked: that person links again) is not.

/** The provider refused the token (expired, revoked): the account must be linked again. */
export class SocialTokenRefused extends Error {}
/** The provider could not be reached or answered something else: try again later. */
export class SocialUnavailable extends Error {}

const abs = (request: Request, name: keyof Env, fallback: string) => new URL(setting(name) ?? fallback, request.url);

async function json(res: Response): Promise<unknown> {
  return res.json().catch(() => null);
}

const LABEL: Record<SocialPlatform, string> = { tiktok: "TikTok", instagram: "Instagram" };

/** The platform failed: recorded for the System status page, then the error to throw. */
async function failed(request: Request, platform: SocialPlatform, code: string | null, message: string): Promise<SocialUnavailable> {
  await recordFailure(platform, code, message, request);
  return new SocialUnavailable(message);
}

/** The platform answered as documented. */
const answered = (request: Request, platform: SocialPlatform) => recordSuccessOnce(request, platform);

async function send(request: Request, platform: SocialPlatform, url: URL | string, init: RequestInit = {}): Promise<Response> {
  try {
    return await providerFetch(request, url.toString(), init);
  } catch (error) {
    throw await failed(request, platform, null, `${LABEL[platform]} could not be reached: ${(error as Error).message}`);
  }
}

export function socialConfigured(platform: SocialPlatform): boolean {
  return platform === "instagram"
    ? Boolean(setting("INSTAGRAM_APP_ID") && setting("INSTAGRAM_APP_SECRET"))
    : Boolean(setting("TIKTOK_CLIENT_KEY") && setting("TIKTOK_CLIENT_SECRET"));
}

// ---- Instagram API with Instagram Login ------------------------------------------------------------
// Business Login: https://developers.facebook.com/documentation/instagram-platform/instagram-api-with-instagram-login/business-login
// Scopes: instagram_business_basic (profile, media) and instagram_business_manage_insights (views),
// https://developers.facebook.com/documentation/instagram-platform/insights.md (Permissions row).
export const INSTAGRAM_SCOPES = ["instagram_business_basic", "instagram_business_manage_insights"];
const graph = (request: Request, path: string) => {
  const base = abs(request, "INSTAGRAM_GRAPH_URL", "https://graph.instagram.com").toString().replace(/\/$/, "");
  return new URL(`${base}/${path}`);
};

/** The Authorization Window (https://developers.facebook.com/docs/instagram-platform/reference/oauth-authorize). */
export function instagramAuthorizeUrl(request: Request, state: string, redirectUri: string): URL {
  const url = abs(request, "INSTAGRAM_AUTHORIZE_URL", "https://www.instagram.com/oauth/authorize");
  url.searchParams.set("client_id", setting("INSTAGRAM_APP_ID") ?? "");
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", INSTAGRAM_SCOPES.join(","));
  url.searchParams.set("state", state);
  return url;
}

/**
 * The code exchange's refusal of the code itself (used already, expired, never issued): Business
 * Login's "Sample Rejected Response" is {"error_type": "OAuthException", "code": 400, "error_message":
 * "Matching code was not found or was already used"}
 * (https://developers.facebook.com/documentation/instagram-platform/instagram-api-with-instagram-login/business-login,
 * Step 2; tests/fixtures/providers/instagram.json, codeExchangeRejected). One person's link, not Instagram's failure.
 */
const REFUSED_CODE = /matching code was not found|already used|authorization code/i;

/**
 * A Graph error: code 190 (OAuthException) is a refused token (the person's, not recorded); a code
 * exchange refused for its code (used, expired) is the person's too; anything else is "unavailable".
 */
async function instagramFailure(request: Request, res: Response): Promise<Error> {
  const body = (await json(res)) as { error?: { code?: unknown; type?: unknown }; error_message?: unknown } | null;
  if (res.status === 401 || body?.error?.code === 190) return new SocialTokenRefused("Instagram refused the stored authorization.");
  const message = `Instagram answered HTTP ${res.status}.`;
  if (res.status < 500 && typeof body?.error_message === "string" && REFUSED_CODE.test(body.error_message)) return new SocialUnavailable(message);
  const code = body?.error?.code;
  return failed(request, "instagram", typeof code === "number" || typeof code === "string" ? `${res.status} (${code})` : `HTTP ${res.status}`, message);
}

/**
 * The code → a short-lived token (POST https://api.instagram.com/oauth/access_token, form fields
 * client_id, client_secret, grant_type=authorization_code, redirect_uri, code; the answer is
 * {data: [{access_token, user_id, permissions}]}: Business Login, Step 2,
 * https://developers.facebook.com/documentation/instagram-platform/instagram-api-with-instagram-login/business-login) → a
 * 60-day token (GET graph.instagram.com/access_token?grant_type=ig_exchange_token,
 * https://developers.facebook.com/documentation/instagram-platform/reference/access_token).
 */
export async function instagramExchangeCode(request: Request, code: string, redirectUri: string): Promise<ProviderToken> {
  const res = await send(request, "instagram", abs(request, "INSTAGRAM_TOKEN_URL", "https://api.instagram.com/oauth/access_token"), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
    body: new URLSearchParams({
      client_id: setting("INSTAGRAM_APP_ID") ?? "",
      client_secret: setting("INSTAGRAM_APP_SECRET") ?? "",
      grant_type: "authorization_code",
      redirect_uri: redirectUri,
      code,
    }),
  });
  if (!res.ok) throw await instagramFailure(request, res);
  const short = instagramToken(await json(res));
  if (!short) throw await failed(request, "instagram", null, "Instagram answered the code exchange without a token.");
  const url = graph(request, "access_token");
  url.searchParams.set("grant_type", "ig_exchange_token");
  url.searchParams.set("client_secret", setting("INSTAGRAM_APP_SECRET") ?? "");
  url.searchParams.set("access_token", short.accessToken);
  const long = await send(request, "instagram", url, { headers: { Accept: "application/json" } });
  if (!long.ok) throw await instagramFailure(request, long);
  const token = instagramToken(await json(long));
  if (!token) throw await failed(request, "instagram", null, "Instagram answered the long-lived exchange without a token.");
  await answered(request, "instagram");
  return { ...token, scope: short.scope };
}

/**
 * A long-lived token refreshed for another 60 days (GET graph.instagram.com/refresh_access_token?
 * grant_type=ig_refresh_token; the token must be at least 24 hours old and unexpired),
 * https://developers.facebook.com/documentation/instagram-platform/reference/refresh_access_token
 */
export async function instagramRefresh(request: Request, accessToken: string): Promise<ProviderToken> {
  const url = graph(request, "refresh_access_token");
  url.searchParams.set("grant_type", "ig_refresh_token");
  url.searchParams.set("access_token", accessToken);
  const res = await send(request, "instagram", url, { headers: { Accept: "application/json" } });
  if (!res.ok) throw await instagramFailure(request, res);
  const token = instagramToken(await json(res));
  if (!token) throw await failed(request, "instagram", null, "Instagram answered the refresh without a token.");
  await answered(request, "instagram");
  return token;
}

/** GET /me?fields=user_id,username: whose token this is. */
export async function instagramMe(request: Request, accessToken: string) {
  const url = graph(request, "me");
  url.searchParams.set("fields", "user_id,username");
  url.searchParams.set("access_token", accessToken);
  const res = await send(request, "instagram", url, { headers: { Accept: "application/json" } });
  if (!res.ok) throw await instagramFailure(request, res);
  const me = instagramProfile(await json(res));
  if (!me) throw await failed(request, "instagram", null, "Instagram answered /me without an account id.");
  await answered(request, "instagram");
  return me;
}

/** At most this many pages of /me/media (100 a page) are read for one lookup. */
const MEDIA_PAGES = 10;

/**
 * The account's own media (GET /me/media?fields=id,shortcode,permalink,media_product_type, cursor
 * paging), https://developers.facebook.com/documentation/instagram-platform/reference/instagram-user/media
 * — read until `found` says stop.
 */
export async function instagramOwnMedia(request: Request, accessToken: string, found: (m: InstagramMedia) => boolean): Promise<InstagramMedia | null> {
  const first = graph(request, "me/media");
  first.searchParams.set("fields", "id,shortcode,permalink,media_product_type");
  first.searchParams.set("limit", "100");
  first.searchParams.set("access_token", accessToken);
  let next: URL | null = first;
  for (let page = 0; next && page < MEDIA_PAGES; page++) {
    const res = await send(request, "instagram", next, { headers: { Accept: "application/json" } });
    if (!res.ok) throw await instagramFailure(request, res);
    const body = instagramMediaPage(await json(res));
    if (!body) throw await failed(request, "instagram", null, "Instagram answered /me/media in another shape.");
    await answered(request, "instagram");
    const hit = body.media.find(found);
    if (hit) return hit;
    next = body.next ? new URL(body.next, request.url) : null;
  }
  return null;
}

/** GET /<media-id>/insights?metric=views with the owner's token (the Media Insights reference above). */
export async function instagramMediaViews(request: Request, accessToken: string, mediaId: string): Promise<number | null> {
  const url = graph(request, `${encodeURIComponent(mediaId)}/insights`);
  url.searchParams.set("metric", "views");
  url.searchParams.set("access_token", accessToken);
  const res = await send(request, "instagram", url, { headers: { Accept: "application/json" } });
  if (!res.ok) throw await instagramFailure(request, res);
  const views = instagramViews(await json(res));
  await answered(request, "instagram");
  return views;
}

// ---- TikTok Login Kit for Web + Display API ----------------------------------------------------------
// https://developers.tiktok.com/doc/login-kit-web, https://developers.tiktok.com/doc/oauth-user-access-token-management,
// https://developers.tiktok.com/doc/tiktok-api-v2-video-query. Display API needs user.info.basic and
// video.list (https://developers.tiktok.com/doc/display-api-get-started).
export const TIKTOK_SCOPES = ["user.info.basic", "video.list"];
const tiktokApi = (request: Request, path: string) => {
  const base = abs(request, "TIKTOK_API_URL", "https://open.tiktokapis.com").toString().replace(/\/$/, "");
  return new URL(`${base}${path}`);
};

/** The authorization URL (web: client_key, scope comma-separated, response_type=code, redirect_uri, state). */
export function tiktokAuthorizeUrl(request: Request, state: string, redirectUri: string): URL {
  const url = abs(request, "TIKTOK_AUTHORIZE_URL", "https://www.tiktok.com/v2/auth/authorize/");
  url.searchParams.set("client_key", setting("TIKTOK_CLIENT_KEY") ?? "");
  url.searchParams.set("scope", TIKTOK_SCOPES.join(","));
  url.searchParams.set("response_type", "code");
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("state", state);
  return url;
}

async function tiktokTokenRequest(request: Request, fields: Record<string, string>) {
  const res = await send(request, "tiktok", tiktokApi(request, "/v2/oauth/token/"), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "Cache-Control": "no-cache" },
    body: new URLSearchParams({ client_key: setting("TIKTOK_CLIENT_KEY") ?? "", client_secret: setting("TIKTOK_CLIENT_SECRET") ?? "", ...fields }),
  });
  const body = (await json(res)) as { error?: unknown; error_description?: unknown } | null;
  // TikTok answers a refused grant with an `error` string (invalid_grant, invalid_request…),
  // https://developers.tiktok.com/doc/oauth-error-handling. Only invalid_grant (and access_denied)
  // is the person's code or refresh token; invalid_client, unauthorized_client, invalid_request… are
  // our app's credentials or request: recorded.
  if (typeof body?.error === "string") {
    if (body.error !== "invalid_grant" && body.error !== "access_denied") {
      const detail = typeof body.error_description === "string" ? body.error_description : `HTTP ${res.status}`;
      await recordFailure("tiktok", body.error, `Token endpoint: ${detail}`, request);
    }
    throw new SocialTokenRefused(`TikTok refused the authorization (${body.error}).`);
  }
  if (!res.ok) throw await failed(request, "tiktok", `HTTP ${res.status}`, `TikTok answered HTTP ${res.status}.`);
  const token = tiktokToken(body);
  if (!token) throw await failed(request, "tiktok", null, "TikTok answered without a token.");
  await answered(request, "tiktok");
  return token;
}

/**
 * POST /v2/oauth/token/ with the code, form-encoded: client_key, client_secret, code, grant_type=
 * authorization_code, redirect_uri. No PKCE on the web: the token guide's code_verifier is "Required
 * for mobile and desktop app only" (https://developers.tiktok.com/doc/oauth-user-access-token-management,
 * read 2026-12-06), and Login Kit for Web's authorization URL takes client_key, scope, redirect_uri,
 * state and response_type (https://developers.tiktok.com/doc/login-kit-web).
 */
export function tiktokExchangeCode(request: Request, code: string, redirectUri: string) {
  return tiktokTokenRequest(request, { code, grant_type: "authorization_code", redirect_uri: redirectUri });
}

/** POST /v2/oauth/token/ with grant_type=refresh_token: TikTok rotates the refresh token, keep the new one. */
export function tiktokRefresh(request: Request, refreshToken: string) {
  return tiktokTokenRequest(request, { grant_type: "refresh_token", refresh_token: refreshToken });
}

/**
 * A Display API error: a refused user token is the person's (not recorded); anything else is TikTok's.
 * https://developers.tiktok.com/doc/tiktok-api-v2-error-handling: access_token_invalid and
 * scope_not_authorized are HTTP 401, rate_limit_exceeded 429 (600 a minute per endpoint,
 * https://developers.tiktok.com/doc/tiktok-api-v2-rate-limit), internal_error 500, invalid_params 400.
 */
async function tiktokFailure(request: Request, res: Response): Promise<Error> {
  const body = (await json(res)) as { error?: { code?: unknown } } | null;
  const code = body?.error?.code;
  if (res.status === 401 || code === "access_token_invalid" || code === "scope_not_authorized")
    return new SocialTokenRefused("TikTok refused the stored authorization.");
  return failed(request, "tiktok", typeof code === "string" ? code : `HTTP ${res.status}`, `TikTok answered HTTP ${res.status}.`);
}

/** GET /v2/user/info/?fields=open_id,display_name (https://developers.tiktok.com/doc/tiktok-api-v2-get-user-info). */
export async function tiktokMe(request: Request, accessToken: string) {
  const url = tiktokApi(request, "/v2/user/info/");
  url.searchParams.set("fields", "open_id,union_id,avatar_url,display_name");
  const res = await send(request, "tiktok", url, { headers: { Authorization: `Bearer ${accessToken}` } });
  if (!res.ok) throw await tiktokFailure(request, res);
  const user = tiktokUser(await json(res));
  if (!user) throw await failed(request, "tiktok", null, "TikTok answered /user/info without an open_id.");
  await answered(request, "tiktok");
  return user;
}

/**
 * POST /v2/video/query/?fields=id,view_count with {"filters":{"video_ids":[…]}} (at most 20): TikTok
 * returns only those of the ids that are the token owner's, so an id missing from the answer is not theirs.
 */
export async function tiktokQueryVideos(request: Request, accessToken: string, videoIds: string[]): Promise<Map<string, number | null>> {
  const url = tiktokApi(request, "/v2/video/query/");
  url.searchParams.set("fields", "id,view_count");
  const res = await send(request, "tiktok", url, {
    method: "POST",
    headers: { Authorization: `Bearer ${accessToken}`, "Content-Type": "application/json" },
    body: JSON.stringify({ filters: { video_ids: videoIds.slice(0, 20) } }),
  });
  if (!res.ok) throw await tiktokFailure(request, res);
  const videos = tiktokVideos(await json(res));
  if (!videos) throw await failed(request, "tiktok", null, "TikTok answered /video/query in another shape.");
  await answered(request, "tiktok");
  return videos;
}

/** POST /v2/oauth/revoke/ (https://developers.tiktok.com/doc/oauth-user-access-token-management): best effort. */
export async function tiktokRevoke(request: Request, accessToken: string): Promise<void> {
  try {
    await providerFetch(request, tiktokApi(request, "/v2/oauth/revoke/").toString(), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_key: setting("TIKTOK_CLIENT_KEY") ?? "", client_secret: setting("TIKTOK_CLIENT_SECRET") ?? "", token: accessToken }),
    });
  } catch (error) {
    console.error("TikTok revoke failed", error);
  }
}
