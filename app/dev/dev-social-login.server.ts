import { readText } from "~/platform/body.server";
import { randomToken } from "~/platform/crypto.server";
import { escapeHtml } from "~/platform/email-templates.server";
import { env, setting } from "~/platform/env.server";

// The stand-in for Instagram Login and TikTok Login Kit + Display API (decisions 0299, 0300),
// DEV_TOOLS only: the API under /dev/social/instagram/{oauth,graph}/… and /dev/social/tiktok/api/v2/…
// is answered in-process by outboundFetch; the authorize pages are routes (app/routes/dev/social.ts).
// Answers have the shapes of the providers' documented examples (tests/fixtures/providers/).
// An account is a username: the authorize page asks it. A registered post (registerStandInPost with
// an `author`) is that account's: in its /me/media (Instagram) and its video query (TikTok).

type Platform = "tiktok" | "instagram";
type Grant = { platform: Platform; account: string; scope: string };
type CodeRecord = Grant & { redirectUri: string };
type TokenRecord = Grant & { kind: "short" | "access" | "refresh"; rt?: string };
type StandInPost = { author?: string; missing?: boolean; unavailable?: boolean; views?: number | "unavailable" };

const kv = () => env.RATE_LIMITS;
const TTL = 60 * 60 * 24 * 30;

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });
}

/** A stable string of digits from a name (Instagram's ids are numeric strings). */
function digits(name: string, length = 13): string {
  let n = 7n;
  for (const ch of name) n = (n * 131n + BigInt(ch.charCodeAt(0))) % 10n ** BigInt(length);
  return n.toString().padStart(length, "0");
}

export const standInInstagramUserId = (account: string) => `1784${digits(account.toLowerCase())}`;
export const standInInstagramMediaId = (shortcode: string) => `1789${digits(shortcode)}`;
export const standInTikTokOpenId = (account: string) => `standin-${account.toLowerCase()}`;

function standInViews(id: string): number {
  let n = 0;
  for (const ch of id) n = (n * 31 + ch.charCodeAt(0)) % 100_000;
  return 2_000 + n;
}

/** Indexes a registered post under its author's account (called by registerStandInPost). */
export async function indexStandInPost(platform: Platform, id: string, author: string): Promise<void> {
  await kv().put(`devsocial:owned:${platform}:${author.toLowerCase()}:${id}`, "1", { expirationTtl: TTL });
  if (platform === "instagram") await kv().put(`devsocial:igmedia:${standInInstagramMediaId(id)}`, id, { expirationTtl: TTL });
}

async function owns(platform: Platform, account: string, id: string): Promise<boolean> {
  return (await kv().get(`devsocial:owned:${platform}:${account.toLowerCase()}:${id}`)) !== null;
}

async function postOf(platform: Platform, id: string): Promise<StandInPost | null> {
  const raw = await kv().get(`devsocial:${platform}:${id}`);
  return raw ? (JSON.parse(raw) as StandInPost) : null;
}

async function ownedIds(platform: Platform, account: string): Promise<string[]> {
  const prefix = `devsocial:owned:${platform}:${account.toLowerCase()}:`;
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await kv().list({ prefix, cursor });
    ids.push(...page.keys.map((k) => k.name.slice(prefix.length)));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return ids.sort();
}

async function issue(record: TokenRecord, prefix: string, ttl: number): Promise<string> {
  const token = `${prefix}${randomToken()}`;
  await kv().put(`devsocial:tok:${token}`, JSON.stringify(record), { expirationTtl: ttl });
  return token;
}

async function tokenOf(token: string | null, platform: Platform, kinds: TokenRecord["kind"][]): Promise<TokenRecord | null> {
  if (!token) return null;
  const raw = await kv().get(`devsocial:tok:${token}`);
  const record = raw ? (JSON.parse(raw) as TokenRecord) : null;
  if (!record || record.platform !== platform || !kinds.includes(record.kind)) return null;
  // A revoked grant (its refresh token gone) ends the access tokens issued from it too.
  if (record.rt && !(await kv().get(`devsocial:tok:${record.rt}`))) return null;
  return record;
}

// ---- The authorize pages (browser) -------------------------------------------------------------------

/**
 * GET /dev/social/instagram/oauth/authorize and /dev/social/tiktok/auth/authorize/: without `account`,
 * a small page asking which account to sign in as; with it, back to redirect_uri with a one-time
 * code and the state (or error=access_denied for "Cancel").
 */
export async function handleStandInAuthorize(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const platform: Platform | null = url.pathname.startsWith("/dev/social/instagram/")
    ? "instagram"
    : url.pathname.startsWith("/dev/social/tiktok/")
      ? "tiktok"
      : null;
  if (!platform) return new Response("Not Found", { status: 404 });
  const p = url.searchParams;
  const clientId = platform === "instagram" ? p.get("client_id") : p.get("client_key");
  const expected = setting(platform === "instagram" ? "INSTAGRAM_APP_ID" : "TIKTOK_CLIENT_KEY");
  let target: URL;
  try {
    target = new URL(p.get("redirect_uri") ?? "");
  } catch {
    return new Response("Invalid redirect_uri", { status: 400 });
  }
  if (target.origin !== url.origin) return new Response("redirect_uri must be this app", { status: 400 });
  if (!expected || clientId !== expected) return new Response("Unknown client", { status: 400 });
  if (p.get("response_type") !== "code" || !p.get("state")) return new Response("response_type=code and state are required", { status: 400 });
  const scope = p.get("scope") ?? "";
  const required = platform === "instagram" ? "instagram_business_basic" : "user.info.basic";
  if (!scope.split(",").includes(required)) return new Response(`scope must include ${required}`, { status: 400 });
  target.searchParams.set("state", p.get("state") ?? "");
  // Instagram appends #_ to the redirect (https://developers.facebook.com/docs/instagram-platform/reference/oauth-authorize).
  const withFragment = (u: URL) => (platform === "instagram" ? `${u.toString()}#_` : u.toString());
  if (p.has("deny")) {
    // The canceled redirect of Business Login (…/instagram-api-with-instagram-login/business-login,
    // "Canceled authorization"): error=access_denied, error_reason=user_denied, error_description.
    target.searchParams.set("error", "access_denied");
    if (platform === "instagram") target.searchParams.set("error_reason", "user_denied");
    target.searchParams.set("error_description", "The user denied your request");
    return Response.redirect(withFragment(target), 302);
  }
  const account = (p.get("account") ?? "").trim().replace(/^@/, "");
  if (/^[A-Za-z0-9._]{1,30}$/.test(account)) {
    const code = randomToken();
    const record: CodeRecord = { platform, account: account.toLowerCase(), scope, redirectUri: p.get("redirect_uri") ?? "" };
    await kv().put(`devsocial:code:${code}`, JSON.stringify(record), { expirationTtl: 600 });
    target.searchParams.set("code", code);
    return Response.redirect(withFragment(target), 302);
  }
  const label = platform === "instagram" ? "Instagram" : "TikTok";
  const hidden = [...p.entries()]
    .filter(([k]) => k !== "account" && k !== "deny")
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("");
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${label} (stand-in)</title></head>
<body style="font-family:system-ui;max-width:28rem;margin:2rem auto;padding:0 1rem">
<h1>${label} stand-in</h1><p>Shortbeat asks to read your profile, your posts and their views (${escapeHtml(scope)}).</p>
<form method="get">${hidden}<label for="account">Account username</label><br><input id="account" name="account" required pattern="@?[A-Za-z0-9._]{1,30}" autocomplete="off" style="width:100%;padding:.5rem;margin:.25rem 0 1rem">
<button type="submit">Allow</button> <button type="submit" name="deny" value="1" formnovalidate>Cancel</button></form></body></html>`;
  return new Response(page, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}

// ---- Instagram API with Instagram Login ----------------------------------------------------------------

const graphError = (message: string, code: number, status = 400, type = "OAuthException") =>
  json({ error: { message, type, code, fbtrace_id: "AstandinTrace" } }, status);
const badToken = () => graphError("Invalid OAuth access token - Cannot parse access token", 190);

async function instagram(request: Request, path: string): Promise<Response> {
  const url = new URL(request.url);
  const q = url.searchParams;
  if (path === "oauth/access_token" && request.method === "POST") {
    const form = new URLSearchParams(await readText(request, 16_384));
    if (form.get("client_id") !== setting("INSTAGRAM_APP_ID") || form.get("client_secret") !== setting("INSTAGRAM_APP_SECRET")) {
      return json({ error_type: "OAuthException", code: 400, error_message: "Invalid client_id or client_secret" }, 400);
    }
    const code = form.get("code") ?? "";
    const raw = code ? await kv().get(`devsocial:code:${code}`) : null;
    if (raw) await kv().delete(`devsocial:code:${code}`);
    const record = raw ? (JSON.parse(raw) as CodeRecord) : null;
    // Business Login, Step 2 (https://developers.facebook.com/documentation/instagram-platform/instagram-api-with-instagram-login/business-login):
    // a code used already or never issued is the page's "Sample Rejected Response"; success is the
    // token wrapped in data[0] with user_id a string and the granted permissions comma-separated
    // (tests/fixtures/providers/instagram.json, codeExchange and codeExchangeRejected).
    if (record?.platform !== "instagram" || form.get("grant_type") !== "authorization_code" || form.get("redirect_uri") !== record.redirectUri) {
      return json({ error_type: "OAuthException", code: 400, error_message: "Matching code was not found or was already used" }, 400);
    }
    const token = await issue({ ...record, kind: "short" }, "IGQV", 3600);
    return json({ data: [{ access_token: token, user_id: standInInstagramUserId(record.account), permissions: record.scope }] });
  }
  if (path === "graph/access_token" || path === "graph/refresh_access_token") {
    const exchange = path === "graph/access_token";
    if (exchange && (q.get("grant_type") !== "ig_exchange_token" || q.get("client_secret") !== setting("INSTAGRAM_APP_SECRET"))) {
      return graphError("Invalid grant_type or client_secret", 100);
    }
    if (!exchange && q.get("grant_type") !== "ig_refresh_token") return graphError("Invalid grant_type", 100);
    const record = await tokenOf(q.get("access_token"), "instagram", exchange ? ["short"] : ["access"]);
    if (!record) return badToken();
    const token = await issue({ platform: "instagram", account: record.account, scope: record.scope, kind: "access" }, "IGAA", TTL);
    return json({ access_token: token, token_type: "bearer", expires_in: 5183944 });
  }
  const record = await tokenOf(q.get("access_token"), "instagram", ["access", "short"]);
  if (path.startsWith("graph/") && !record) return badToken();
  if (!record) return json({ error: "not_found" }, 404);
  if (path === "graph/me") {
    return json({ user_id: standInInstagramUserId(record.account), username: record.account, id: `2${digits(record.account, 16)}` });
  }
  if (path === "graph/me/media") {
    const ids = await ownedIds("instagram", record.account);
    const limit = Math.min(Math.max(Number(q.get("limit") ?? 25) || 25, 1), 100);
    const start = Number(q.get("after") ?? 0) || 0;
    const page = ids.slice(start, start + limit);
    const data = page.map((code) => ({
      id: standInInstagramMediaId(code),
      shortcode: code,
      permalink: `https://www.instagram.com/reel/${code}/`,
      media_product_type: "REELS",
    }));
    const next = start + limit < ids.length ? new URL(url) : null;
    next?.searchParams.set("after", String(start + limit));
    return json({ data, paging: { cursors: { before: String(start), after: String(start + page.length) }, ...(next ? { next: next.toString() } : {}) } });
  }
  const insights = /^graph\/(\d+)\/insights$/.exec(path);
  if (insights) {
    const code = await kv().get(`devsocial:igmedia:${insights[1]}`);
    if (!code || !(await owns("instagram", record.account, code))) {
      return graphError(
        `Unsupported get request. Object with ID '${insights[1]}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        100,
        400,
        "GraphMethodException",
      );
    }
    if (!(q.get("metric") ?? "").split(",").includes("views")) return graphError("(#100) metric must be one of the following values: views, reach, …", 100);
    const post = await postOf("instagram", code);
    if (post?.views === "unavailable" || post?.unavailable) return graphError("An unexpected error has occurred. Please retry your request later.", 2, 500);
    const views = post?.views ?? standInViews(code);
    return json({
      data: [
        {
          name: "views",
          period: "lifetime",
          values: [{ value: views }],
          title: "Views",
          description: "The number of times your reel was played or displayed.",
          id: `${insights[1]}/insights/views/lifetime`,
        },
      ],
    });
  }
  return graphError("Unknown path components", 2500);
}

// ---- TikTok Login Kit + Display API ----------------------------------------------------------------------

const tiktokOk = { code: "ok", message: "", log_id: "20261206000000STANDIN0000000000" };
const tiktokError = (code: string, message: string, status: number) => json({ data: {}, error: { code, message, log_id: tiktokOk.log_id } }, status);

async function bearer(request: Request): Promise<TokenRecord | null> {
  return tokenOf(/^Bearer (.+)$/.exec(request.headers.get("Authorization") ?? "")?.[1] ?? null, "tiktok", ["access"]);
}

async function tiktokTokens(grant: Grant): Promise<Response> {
  const refresh = await issue({ ...grant, kind: "refresh" }, "rft.", 31536000);
  const access = await issue({ ...grant, kind: "access", rt: refresh }, "act.", 86400);
  return json({
    access_token: access,
    expires_in: 86400,
    open_id: standInTikTokOpenId(grant.account),
    refresh_expires_in: 31536000,
    refresh_token: refresh,
    scope: grant.scope,
    token_type: "Bearer",
  });
}

async function tiktok(request: Request, path: string): Promise<Response> {
  const fail = (error: string, description: string) => json({ error, error_description: description, log_id: tiktokOk.log_id }, 400);
  if ((path === "api/v2/oauth/token/" || path === "api/v2/oauth/revoke/") && request.method === "POST") {
    const form = new URLSearchParams(await readText(request, 16_384));
    if (form.get("client_key") !== setting("TIKTOK_CLIENT_KEY") || form.get("client_secret") !== setting("TIKTOK_CLIENT_SECRET")) {
      return fail("invalid_client", "Client key or secret is incorrect.");
    }
    if (path === "api/v2/oauth/revoke/") {
      const record = await tokenOf(form.get("token"), "tiktok", ["access"]);
      if (record?.rt) await kv().delete(`devsocial:tok:${record.rt}`);
      await kv().delete(`devsocial:tok:${form.get("token") ?? ""}`);
      return json({});
    }
    const grant = form.get("grant_type");
    if (grant === "authorization_code") {
      const code = form.get("code") ?? "";
      const raw = code ? await kv().get(`devsocial:code:${code}`) : null;
      if (raw) await kv().delete(`devsocial:code:${code}`);
      const record = raw ? (JSON.parse(raw) as CodeRecord) : null;
      if (record?.platform !== "tiktok") return fail("invalid_grant", "Authorization code is expired.");
      if (form.get("redirect_uri") !== record.redirectUri) return fail("invalid_request", "The redirect_uri does not match.");
      return tiktokTokens(record);
    }
    if (grant === "refresh_token") {
      const token = form.get("refresh_token") ?? "";
      const record = await tokenOf(token, "tiktok", ["refresh"]);
      if (!record) return fail("invalid_grant", "Refresh token is invalid or expired.");
      // Rotated: the refresh token sent stops working (https://developers.tiktok.com/docs/en/oauth-refresh-a-user-access-token).
      await kv().delete(`devsocial:tok:${token}`);
      return tiktokTokens(record);
    }
    return fail("invalid_request", "grant_type is not supported.");
  }
  const record = await bearer(request);
  if (!record) return tiktokError("access_token_invalid", "The access token is invalid or not found in the request.", 401);
  if (path === "api/v2/user/info/" && request.method === "GET") {
    return json({
      data: {
        user: {
          avatar_url: "https://p16-sign.tiktokcdn-us.com/standin-avatar.jpeg",
          open_id: standInTikTokOpenId(record.account),
          union_id: `union-${record.account}`,
          display_name: record.account,
        },
      },
      error: tiktokOk,
    });
  }
  if (path === "api/v2/video/query/" && request.method === "POST") {
    if (!record.scope.split(",").includes("video.list"))
      return tiktokError("scope_not_authorized", "The user did not authorize the scope required for completing this request.", 401);
    let ids: unknown;
    try {
      ids = (JSON.parse(await readText(request, 16_384)) as { filters?: { video_ids?: unknown } }).filters?.video_ids;
    } catch {
      ids = null;
    }
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > 20 || !ids.every((id) => typeof id === "string")) {
      return tiktokError("invalid_params", "filters.video_ids must be 1 to 20 strings.", 400);
    }
    const fields = (new URL(request.url).searchParams.get("fields") ?? "").split(",");
    const videos = [];
    for (const id of ids as string[]) {
      if (!(await owns("tiktok", record.account, id))) continue;
      const post = await postOf("tiktok", id);
      if (post?.views === "unavailable" || post?.unavailable) return tiktokError("internal_error", "Something went wrong. Please try again later.", 500);
      const video: Record<string, unknown> = { id };
      if (fields.includes("view_count")) video.view_count = post?.views ?? standInViews(id);
      if (fields.includes("title")) video.title = `Stand-in TikTok ${id}`;
      videos.push(video);
    }
    return json({ data: { videos }, error: tiktokOk });
  }
  return tiktokError("invalid_params", "Unknown endpoint.", 404);
}

/** The in-process API of both platforms (outboundFetch → handleStandInSocial → here), or null for another path. */
export async function handleStandInSocialLogin(request: Request, path: string): Promise<Response | null> {
  if (path.startsWith("instagram/oauth/access_token") || path.startsWith("instagram/graph/")) return instagram(request, path.replace(/^instagram\//, ""));
  if (path.startsWith("tiktok/api/")) return tiktok(request, path.replace(/^tiktok\//, ""));
  return null;
}
