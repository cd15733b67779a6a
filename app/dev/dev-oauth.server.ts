import { readText } from "~/platform/body.server";
import { randomToken } from "~/platform/crypto.server";
import { DEMO_CHANNEL, demoChannelSnapshots } from "./demo-channel";
import { STAND_IN_CHANNELS, standInChannelFor } from "./dev-oauth-catalogue.server";
import { bearer, type CodeRecord, issueTokens, json, kv, s256, TOKEN_OUTAGE_KEY, type TokenRecord } from "./dev-oauth-grants.server";
import { standInThumbnail, standInThumbnailUrl } from "./dev-oauth-thumbnails.server";
import { standInVideosList } from "./dev-oauth-videos.server";

// The local stand-in identity provider (DEV_TOOLS only): authorize with a small account picker,
// token (authorization code + PKCE, refresh), userinfo, and the YouTube channels endpoint.
// State lives in KV under devoauth:* so it survives across requests; codes are one-time.

// The stand-in is five files: this one answers the API; dev-oauth-catalogue.server.ts holds its
// accounts, channels and videos, dev-oauth-grants.server.ts the codes and tokens,
// dev-oauth-videos.server.ts videos.list, dev-oauth-thumbnails.server.ts the images. Everything
// the pages, factories and tests import is re-exported here.
export {
  accountFromChoice,
  STAND_IN_ACCOUNTS,
  STAND_IN_CHANNELS,
  STAND_IN_VIDEOS,
  type StandInAccount,
  type StandInChannel,
  standInChoiceSchema,
} from "./dev-oauth-catalogue.server";
export { issueCode, issueStandInGrant, setStandInTokenOutage } from "./dev-oauth-grants.server";
export { standInThumbnailUrl } from "./dev-oauth-thumbnails.server";
export {
  exhaustStandInQuota,
  googleError,
  registerStandInVideo,
  resetStandInVideoCalls,
  STAND_IN_ERRORS,
  type StandInVideoCall,
  standInVideoCalls,
} from "./dev-oauth-videos.server";

/** The provider's API endpoints (token, userinfo, youtube channels, revoke). */
export async function handleDevOAuthApi(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname.replace(/^\/dev\/oauth\//, "");
  if (path === "token" && request.method === "POST") {
    // A token endpoint outage (tests): Google's 503 for a server error.
    if (await kv().get(TOKEN_OUTAGE_KEY)) return json({ error: "server_error", error_description: "The service is currently unavailable." }, 503);
    const form = new URLSearchParams(await readText(request, 16_384));
    const grant = form.get("grant_type");
    if (grant === "authorization_code") {
      const code = form.get("code") ?? "";
      const key = `devoauth:code:${code}`;
      const raw = code ? await kv().get(key) : null;
      if (!raw) return json({ error: "invalid_grant", error_description: "Invalid or used authorization code." }, 400);
      // One-time: the code is gone whatever happens next.
      await kv().delete(key);
      const record = JSON.parse(raw) as CodeRecord;
      const verifier = form.get("code_verifier") ?? "";
      if (record.method !== "S256" || !verifier || s256(verifier) !== record.challenge) {
        return json({ error: "invalid_grant", error_description: "PKCE verification failed." }, 400);
      }
      if (form.get("redirect_uri") !== record.redirectUri) {
        return json({ error: "invalid_grant", error_description: "redirect_uri mismatch." }, 400);
      }
      return issueTokens(record.account, record.scope);
    }
    if (grant === "refresh_token") {
      const refreshToken = form.get("refresh_token") ?? "";
      const raw = await kv().get(`devoauth:rt:${refreshToken}`);
      if (!raw) return json({ error: "invalid_grant", error_description: "Token has been expired or revoked." }, 400);
      const record = JSON.parse(raw) as TokenRecord;
      const accessToken = randomToken();
      await kv().put(`devoauth:at:${accessToken}`, JSON.stringify({ ...record, rt: refreshToken }), { expirationTtl: 3600 });
      return json({ access_token: accessToken, token_type: "Bearer", expires_in: 3600, scope: record.scope });
    }
    return json({ error: "unsupported_grant_type" }, 400);
  }
  if (path === "revoke" && request.method === "POST") {
    const form = new URLSearchParams(await readText(request, 16_384));
    const token = form.get("token") ?? "";
    await Promise.all([kv().delete(`devoauth:rt:${token}`), kv().delete(`devoauth:at:${token}`)]);
    return new Response(null, { status: 200 });
  }
  if (path === "userinfo") {
    const record = await bearer(request);
    if (!record) return json({ error: "invalid_token" }, 401);
    const a = record.account;
    return json({ sub: a.sub, email: a.email, email_verified: a.email_verified, name: a.name, picture: null });
  }
  if (path === "youtube/channels") {
    const record = await bearer(request);
    if (!record) return json({ error: { code: 401, message: "Invalid Credentials" } }, 401);
    if (!record.scope.split(/\s+/).includes("https://www.googleapis.com/auth/youtube.readonly")) {
      return json({ error: { code: 403, message: "Request had insufficient authentication scopes." } }, 403);
    }
    let channel = STAND_IN_CHANNELS[record.account.sub] ?? standInChannelFor(record.account);
    if (channel.id === DEMO_CHANNEL.channelId) {
      // Today's numbers of the seeded history, so a reconnect continues the demo chart.
      const [today] = demoChannelSnapshots(new Date(), 1);
      if (today) channel = { ...channel, subscriberCount: today.subscribers, viewCount: today.views, videoCount: today.videos };
    }
    return json({
      kind: "youtube#channelListResponse",
      items: [
        {
          kind: "youtube#channel",
          id: channel.id,
          snippet: {
            title: channel.title,
            description: channel.description,
            customUrl: channel.customUrl,
            thumbnails: { default: { url: standInThumbnailUrl("channel", channel.id) }, medium: { url: standInThumbnailUrl("channel", channel.id) } },
          },
          statistics: {
            subscriberCount: String(channel.subscriberCount),
            viewCount: String(channel.viewCount),
            videoCount: String(channel.videoCount),
            hiddenSubscriberCount: false,
          },
        },
      ],
    });
  }
  if (path === "youtube/videos") return standInVideosList(request);
  const [, thumbnailKind, thumbnailId] = /^youtube\/thumbnails\/(channel|video)\/([A-Za-z0-9_-]{1,64})\.png$/.exec(path) ?? [];
  if (thumbnailKind && thumbnailId && (request.method === "GET" || request.method === "HEAD")) {
    const png = await standInThumbnail(thumbnailKind as "channel" | "video", thumbnailId);
    return new Response(request.method === "HEAD" ? null : (png as Uint8Array<ArrayBuffer>), {
      headers: {
        "Content-Type": "image/png",
        "Content-Length": String(png.byteLength),
        "Cache-Control": "public, max-age=86400",
        "X-Content-Type-Options": "nosniff",
      },
    });
  }
  return json({ error: "not_found" }, 404);
}
