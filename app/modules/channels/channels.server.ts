import type { OAuth2Tokens } from "arctic";
import {
  buildAnalytics,
  rangeDays,
  type AnalyticsData,
  type AnalyticsRange,
  type Snapshot,
} from "./analytics";
import { CHANNEL_TOASTS, type ManualSubmissionInput } from "./schema";
import { auditStatement } from "~/platform/audit.server";
import { env } from "~/platform/env.server";
import {
  OAuthError,
  beginAuthorization,
  completeAuthorization,
  endpoints,
  providerFetch,
  refreshAccessToken,
} from "~/platform/oauth.server";
import { notifyUser } from "~/modules/notifications/notifications.server";
import { decryptToken, encryptToken } from "~/platform/token-crypto.server";

// The Channels domain: linking a YouTube channel (OAuth code + PKCE through oauth.server.ts),
// refreshing its statistics into dated snapshots, disconnecting, manual submissions and their
// verification by admins, and the analytics read from the snapshots.
// Every query that reads or changes a user's channel names the user in its WHERE clause.
// See docs/decisions/0030-0032.

export const YOUTUBE_SCOPE = "https://www.googleapis.com/auth/youtube.readonly";
export const YOUTUBE_FLOW_COOKIE = "sb_youtube_oauth";
/** Refresh the access token when it has less than this left (the spec's token refresh margin). */
const TOKEN_MARGIN_MS = 90_000;

/** A failure to show the user: `message` is the toast's description. */
export class ChannelError extends Error {
  constructor(
    message: string,
    readonly status = 400,
    /** The grant is gone (revoked, expired, missing): offer to reconnect. */
    readonly reconnect = false,
  ) {
    super(message);
  }
}

const nowIso = () => new Date().toISOString();
const dayOf = (iso: string) => iso.slice(0, 10);

// ---------------------------------------------------------------------------------------------
// Reading the user's channels and submissions
// ---------------------------------------------------------------------------------------------

export type LinkedChannel = {
  id: string;
  channelId: string;
  title: string;
  handle: string | null;
  subscriberCount: number;
  viewCount: number;
  videoCount: number;
  thumbnailUrl: string | null;
  description: string | null;
  createdAt: string;
  lastSyncedAt: string | null;
  /** Whether an authorization is stored (a channel without one can only be reconnected). */
  authorized: boolean;
};

type ChannelRow = {
  id: string;
  channel_id: string;
  channel_title: string;
  channel_handle: string | null;
  subscriber_count: number;
  view_count: number;
  video_count: number;
  thumbnail_url: string | null;
  description: string | null;
  created_at: string;
  last_synced_at: string | null;
  authorized: number;
};

/** The user's linked channels, newest first (spec: own rows ordered by created_at descending). */
export async function listChannels(userId: string): Promise<LinkedChannel[]> {
  const { results } = await env.DB.prepare(
    `SELECT c.id, c.channel_id, c.channel_title, c.channel_handle, c.subscriber_count, c.view_count, c.video_count,
            c.thumbnail_url, c.description, c.created_at, c.last_synced_at,
            EXISTS (SELECT 1 FROM youtube_channel_tokens t WHERE t.channel_row_id = c.id) AS authorized
     FROM youtube_channels c WHERE c.user_id = ? ORDER BY c.created_at DESC, c.id`,
  )
    .bind(userId)
    .all<ChannelRow>();
  return results.map((r) => ({
    id: r.id,
    channelId: r.channel_id,
    title: r.channel_title,
    handle: r.channel_handle,
    subscriberCount: r.subscriber_count,
    viewCount: r.view_count,
    videoCount: r.video_count,
    thumbnailUrl: r.thumbnail_url && /^https:\/\//.test(r.thumbnail_url) ? r.thumbnail_url : null,
    description: r.description,
    createdAt: r.created_at,
    lastSyncedAt: r.last_synced_at,
    authorized: r.authorized === 1,
  }));
}

export type ManualSubmission = {
  id: string;
  channelName: string;
  channelUrl: string | null;
  subscriberCount: number;
  avgMonthlyViews: number;
  status: "pending" | "verification_submitted" | "verified" | "rejected";
  verificationSubmittedAt: string | null;
  rejectionReason: string | null;
  reviewedAt: string | null;
  createdAt: string;
};

type SubmissionRow = {
  id: string;
  channel_name: string;
  channel_url: string | null;
  subscriber_count: number;
  avg_monthly_views: number;
  status: ManualSubmission["status"];
  verification_submitted_at: string | null;
  rejection_reason: string | null;
  reviewed_at: string | null;
  created_at: string;
};

function toSubmission(r: SubmissionRow): ManualSubmission {
  return {
    id: r.id,
    channelName: r.channel_name,
    channelUrl: r.channel_url,
    subscriberCount: r.subscriber_count,
    avgMonthlyViews: r.avg_monthly_views,
    status: r.status,
    verificationSubmittedAt: r.verification_submitted_at,
    rejectionReason: r.rejection_reason,
    reviewedAt: r.reviewed_at,
    createdAt: r.created_at,
  };
}

const SUBMISSION_COLUMNS = `m.id, m.channel_name, m.channel_url, m.subscriber_count, m.avg_monthly_views, m.status,
  m.verification_submitted_at, m.rejection_reason, m.reviewed_at, m.created_at`;

/** The user's manual submissions, newest first. */
export async function listSubmissions(userId: string): Promise<ManualSubmission[]> {
  const { results } = await env.DB.prepare(
    `SELECT ${SUBMISSION_COLUMNS} FROM manual_channel_submissions m WHERE m.user_id = ? ORDER BY m.created_at DESC, m.id`,
  )
    .bind(userId)
    .all<SubmissionRow>();
  return results.map(toSubmission);
}

// ---------------------------------------------------------------------------------------------
// The provider: the YouTube Data API v3 channels?mine=true (snippet, statistics)
// ---------------------------------------------------------------------------------------------

export type ProviderChannel = {
  id: string;
  title: string;
  handle: string | null;
  description: string | null;
  thumbnailUrl: string | null;
  subscriberCount: number;
  viewCount: number;
  videoCount: number;
};

/** Writes what the provider says of a channel onto its row (only the owner's row matches). */
function channelStatsStatement(rowId: string, userId: string, channel: ProviderChannel, syncedAt: string): D1PreparedStatement {
  return env.DB.prepare(
    `UPDATE youtube_channels SET channel_title = ?, channel_handle = ?, subscriber_count = ?, view_count = ?, video_count = ?,
       thumbnail_url = ?, description = ?, updated_at = ?, last_synced_at = ? WHERE id = ? AND user_id = ?`,
  ).bind(
    channel.title,
    channel.handle,
    channel.subscriberCount,
    channel.viewCount,
    channel.videoCount,
    channel.thumbnailUrl,
    channel.description,
    syncedAt,
    syncedAt,
    rowId,
    userId,
  );
}

class ProviderUnauthorized extends Error {}

function toCount(value: unknown): number {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d+$/.test(value) ? Number(value) : 0;
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

function text(value: unknown, max: number): string | null {
  return typeof value === "string" && value.trim() ? value.trim().slice(0, max) : null;
}

/** Reads the channel the access token belongs to. */
export async function fetchOwnChannel(request: Request, accessToken: string): Promise<ProviderChannel> {
  const url = new URL(endpoints(request).youtubeChannels);
  url.searchParams.set("part", "snippet,statistics");
  url.searchParams.set("mine", "true");
  let res: Response;
  try {
    res = await providerFetch(request, url.toString(), { headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" } });
  } catch (error) {
    throw new ChannelError(`YouTube could not be reached: ${(error as Error).message}`, 502);
  }
  const body = (await res.json().catch(() => ({}))) as { items?: unknown[]; error?: { message?: string } | string };
  if (res.status === 401) throw new ProviderUnauthorized("Invalid Credentials");
  if (!res.ok) {
    const message = typeof body.error === "string" ? body.error : body.error?.message;
    throw new ChannelError(`YouTube answered with an error: ${message ?? `HTTP ${res.status}`}`, 502);
  }
  const item = (Array.isArray(body.items) ? body.items[0] : null) as
    | { id?: unknown; snippet?: Record<string, unknown>; statistics?: Record<string, unknown> }
    | null;
  if (!item || typeof item.id !== "string" || !item.id) {
    throw new ChannelError("No YouTube channel was found for this Google account.", 404);
  }
  const snippet = item.snippet ?? {};
  const stats = item.statistics ?? {};
  const thumbs = (snippet.thumbnails ?? {}) as Record<string, { url?: unknown } | undefined>;
  const thumb = text(thumbs.medium?.url ?? thumbs.default?.url, 500);
  return {
    id: item.id.slice(0, 64),
    title: text(snippet.title, 200) ?? item.id,
    handle: text(snippet.customUrl, 100),
    description: text(snippet.description, 1000),
    thumbnailUrl: thumb && /^https:\/\//.test(thumb) ? thumb : null,
    subscriberCount: toCount(stats.subscriberCount),
    viewCount: toCount(stats.viewCount),
    videoCount: toCount(stats.videoCount),
  };
}

/** Google's revoke endpoint sits beside its token endpoint (…/token → …/revoke), as the stand-in's does. */
function revokeEndpoint(request: Request): string {
  const override = (env as unknown as Record<string, unknown>).GOOGLE_REVOKE_URL;
  if (typeof override === "string" && override) return new URL(override, request.url).toString();
  return endpoints(request).token.replace(/\/token(\?.*)?$/, "/revoke");
}

async function revokeAtProvider(request: Request, token: string): Promise<void> {
  try {
    await providerFetch(request, revokeEndpoint(request), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token }),
    });
  } catch (error) {
    // Best effort: the channel and its tokens are already gone from our side.
    console.error("token revocation failed", error);
  }
}

// ---------------------------------------------------------------------------------------------
// Statements shared by link and refresh
// ---------------------------------------------------------------------------------------------

function snapshotStatement(channelRowId: string, day: string, c: Pick<ProviderChannel, "subscriberCount" | "viewCount" | "videoCount">) {
  // One snapshot per channel per day; the latest refresh of the day wins.
  return env.DB.prepare(
    `INSERT INTO channel_snapshots (id, channel_row_id, day, subscriber_count, view_count, video_count)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (channel_row_id, day) DO UPDATE SET
       subscriber_count = excluded.subscriber_count, view_count = excluded.view_count, video_count = excluded.video_count`,
  ).bind(crypto.randomUUID(), channelRowId, day, c.subscriberCount, c.viewCount, c.videoCount);
}

function expiresAtOf(tokens: OAuth2Tokens): string | null {
  try {
    return tokens.accessTokenExpiresAt().toISOString();
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Linking
// ---------------------------------------------------------------------------------------------

/** Starts the link: the redirect to Google's consent screen (or the stand-in's). */
export function startChannelLink(request: Request, userId: string): Promise<Response> {
  return beginAuthorization(request, {
    cookieName: YOUTUBE_FLOW_COOKIE,
    callbackPath: "/channels",
    scopes: [YOUTUBE_SCOPE],
    payload: { userId },
    // A refresh token (offline access) is what lets the daily job keep the statistics current.
    params: { access_type: "offline", prompt: "consent" },
  });
}

export type LinkResult = { channelRowId: string; title: string; relinked: boolean };

/**
 * Finishes the link on the return to /channels: state and PKCE are checked by
 * completeAuthorization; the flow must have been started by this same user.
 * Errors carry `clearCookie` when the flow cookie must be cleared.
 */
export async function completeChannelLink(request: Request, userId: string): Promise<LinkResult & { clearCookie: string }> {
  const { tokens, payload, clearCookie } = await completeAuthorization<{ userId: string }>(request, YOUTUBE_FLOW_COOKIE);
  try {
    if (payload.userId !== userId) throw new ChannelError("This authorization was started from another account. Please try again.", 403);
    const result = await linkChannel(request, userId, tokens);
    return { ...result, clearCookie };
  } catch (error) {
    throw Object.assign(error as Error, { clearCookie });
  }
}

/** Stores the channel the tokens belong to, with its tokens (encrypted) and today's snapshot. */
export async function linkChannel(request: Request, userId: string, tokens: OAuth2Tokens): Promise<LinkResult> {
  const channel = await fetchOwnChannel(request, tokens.accessToken()).catch((error: unknown) => {
    if (error instanceof ProviderUnauthorized) throw new ChannelError("YouTube refused the new authorization. Please try again.", 502);
    throw error;
  });
  const existing = await env.DB.prepare("SELECT id, user_id FROM youtube_channels WHERE channel_id = ?")
    .bind(channel.id)
    .first<{ id: string; user_id: string }>();
  if (existing && existing.user_id !== userId) {
    await auditStatement({
      eventType: "youtube_channel_link_refused",
      severity: "medium",
      userId,
      request,
      details: { reason: "channel already linked to another user", channel_id: channel.id },
    }).run();
    throw new ChannelError("This YouTube channel is already linked to another account.", 409);
  }
  const rowId = existing?.id ?? crypto.randomUUID();
  const now = nowIso();
  const accessEnc = await encryptToken(tokens.accessToken(), `access:${rowId}`);
  const refreshEnc = tokens.hasRefreshToken() ? await encryptToken(tokens.refreshToken(), `refresh:${rowId}`) : null;
  const statements: D1PreparedStatement[] = [
    existing
      ? channelStatsStatement(rowId, userId, channel, now)
      : env.DB.prepare(
          `INSERT INTO youtube_channels (id, user_id, channel_id, channel_title, channel_handle, subscriber_count, view_count, video_count,
             thumbnail_url, description, created_at, updated_at, last_synced_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).bind(
          rowId,
          userId,
          channel.id,
          channel.title,
          channel.handle,
          channel.subscriberCount,
          channel.viewCount,
          channel.videoCount,
          channel.thumbnailUrl,
          channel.description,
          now,
          now,
          now,
        ),
    env.DB.prepare(
      `INSERT INTO youtube_channel_tokens (channel_row_id, access_token_enc, refresh_token_enc, access_token_expires_at, updated_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (channel_row_id) DO UPDATE SET
         access_token_enc = excluded.access_token_enc,
         refresh_token_enc = COALESCE(excluded.refresh_token_enc, youtube_channel_tokens.refresh_token_enc),
         access_token_expires_at = excluded.access_token_expires_at,
         updated_at = excluded.updated_at`,
    ).bind(rowId, accessEnc, refreshEnc, expiresAtOf(tokens), now),
    snapshotStatement(rowId, dayOf(now), channel),
    // The creator's 12-month term starts when their first channel is linked.
    env.DB.prepare("UPDATE profiles SET term_started_at = COALESCE(term_started_at, ?) WHERE user_id = ?").bind(now, userId),
    auditStatement({
      eventType: existing ? "youtube_channel_relinked" : "youtube_channel_linked",
      userId,
      targetUserId: userId,
      request,
      details: { channel_id: channel.id, channel_row_id: rowId },
    }),
  ];
  try {
    await env.DB.batch(statements);
  } catch (error) {
    // Two users racing for the same channel: the unique index decides.
    if (/UNIQUE constraint failed: youtube_channels\.channel_id/i.test(String((error as Error).message))) {
      throw new ChannelError("This YouTube channel is already linked to another account.", 409);
    }
    throw error;
  }
  return { channelRowId: rowId, title: channel.title, relinked: Boolean(existing) };
}

// ---------------------------------------------------------------------------------------------
// Refreshing (the user's button and the daily job)
// ---------------------------------------------------------------------------------------------

type SyncTarget = { id: string; channel_id: string; channel_title: string; user_id: string };
type TokenRow = { access_token_enc: string; refresh_token_enc: string | null; access_token_expires_at: string | null };

/**
 * Re-reads a channel's statistics with its stored authorization: the access token while it is
 * fresh, else a new one from the refresh token. Updates the counts and last_synced_at and
 * upserts today's snapshot, in one batch.
 */
export async function syncChannel(request: Request, target: SyncTarget, now = new Date()): Promise<ProviderChannel> {
  const tok = await env.DB.prepare(
    "SELECT access_token_enc, refresh_token_enc, access_token_expires_at FROM youtube_channel_tokens WHERE channel_row_id = ?",
  )
    .bind(target.id)
    .first<TokenRow>();
  if (!tok) throw new ChannelError("No authorization is stored for this channel. Reconnect it to refresh its data.", 409, true);

  let renewed: OAuth2Tokens | null = null;
  const renew = async (): Promise<OAuth2Tokens> => {
    if (!tok.refresh_token_enc) {
      throw new ChannelError("Access to this channel has expired and no refresh token is stored. Reconnect the channel to continue.", 409, true);
    }
    const refreshToken = await decryptToken(tok.refresh_token_enc, `refresh:${target.id}`);
    try {
      return await refreshAccessToken(request, refreshToken);
    } catch (error) {
      if (error instanceof OAuthError) {
        // invalid_grant: the user revoked access, or the grant expired.
        throw new ChannelError(`${error.message} Reconnect the channel to continue.`, 409, true);
      }
      throw new ChannelError(`Google could not be reached: ${(error as Error).message}`, 502);
    }
  };

  let accessToken = await decryptToken(tok.access_token_enc, `access:${target.id}`);
  const expiresAt = tok.access_token_expires_at ? Date.parse(tok.access_token_expires_at) : Number.NaN;
  if (!Number.isFinite(expiresAt) || expiresAt - now.getTime() < TOKEN_MARGIN_MS) {
    renewed = await renew();
    accessToken = renewed.accessToken();
  }
  let channel: ProviderChannel;
  try {
    channel = await fetchOwnChannel(request, accessToken);
  } catch (error) {
    if (!(error instanceof ProviderUnauthorized) || renewed) {
      if (error instanceof ProviderUnauthorized) {
        throw new ChannelError("Google refused the stored authorization. Reconnect the channel to continue.", 409, true);
      }
      throw error;
    }
    renewed = await renew();
    try {
      channel = await fetchOwnChannel(request, renewed.accessToken());
    } catch (again) {
      if (again instanceof ProviderUnauthorized) {
        throw new ChannelError("Google refused the stored authorization. Reconnect the channel to continue.", 409, true);
      }
      throw again;
    }
  }
  if (channel.id !== target.channel_id) {
    throw new ChannelError("The authorized Google account no longer gives access to this channel. Reconnect it.", 409, true);
  }

  const iso = now.toISOString();
  const statements: D1PreparedStatement[] = [
    channelStatsStatement(target.id, target.user_id, channel, iso),
    snapshotStatement(target.id, dayOf(iso), channel),
  ];
  if (renewed) {
    const refreshEnc = renewed.hasRefreshToken() ? await encryptToken(renewed.refreshToken(), `refresh:${target.id}`) : null;
    statements.push(
      env.DB.prepare(
        `UPDATE youtube_channel_tokens SET access_token_enc = ?, access_token_expires_at = ?,
           refresh_token_enc = COALESCE(?, refresh_token_enc), updated_at = ? WHERE channel_row_id = ?`,
      ).bind(await encryptToken(renewed.accessToken(), `access:${target.id}`), expiresAtOf(renewed), refreshEnc, iso, target.id),
    );
  }
  await env.DB.batch(statements);
  return channel;
}

/** The user's Refresh button: only their own channel (another user's id is 'not found'). */
export async function refreshOwnChannel(request: Request, userId: string, channelRowId: string): Promise<ProviderChannel> {
  const target = await env.DB.prepare(
    "SELECT id, channel_id, channel_title, user_id FROM youtube_channels WHERE id = ? AND user_id = ?",
  )
    .bind(channelRowId, userId)
    .first<SyncTarget>();
  if (!target) throw new ChannelError("Channel not found.", 404);
  return syncChannel(request, target);
}

/** Every linked channel with a stored authorization, least recently synced first (the daily job). */
export async function channelsToSync(limit: number): Promise<SyncTarget[]> {
  const { results } = await env.DB.prepare(
    `SELECT c.id, c.channel_id, c.channel_title, c.user_id FROM youtube_channels c
     JOIN youtube_channel_tokens t ON t.channel_row_id = c.id
     ORDER BY c.last_synced_at IS NOT NULL, c.last_synced_at, c.id LIMIT ?`,
  )
    .bind(limit)
    .all<SyncTarget>();
  return results;
}

// ---------------------------------------------------------------------------------------------
// Disconnecting
// ---------------------------------------------------------------------------------------------

/** Removes the user's own channel, its tokens and snapshots, then revokes the grant (best effort). */
export async function disconnectChannel(request: Request, userId: string, channelRowId: string): Promise<{ title: string }> {
  const row = await env.DB.prepare(
    `SELECT c.id, c.channel_id, c.channel_title, t.access_token_enc, t.refresh_token_enc
     FROM youtube_channels c LEFT JOIN youtube_channel_tokens t ON t.channel_row_id = c.id
     WHERE c.id = ? AND c.user_id = ?`,
  )
    .bind(channelRowId, userId)
    .first<{ id: string; channel_id: string; channel_title: string; access_token_enc: string | null; refresh_token_enc: string | null }>();
  if (!row) throw new ChannelError("Channel not found.", 404);

  // Decrypt before deleting, so the grant can still be revoked afterwards.
  let grant: string | null = null;
  try {
    if (row.refresh_token_enc) grant = await decryptToken(row.refresh_token_enc, `refresh:${row.id}`);
    else if (row.access_token_enc) grant = await decryptToken(row.access_token_enc, `access:${row.id}`);
  } catch (error) {
    console.error("could not decrypt a token to revoke it", error);
  }

  await env.DB.batch([
    env.DB.prepare("DELETE FROM youtube_channel_tokens WHERE channel_row_id = ?").bind(row.id),
    env.DB.prepare("DELETE FROM channel_snapshots WHERE channel_row_id = ?").bind(row.id),
    env.DB.prepare("DELETE FROM youtube_channels WHERE id = ? AND user_id = ?").bind(row.id, userId),
    auditStatement({
      eventType: "youtube_channel_disconnected",
      userId,
      targetUserId: userId,
      request,
      details: { channel_id: row.channel_id, channel_row_id: row.id },
    }),
  ]);
  if (grant) await revokeAtProvider(request, grant);
  return { title: row.channel_title };
}

// ---------------------------------------------------------------------------------------------
// Manual submissions
// ---------------------------------------------------------------------------------------------

/** Inserts a manual submission with creator_id from the user's profile, status 'pending'. */
export async function createManualSubmission(userId: string, input: ManualSubmissionInput): Promise<ManualSubmission> {
  const profile = await env.DB.prepare("SELECT creator_id FROM profiles WHERE user_id = ?").bind(userId).first<{ creator_id: string }>();
  if (!profile) throw new ChannelError(CHANNEL_TOASTS.notAuthenticated, 401);
  const row = await env.DB.prepare(
    `INSERT INTO manual_channel_submissions (id, user_id, creator_id, channel_name, channel_url, subscriber_count, avg_monthly_views, status)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'pending')
     RETURNING id, channel_name, channel_url, subscriber_count, avg_monthly_views, status, verification_submitted_at, rejection_reason, reviewed_at, created_at`,
  )
    .bind(crypto.randomUUID(), userId, profile.creator_id, input.channelName, input.channelUrl, input.subscriberCount, input.avgMonthlyViews)
    .first<SubmissionRow>();
  return toSubmission(row!);
}

/** 'Submit for verification': pending (or previously rejected) → verification_submitted, with the time. */
export async function submitForVerification(userId: string, submissionId: string): Promise<void> {
  const result = await env.DB.prepare(
    `UPDATE manual_channel_submissions SET status = 'verification_submitted', verification_submitted_at = ?, rejection_reason = NULL
     WHERE id = ? AND user_id = ? AND status IN ('pending', 'rejected')`,
  )
    .bind(nowIso(), submissionId, userId)
    .run();
  if (result.meta.changes > 0) return;
  const current = await env.DB.prepare("SELECT status FROM manual_channel_submissions WHERE id = ? AND user_id = ?")
    .bind(submissionId, userId)
    .first<{ status: string }>();
  if (!current) throw new ChannelError("Submission not found.", 404);
  throw new ChannelError(
    current.status === "verified" ? "This channel is already verified." : "This channel has already been submitted for verification.",
    409,
  );
}

// ---------------------------------------------------------------------------------------------
// Admin: the verification queue
// ---------------------------------------------------------------------------------------------

export type QueueItem = ManualSubmission & { userId: string; creatorId: string; creatorName: string | null; creatorEmail: string; reviewedByEmail: string | null };

type QueueRow = SubmissionRow & { user_id: string; creator_id: string; full_name: string | null; email: string; reviewer_email: string | null };

function toQueueItem(r: QueueRow): QueueItem {
  return {
    ...toSubmission(r),
    userId: r.user_id,
    creatorId: r.creator_id,
    creatorName: r.full_name,
    creatorEmail: r.email,
    reviewedByEmail: r.reviewer_email,
  };
}

const QUEUE_SELECT = `SELECT ${SUBMISSION_COLUMNS}, m.user_id, m.creator_id, p.full_name, u.email, r.email AS reviewer_email
  FROM manual_channel_submissions m
  JOIN users u ON u.id = m.user_id
  LEFT JOIN profiles p ON p.user_id = m.user_id
  LEFT JOIN users r ON r.id = m.reviewed_by`;

/** Submissions sent for verification, oldest first; and the latest decisions. */
export async function verificationQueue(recentLimit = 10): Promise<{ queue: QueueItem[]; recent: QueueItem[] }> {
  const [queue, recent] = await env.DB.batch<QueueRow>([
    env.DB.prepare(
      `${QUEUE_SELECT} WHERE m.status = 'verification_submitted' ORDER BY m.verification_submitted_at ASC, m.created_at ASC LIMIT 500`,
    ),
    env.DB.prepare(`${QUEUE_SELECT} WHERE m.status IN ('verified', 'rejected') AND m.reviewed_at IS NOT NULL ORDER BY m.reviewed_at DESC LIMIT ?`).bind(
      recentLimit,
    ),
  ]);
  return { queue: queue.results.map(toQueueItem), recent: recent.results.map(toQueueItem) };
}

export async function queueItem(id: string): Promise<QueueItem | null> {
  const row = await env.DB.prepare(`${QUEUE_SELECT} WHERE m.id = ?`).bind(id).first<QueueRow>();
  return row ? toQueueItem(row) : null;
}

export type ReviewDecision = { intent: "verify"; id: string } | { intent: "reject"; id: string; reason: string };

/**
 * An admin verifies or rejects a submission that is waiting for verification. The change and
 * its audit record are one batch; the creator is notified afterwards (a failed notification
 * does not undo the decision).
 */
export async function reviewSubmission(request: Request, adminId: string, decision: ReviewDecision): Promise<QueueItem> {
  const item = await queueItem(decision.id);
  if (!item) throw new ChannelError("Submission not found.", 404);
  if (item.status !== "verification_submitted") throw new ChannelError("This submission is not waiting for verification.", 409);
  const now = nowIso();
  const status = decision.intent === "verify" ? "verified" : "rejected";
  const reason = decision.intent === "reject" ? decision.reason : null;
  const [update] = await env.DB.batch([
    env.DB.prepare(
      `UPDATE manual_channel_submissions SET status = ?, rejection_reason = ?, reviewed_by = ?, reviewed_at = ?
       WHERE id = ? AND status = 'verification_submitted'`,
    ).bind(status, reason, adminId, now, item.id),
    auditStatement({
      eventType: decision.intent === "verify" ? "channel_submission_verified" : "channel_submission_rejected",
      severity: "medium",
      userId: adminId,
      targetUserId: item.userId,
      request,
      details: { submission_id: item.id, channel_name: item.channelName, ...(reason ? { reason } : {}) },
    }),
  ]);
  if (update.meta.changes === 0) throw new ChannelError("This submission is not waiting for verification.", 409);

  try {
    await notifyUser(
      item.userId,
      decision.intent === "verify"
        ? {
            title: "Channel verified",
            content: `Your channel "${item.channelName}" has been verified and now counts as a connected channel.`,
            kind: "channel_verified",
            createdBy: adminId,
          }
        : {
            title: "Channel verification rejected",
            content: `Your channel "${item.channelName}" could not be verified. Reason: ${reason}`,
            kind: "channel_rejected",
            createdBy: adminId,
          },
    );
  } catch (error) {
    console.error("channel verification notification failed", error);
  }
  return { ...item, status, rejectionReason: reason, reviewedAt: now };
}

// ---------------------------------------------------------------------------------------------
// Analytics
// ---------------------------------------------------------------------------------------------

type SnapshotRow = { channel_row_id: string; day: string; subscriber_count: number; view_count: number; video_count: number };

const toSnapshot = (r: SnapshotRow): Snapshot => ({
  channelRowId: r.channel_row_id,
  day: r.day,
  subscribers: r.subscriber_count,
  views: r.view_count,
  videos: r.video_count,
});

/** The user's channels over the range, from the snapshots (one round trip). */
export async function analyticsFor(userId: string, range: AnalyticsRange, today = new Date()): Promise<AnalyticsData> {
  const days = rangeDays(range, today);
  const [start, end] = [days[0], days[days.length - 1]];
  const [channels, snapshots, baselines] = await env.DB.batch([
    env.DB.prepare(
      "SELECT id, channel_id, channel_title, channel_handle FROM youtube_channels WHERE user_id = ? ORDER BY created_at DESC, id",
    ).bind(userId),
    env.DB.prepare(
      `SELECT s.channel_row_id, s.day, s.subscriber_count, s.view_count, s.video_count
       FROM channel_snapshots s JOIN youtube_channels c ON c.id = s.channel_row_id
       WHERE c.user_id = ? AND s.day >= ? AND s.day <= ? ORDER BY s.day`,
    ).bind(userId, start, end),
    // Each channel's newest snapshot before the range: where its carried value starts.
    env.DB.prepare(
      `SELECT s.channel_row_id, s.day, s.subscriber_count, s.view_count, s.video_count
       FROM channel_snapshots s JOIN youtube_channels c ON c.id = s.channel_row_id
       WHERE c.user_id = ? AND s.day = (SELECT max(s2.day) FROM channel_snapshots s2 WHERE s2.channel_row_id = s.channel_row_id AND s2.day < ?)`,
    ).bind(userId, start),
  ]);
  return buildAnalytics(
    range,
    days,
    (channels.results as { id: string; channel_id: string; channel_title: string; channel_handle: string | null }[]).map((c) => ({
      id: c.id,
      channelId: c.channel_id,
      title: c.channel_title,
      handle: c.channel_handle,
    })),
    (snapshots.results as SnapshotRow[]).map(toSnapshot),
    (baselines.results as SnapshotRow[]).map(toSnapshot),
  );
}
