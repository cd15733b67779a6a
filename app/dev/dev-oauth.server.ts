import { sha256 } from "@oslojs/crypto/sha2";
import { readText } from "~/platform/body.server";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import { z } from "zod";
import { invalid } from "~/lib/errors";
import { DEMO_CHANNEL, demoChannelSnapshots } from "./demo-channel";
import { encodePng, hsl } from "./png";
import { randomToken } from "~/platform/crypto.server";
import { env, setting } from "~/platform/env.server";

// The local stand-in identity provider (DEV_TOOLS only): authorize with a small account picker,
// token (authorization code + PKCE, refresh), userinfo, and the YouTube channels endpoint.
// State lives in KV under devoauth:* so it survives across requests; codes are one-time.

export type StandInAccount = { sub: string; email: string; name: string; email_verified: boolean };

export const STAND_IN_ACCOUNTS: StandInAccount[] = [
  { sub: "google-sam-0001", email: "sam.google@example.com", name: "Sam Google", email_verified: true },
  { sub: "google-casey-0002", email: "creator@shortbeat.test", name: "Casey Creator", email_verified: true },
  { sub: "google-una-0003", email: "unverified.google@example.com", name: "Una Unverified", email_verified: false },
];

export type StandInChannel = {
  id: string;
  title: string;
  customUrl: string;
  description: string;
  subscriberCount: number;
  viewCount: number;
  videoCount: number;
};

/** Fake YouTube channels, one per stand-in subject (the channels?mine=true answer). */
export const STAND_IN_CHANNELS: Record<string, StandInChannel> = {
  "google-sam-0001": {
    id: "UCstandinSamShorts00001",
    title: "Sam's Shorts",
    customUrl: "@samshorts",
    description: "Quick science facts in under a minute.",
    subscriberCount: 12800,
    viewCount: 2450000,
    videoCount: 148,
  },
  // The seed's demo channel, so creator@shortbeat.test can reconnect it (numbers: see below).
  "google-casey-0002": {
    id: DEMO_CHANNEL.channelId,
    title: DEMO_CHANNEL.title,
    customUrl: DEMO_CHANNEL.handle,
    description: DEMO_CHANNEL.description,
    subscriberCount: 0,
    viewCount: 0,
    videoCount: 0,
  },
  "google-una-0003": {
    id: "UCstandinUnaTravels0003",
    title: "Una Travels",
    customUrl: "@unatravels",
    description: "Travel Shorts.",
    subscriberCount: 900,
    viewCount: 51000,
    videoCount: 23,
  },
};

/**
 * Fake YouTube videos and the channel each is on (the videos?id= answer, issue 15's campaign check).
 * Tests and demos add more with `registerStandInVideo` (KV devoauth:video:<id>).
 */
export const STAND_IN_VIDEOS: Record<string, string> = {
  caseyShort1: DEMO_CHANNEL.channelId,
  caseyShort2: DEMO_CHANNEL.channelId,
  caseyShort3: DEMO_CHANNEL.channelId,
  samShorts01: "UCstandinSamShorts00001",
};

export async function registerStandInVideo(videoId: string, channelId: string, views?: number | "unavailable"): Promise<void> {
  await kv().put(`devoauth:video:${videoId}`, channelId, { expirationTtl: 60 * 60 * 24 * 30 });
  // Its view count (clipping, issue 16), or "unavailable": the stand-in then lists it without statistics.
  if (views !== undefined) await kv().put(`devoauth:video-views:${videoId}`, String(views), { expirationTtl: 60 * 60 * 24 * 30 });
}

/** A stand-in video's views when none were registered: a stable number from its id. */
function standInViews(id: string): number {
  let n = 0;
  for (const ch of id) n = (n * 31 + ch.charCodeAt(0)) % 100_000;
  return 1_000 + n;
}

type CodeRecord = {
  account: StandInAccount;
  challenge: string;
  method: string;
  redirectUri: string;
  clientId: string;
  scope: string;
};
// rt: the refresh token an access token came from, so revoking the grant ends both (as Google does).
type TokenRecord = { account: StandInAccount; scope: string; rt?: string };

const kv = () => env.RATE_LIMITS;

function s256(verifier: string): string {
  return encodeBase64urlNoPadding(sha256(new TextEncoder().encode(verifier)));
}

/** Issues an authorization code for the chosen account (the picker's POST). */
export async function issueCode(params: URLSearchParams, account: StandInAccount): Promise<string> {
  const code = randomToken();
  const record: CodeRecord = {
    account,
    challenge: params.get("code_challenge") ?? "",
    method: params.get("code_challenge_method") ?? "",
    redirectUri: params.get("redirect_uri") ?? "",
    clientId: params.get("client_id") ?? "",
    scope: params.get("scope") ?? "",
  };
  await kv().put(`devoauth:code:${code}`, JSON.stringify(record), { expirationTtl: 600 });
  return code;
}

/**
 * The picker's forms: an account button, "Use another account" (name, e-mail, and whether Google
 * reports that e-mail as unverified), or Cancel.
 */
export const standInChoiceSchema = z.object({
  intent: z.string().optional(),
  account: z.string().optional(),
  name: z.string().optional(),
  email: z.string().optional(),
  unverified: z.string().optional(),
});

/** The account the picker's POST chose: a listed one, or the one typed in (a valid e-mail). */
export function accountFromChoice(choice: z.output<typeof standInChoiceSchema>): StandInAccount {
  const known = STAND_IN_ACCOUNTS.find((a) => a.sub === choice.account);
  if (known) return known;
  const email = (choice.email ?? "").trim().toLowerCase();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
    throw invalid("Enter a valid e-mail address.", { fieldErrors: { email: "Enter a valid e-mail address." } });
  }
  const [localPart = email] = email.split("@");
  const name = (choice.name ?? "").trim() || localPart;
  return { sub: `google-custom-${email}`, email, name, email_verified: choice.unverified !== "on" };
}

function json(body: unknown, status = 200) {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
}

async function issueTokens(account: StandInAccount, scope: string) {
  const accessToken = randomToken();
  const refreshToken = randomToken();
  const record: TokenRecord = { account, scope };
  await Promise.all([
    kv().put(`devoauth:at:${accessToken}`, JSON.stringify({ ...record, rt: refreshToken }), { expirationTtl: 3600 }),
    kv().put(`devoauth:rt:${refreshToken}`, JSON.stringify(record), { expirationTtl: 60 * 60 * 24 * 30 }),
  ]);
  return json({ access_token: accessToken, token_type: "Bearer", expires_in: 3600, refresh_token: refreshToken, scope });
}

async function bearer(request: Request): Promise<TokenRecord | null> {
  const token = /^Bearer (.+)$/.exec(request.headers.get("Authorization") ?? "")?.[1];
  if (!token) return null;
  const raw = await kv().get(`devoauth:at:${token}`);
  if (!raw) return null;
  const record = JSON.parse(raw) as TokenRecord;
  // A revoked grant (refresh token gone) also ends the access tokens issued from it.
  if (record.rt && !(await kv().get(`devoauth:rt:${record.rt}`))) return null;
  return record;
}

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

// ---- videos.list (decision 0303) ----------------------------------------------------------------
// As Google answers (https://developers.google.com/youtube/v3/docs/videos/list, /docs/errors): a
// request must carry an OAuth token or an API key — neither is a 403 `forbidden` ("The request is
// missing a valid API key."); an unknown key is a 400 `badRequest` ("API key not valid"); a revoked or
// expired token is a 401. `id` is a comma-separated list of at most 50 ids; unknown ids are simply
// absent from `items`. With the quota spent (exhaustStandInQuota) every call is a 403 `quotaExceeded`.
// Each call is recorded (standInVideoCalls) so tests can count them.

const QUOTA_KEY = "devoauth:quota-exceeded";
const TOKEN_OUTAGE_KEY = "devoauth:token-outage";

/** Google's error envelope (https://developers.google.com/youtube/v3/docs/errors). */
export function googleError(code: number, reason: string, message: string, status: string, domain = "global") {
  return { error: { code, message, errors: [{ message, domain, reason }], status } };
}

export const STAND_IN_ERRORS = {
  missingKey: googleError(403, "forbidden", "The request is missing a valid API key.", "PERMISSION_DENIED"),
  keyInvalid: googleError(400, "badRequest", "API key not valid. Please pass a valid API key.", "INVALID_ARGUMENT"),
  invalidCredentials: googleError(401, "authError", "Invalid Credentials", "UNAUTHENTICATED"),
  quotaExceeded: googleError(
    403,
    "quotaExceeded",
    'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
    "PERMISSION_DENIED",
    "youtube.quota",
  ),
} as const;

export type StandInVideoCall = { ids: string[]; credential: "key" | "bearer" };
const videoCalls: StandInVideoCall[] = [];

/** The videos.list calls the stand-in answered since the last reset (tests count them). */
export function standInVideoCalls(): readonly StandInVideoCall[] {
  return videoCalls;
}
export function resetStandInVideoCalls(): void {
  videoCalls.length = 0;
}

/** Spends (or restores) the stand-in project's daily quota: videos.list answers 403 quotaExceeded. */
export async function exhaustStandInQuota(spent = true): Promise<void> {
  if (spent) await kv().put(QUOTA_KEY, "1", { expirationTtl: 3600 });
  else await kv().delete(QUOTA_KEY);
}

/** Takes the stand-in token endpoint down (503) or brings it back. */
export async function setStandInTokenOutage(down: boolean): Promise<void> {
  if (down) await kv().put(TOKEN_OUTAGE_KEY, "1", { expirationTtl: 3600 });
  else await kv().delete(TOKEN_OUTAGE_KEY);
}

/**
 * A grant for `account` as the code exchange issues it (tests and factories that link a channel
 * without the browser round trip): the access and refresh tokens, valid at the stand-in.
 */
export async function issueStandInGrant(account: StandInAccount, scope = "https://www.googleapis.com/auth/youtube.readonly") {
  const res = await issueTokens(account, scope);
  return (await res.json()) as { access_token: string; refresh_token: string; expires_in: number };
}

async function standInVideosList(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const key = url.searchParams.get("key");
  const hasBearer = /^Bearer ./.test(request.headers.get("Authorization") ?? "");
  if (!key && !hasBearer) return json(STAND_IN_ERRORS.missingKey, 403);
  if (key && key !== setting("YOUTUBE_API_KEY")) return json(STAND_IN_ERRORS.keyInvalid, 400);
  if (!key && !(await bearer(request))) return json(STAND_IN_ERRORS.invalidCredentials, 401);
  const ids = (url.searchParams.get("id") ?? "").split(",").filter(Boolean);
  videoCalls.push({ ids, credential: key ? "key" : "bearer" });
  if (await kv().get(QUOTA_KEY)) return json(STAND_IN_ERRORS.quotaExceeded, 403);
  if (ids.length > 50) return json(googleError(400, "invalidFilters", "The request specifies an invalid filter parameter.", "INVALID_ARGUMENT"), 400);
  const items: youtubeVideoItem[] = [];
  for (const id of ids) {
    const channelId = (await kv().get(`devoauth:video:${id}`)) ?? STAND_IN_VIDEOS[id] ?? null;
    if (!channelId) continue;
    const views = await kv().get(`devoauth:video-views:${id}`);
    // A video registered with views "unavailable" is listed without its statistics: its views cannot
    // be read (the others of the same call can).
    items.push({
      kind: "youtube#video",
      id,
      snippet: { channelId, title: `Stand-in video ${id}`, thumbnails: { medium: { url: standInThumbnailUrl("video", id) } } },
      ...(views === "unavailable" ? {} : { statistics: { viewCount: views ?? String(standInViews(id)) } }),
    });
  }
  return json({ kind: "youtube#videoListResponse", pageInfo: { totalResults: items.length, resultsPerPage: items.length }, items });
}

type youtubeVideoItem = {
  kind: "youtube#video";
  id: string;
  snippet: { channelId: string; title: string; thumbnails: { medium: { url: string } } };
  statistics?: { viewCount: string };
};

// ---- Thumbnails (decision 0185) ----------------------------------------------------------------
// YouTube answers image URLs on its own hosts; the stand-in answers a path on our own origin
// (no network locally), which the channels module keeps only in development builds with
// DEV_TOOLS=1 (channelImageUrl). The images are drawn here: a channel's is a 240×240 avatar (a
// head-and-shoulders silhouette on a colour of its id), a video's a 320×180 frame in its channel's colours.

/** The stand-in's thumbnail of a channel or a video (a root-relative path on our own origin). */
export function standInThumbnailUrl(kind: "channel" | "video", id: string): string {
  return `/dev/oauth/youtube/thumbnails/${kind}/${encodeURIComponent(id)}.png`;
}

function hueOf(id: string): number {
  let n = 7;
  for (const ch of id) n = (n * 31 + ch.charCodeAt(0)) % 360;
  return n;
}

async function standInThumbnail(kind: "channel" | "video", id: string): Promise<Uint8Array> {
  const hue = hueOf(kind === "video" ? (STAND_IN_VIDEOS[id] ?? id) : id);
  const [width, height] = kind === "channel" ? [240, 240] : [320, 180];
  const figure = hsl((hue + 180) % 360, 0.35, 0.88);
  const [cx, unit] = [width / 2, height / 240];
  return encodePng(width, height, (x, y) => {
    const head = (x - cx) ** 2 + (y - 96 * unit) ** 2 <= (46 * unit) ** 2;
    const shoulders = ((x - cx) / (92 * unit)) ** 2 + ((y - 244 * unit) / (96 * unit)) ** 2 <= 1;
    return head || shoulders ? figure : hsl(hue, 0.55, 0.3 + 0.25 * (y / height));
  });
}

function standInChannelFor(account: StandInAccount): StandInChannel {
  const slug = (account.email.split("@")[0] ?? "").replace(/[^a-z0-9]/gi, "").slice(0, 20) || "channel";
  return {
    id: `UCstandin${slug}`.slice(0, 24),
    title: `${account.name}'s Channel`,
    customUrl: `@${slug}`,
    description: "A stand-in channel.",
    subscriberCount: 1000,
    viewCount: 100000,
    videoCount: 10,
  };
}
