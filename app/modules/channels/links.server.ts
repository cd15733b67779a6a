import type { OAuth2Tokens } from "arctic";
import type { BatchItem } from "drizzle-orm/batch";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { channelSnapshots, youtubeChannels, youtubeChannelTokens } from "~/db/schema";
import { columnsOf } from "~/db/columns";
import { conflict, DomainError, forbidden, notFound, rateLimited } from "~/lib/errors";
import { authorize, type Actor } from "~/lib/permissions";
import { startTermQuery } from "~/modules/accounts/accounts.server";
import { audit, auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { OAuthError, clearFlowCookie, completeAuthorization, oauthConfigured, startAuthorization, type AuthorizationStart } from "~/platform/oauth.server";
import { isPreconditionFailure, isUniqueViolation, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { consume } from "~/platform/rate-limit.server";
import { decryptToken, encryptToken } from "~/platform/token-crypto.server";
import { YOUTUBE_SCOPE, ProviderUnauthorized, expiresAtOf, fetchOwnChannel, revokeAtProvider, type ProviderChannel } from "./provider.server";
import { CHANNEL_TOASTS } from "./schema";
import { channelStatsQuery, dayOf, nowIso, providerFields, snapshotQuery, storeTokensQuery } from "./statements.server";
import { channelImageUrl } from "./thumbnail-sources.server";
import { encryptRenewed, needsReconnect, renewGrant, storeRenewedQuery, TOKEN_MARGIN_MS } from "./youtube-access.server";

// Linked YouTube channels: the link (OAuth code + PKCE through oauth.server.ts), refreshing the
// statistics into dated snapshots (the user's button and the daily job), and disconnecting.
// Every query that reads or changes a user's channel names the user in its WHERE clause, and the
// actor is checked against PERMISSIONS.channel. See docs/decisions/0030-0031.

export const YOUTUBE_FLOW_COOKIE = "sb_youtube_oauth";
/** Per-user limit on the Refresh button (each press calls the provider). */
const REFRESH_LIMIT = { maxAttempts: 30, windowMs: 15 * 60_000 };

type Batch = [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

/** A linked channel as its owner sees it (never its tokens): the /channels list and the data export. */
export const channelColumns = {
  id: youtubeChannels.id,
  channelId: youtubeChannels.channelId,
  title: youtubeChannels.channelTitle,
  handle: youtubeChannels.channelHandle,
  subscriberCount: youtubeChannels.subscriberCount,
  viewCount: youtubeChannels.viewCount,
  videoCount: youtubeChannels.videoCount,
  thumbnailUrl: youtubeChannels.thumbnailUrl,
  description: youtubeChannels.description,
  createdAt: youtubeChannels.createdAt,
  lastSyncedAt: youtubeChannels.lastSyncedAt,
};

/** The user's linked channels, newest first (spec: own rows ordered by created_at descending). */
export async function listChannels(actor: Actor) {
  authorize(actor, "channel", "list");
  const rows = await db()
    .select({
      ...channelColumns,
      // Whether an authorization is stored (a channel without one can only be reconnected).
      authorized: sql<boolean>`${youtubeChannelTokens.channelRowId} is not null`.mapWith(Boolean),
    })
    .from(youtubeChannels)
    .leftJoin(youtubeChannelTokens, eq(youtubeChannelTokens.channelRowId, youtubeChannels.id))
    .where(eq(youtubeChannels.userId, actor.id))
    .orderBy(desc(youtubeChannels.createdAt), asc(youtubeChannels.id))
    .all();
  return rows.map((r) => ({ ...r, thumbnailUrl: channelImageUrl(r.thumbnailUrl) }));
}

export type LinkedChannel = Awaited<ReturnType<typeof listChannels>>[number];

// ---------------------------------------------------------------------------------------------
// Linking
// ---------------------------------------------------------------------------------------------

/** Starts the link: where to send the browser (Google's consent screen, or the stand-in's) and the flow cookie. */
export async function startChannelLink(actor: Actor, request: Request): Promise<AuthorizationStart> {
  authorize(actor, "channel", "link");
  // The spec: no authorization address from the server → this message.
  if (!oauthConfigured()) throw new DomainError("unavailable", CHANNEL_TOASTS.notConfigured);
  return startAuthorization(request, {
    cookieName: YOUTUBE_FLOW_COOKIE,
    callbackPath: "/channels",
    scopes: [YOUTUBE_SCOPE],
    payload: { userId: actor.id },
    // A refresh token (offline access) is what lets the daily job keep the statistics current; only
    // this flow asks for one (Google sign-in does not, decision 0305). prompt=consent: Google sends a
    // refresh token only with consent shown.
    params: { access_type: "offline", prompt: "consent" },
  });
}

/** The Set-Cookie that ends a link flow: the return to /channels clears it whatever the outcome. */
export function clearChannelLinkCookie(request: Request): Promise<string> {
  return clearFlowCookie(request, YOUTUBE_FLOW_COOKIE);
}

export type LinkResult = { channelRowId: string; title: string; relinked: boolean };

/**
 * Finishes the link on the return to /channels (?code&state, or ?error): state and PKCE are
 * checked by completeAuthorization; the flow must have been started by this same user. Every
 * failure is audit-logged and thrown as a DomainError whose title and message are the toast
 * (spec section 8): 'Authorization failed' when the provider returned an error, else
 * 'Failed to connect channel' with the reason.
 */
export async function completeChannelLink(actor: Actor, request: Request): Promise<LinkResult> {
  authorize(actor, "channel", "link");
  const url = new URL(request.url);
  const cancelled = url.searchParams.has("error");
  try {
    const { tokens, payload } = await completeAuthorization<{ userId: string }>(request, YOUTUBE_FLOW_COOKIE);
    if (payload.userId !== actor.id) throw forbidden("This authorization was started from another account. Please try again.");
    return await linkChannel(request, actor.id, tokens);
  } catch (error) {
    const known = error instanceof DomainError || error instanceof OAuthError ? error.message : null;
    if (!known) console.error("YouTube link failed", error);
    await audit({
      eventType: "youtube_link_failed",
      severity: cancelled ? "low" : "medium",
      userId: actor.id,
      request,
      details: { reason: cancelled ? `provider error: ${url.searchParams.get("error")}` : (known ?? "unexpected") },
    });
    if (cancelled) throw new DomainError("invalid_input", CHANNEL_TOASTS.authFailed.description, { title: CHANNEL_TOASTS.authFailed.title });
    throw new DomainError(error instanceof DomainError ? error.code : "invalid_input", known ?? CHANNEL_TOASTS.unknownError, {
      title: CHANNEL_TOASTS.connectFailedTitle,
    });
  }
}

const ALREADY_LINKED = "This YouTube channel is already linked to another account.";

/** Stores the channel the tokens belong to, with its tokens (encrypted) and today's snapshot, in one batch. */
async function linkChannel(request: Request, userId: string, tokens: OAuth2Tokens): Promise<LinkResult> {
  const channel = await fetchOwnChannel(request, tokens.accessToken()).catch((error: unknown) => {
    if (error instanceof ProviderUnauthorized) throw new DomainError("unavailable", "YouTube refused the new authorization. Please try again.");
    throw error;
  });
  const existing = await db()
    .select({ id: youtubeChannels.id, userId: youtubeChannels.userId })
    .from(youtubeChannels)
    .where(eq(youtubeChannels.channelId, channel.id))
    .get();
  if (existing && existing.userId !== userId) {
    await audit({
      eventType: "youtube_channel_link_refused",
      severity: "medium",
      userId,
      request,
      details: { reason: "channel already linked to another user", channel_id: channel.id },
    });
    throw conflict(ALREADY_LINKED);
  }
  const rowId = existing?.id ?? crypto.randomUUID();
  const now = nowIso();
  const accessTokenEnc = await encryptToken(tokens.accessToken(), `access:${rowId}`);
  const refreshTokenEnc = tokens.hasRefreshToken() ? await encryptToken(tokens.refreshToken(), `refresh:${rowId}`) : null;
  const batch: Batch = [
    existing
      ? channelStatsQuery(rowId, userId, channel, now)
      : db()
          .insert(youtubeChannels)
          .values({
            id: rowId,
            userId,
            channelId: channel.id,
            ...providerFields(channel),
            createdAt: now,
            updatedAt: now,
            lastSyncedAt: now,
          }),
    storeTokensQuery(rowId, { accessTokenEnc, refreshTokenEnc, accessTokenExpiresAt: expiresAtOf(tokens) }, now),
    snapshotQuery(rowId, dayOf(now), channel),
    // The creator's 12-month term starts when their first channel is linked.
    startTermQuery(userId, now),
    auditQuery({
      eventType: existing ? "youtube_channel_relinked" : "youtube_channel_linked",
      userId,
      targetUserId: userId,
      request,
      details: { channel_id: channel.id, channel_row_id: rowId },
    }),
  ];
  try {
    await db().batch(batch);
  } catch (error) {
    // Two users racing for the same channel: the unique index decides.
    if (isUniqueViolation(error, "youtube_channels.channel_id")) throw conflict(ALREADY_LINKED);
    throw error;
  }
  return { channelRowId: rowId, title: channel.title, relinked: Boolean(existing) };
}

// ---------------------------------------------------------------------------------------------
// Refreshing (the user's button and the daily job)
// ---------------------------------------------------------------------------------------------

export type SyncTarget = { id: string; channelId: string; channelTitle: string; userId: string };

const syncTargetColumns = {
  id: youtubeChannels.id,
  channelId: youtubeChannels.channelId,
  channelTitle: youtubeChannels.channelTitle,
  userId: youtubeChannels.userId,
};

/**
 * Re-reads a channel's statistics with its stored authorization: the access token while it is
 * fresh, else a new one from the refresh token. Updates the counts and last_synced_at and
 * upserts today's snapshot, in one batch. No actor: the caller (refreshChannel, the daily job)
 * has the target from an authorized or system read.
 */
export async function syncChannel(request: Request, target: SyncTarget, now = new Date()): Promise<ProviderChannel> {
  const tok = await db()
    .select({
      accessTokenEnc: youtubeChannelTokens.accessTokenEnc,
      refreshTokenEnc: youtubeChannelTokens.refreshTokenEnc,
      accessTokenExpiresAt: youtubeChannelTokens.accessTokenExpiresAt,
    })
    .from(youtubeChannelTokens)
    .where(eq(youtubeChannelTokens.channelRowId, target.id))
    .get();
  if (!tok) throw needsReconnect("No authorization is stored for this channel. Reconnect it to refresh its data.");

  let renewed: OAuth2Tokens | null = null;
  const renew = () => renewGrant(request, target.id, tok.refreshTokenEnc);
  const refused = () => needsReconnect("Google refused the stored authorization. Reconnect the channel to continue.");

  let accessToken = await decryptToken(tok.accessTokenEnc, `access:${target.id}`);
  const expiresAt = tok.accessTokenExpiresAt ? Date.parse(tok.accessTokenExpiresAt) : Number.NaN;
  if (!Number.isFinite(expiresAt) || expiresAt - now.getTime() < TOKEN_MARGIN_MS) {
    renewed = await renew();
    accessToken = renewed.accessToken();
  }
  let channel: ProviderChannel;
  try {
    channel = await fetchOwnChannel(request, accessToken);
  } catch (error) {
    if (!(error instanceof ProviderUnauthorized)) throw error;
    if (renewed) throw refused();
    renewed = await renew();
    try {
      channel = await fetchOwnChannel(request, renewed.accessToken());
    } catch (again) {
      throw again instanceof ProviderUnauthorized ? refused() : again;
    }
  }
  if (channel.id !== target.channelId) {
    throw needsReconnect("The authorized Google account no longer gives access to this channel. Reconnect it.");
  }

  const iso = now.toISOString();
  const batch: Batch = [channelStatsQuery(target.id, target.userId, channel, iso), snapshotQuery(target.id, dayOf(iso), channel)];
  if (renewed) batch.push(storeRenewedQuery(target.id, await encryptRenewed(target.id, renewed), iso));
  await db().batch(batch);
  return channel;
}

/** The user's Refresh button: only their own channel (another user's id is 'not found'). */
export async function refreshChannel(actor: Actor, request: Request, channelRowId: string): Promise<ProviderChannel> {
  // The role first (403 before anything is counted or read); ownership once the row is read.
  authorize(actor, "channel", "list");
  const limit = await consume("channel-refresh", `user:${actor.id}`, REFRESH_LIMIT);
  if (!limit.allowed) throw rateLimited(limit.retryAfterSeconds, CHANNEL_TOASTS.rateLimited.description, CHANNEL_TOASTS.rateLimited.title);
  try {
    const target = await db()
      .select(syncTargetColumns)
      .from(youtubeChannels)
      .where(and(eq(youtubeChannels.id, channelRowId), eq(youtubeChannels.userId, actor.id)))
      .get();
    if (!target) throw notFound("Channel not found.");
    authorize(actor, "channel", "refresh", { ownerId: target.userId });
    return await syncChannel(request, target);
  } catch (error) {
    // The failure belongs to this channel: its card shows it.
    if (error instanceof DomainError) {
      throw new DomainError(error.code, error.message, {
        title: error.title,
        fieldErrors: error.fieldErrors,
        retryAfterSeconds: error.retryAfterSeconds,
        details: { ...error.details, channelId: channelRowId },
      });
    }
    throw error;
  }
}

/** Every linked channel with a stored authorization, least recently synced first (the daily job). */
export async function channelsToSync(limit: number): Promise<SyncTarget[]> {
  return db()
    .select(syncTargetColumns)
    .from(youtubeChannels)
    .innerJoin(youtubeChannelTokens, eq(youtubeChannelTokens.channelRowId, youtubeChannels.id))
    .orderBy(sql`${youtubeChannels.lastSyncedAt} is not null`, asc(youtubeChannels.lastSyncedAt), asc(youtubeChannels.id))
    .limit(limit)
    .all();
}

// ---------------------------------------------------------------------------------------------
// Disconnecting
// ---------------------------------------------------------------------------------------------

/** Removes the user's own channel, its tokens and snapshots, then revokes the grant (best effort). */
export async function disconnectChannel(actor: Actor, request: Request, channelRowId: string): Promise<{ title: string }> {
  authorize(actor, "channel", "list");
  const row = await db()
    .select({
      ...columnsOf(youtubeChannels, "id", "userId", "channelId"),
      title: youtubeChannels.channelTitle,
      ...columnsOf(youtubeChannelTokens, "accessTokenEnc", "refreshTokenEnc"),
    })
    .from(youtubeChannels)
    .leftJoin(youtubeChannelTokens, eq(youtubeChannelTokens.channelRowId, youtubeChannels.id))
    .where(and(eq(youtubeChannels.id, channelRowId), eq(youtubeChannels.userId, actor.id)))
    .get();
  if (!row) throw notFound("Channel not found.");
  authorize(actor, "channel", "disconnect", { ownerId: row.userId });

  // Decrypt before deleting, so the grant can still be revoked afterwards.
  let grant: string | null = null;
  try {
    if (row.refreshTokenEnc) grant = await decryptToken(row.refreshTokenEnc, `refresh:${row.id}`);
    else if (row.accessTokenEnc) grant = await decryptToken(row.accessTokenEnc, `access:${row.id}`);
  } catch (error) {
    console.error("could not decrypt a token to revoke it", error);
  }

  try {
    // The audit row follows only when this request removed the channel (two parallel
    // disconnects write one).
    await db().batch([
      db().delete(youtubeChannelTokens).where(eq(youtubeChannelTokens.channelRowId, row.id)),
      db().delete(channelSnapshots).where(eq(channelSnapshots.channelRowId, row.id)),
      db()
        .delete(youtubeChannels)
        .where(and(eq(youtubeChannels.id, row.id), eq(youtubeChannels.userId, actor.id))),
      precondition(previousStatementChanged(1)),
      auditQuery({
        eventType: "youtube_channel_disconnected",
        userId: actor.id,
        targetUserId: actor.id,
        request,
        details: { channel_id: row.channelId, channel_row_id: row.id },
      }),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw notFound("Channel not found.");
    throw error;
  }
  if (grant) await revokeAtProvider(request, grant);
  return { title: row.title };
}
