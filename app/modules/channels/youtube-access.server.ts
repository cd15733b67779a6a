import type { OAuth2Tokens } from "arctic";
import { desc, eq, sql } from "drizzle-orm";
import { youtubeChannels, youtubeChannelTokens } from "~/db/schema";
import { DomainError } from "~/lib/errors";
import { db } from "~/platform/db.server";
import { setting } from "~/platform/env.server";
import { OAuthError, refreshAccessToken } from "~/platform/oauth.server";
import { decryptToken, encryptToken } from "~/platform/token-crypto.server";
import { expiresAtOf, type YouTubeCredential } from "./provider.server";

// Which credential a videos.list call is made with (decision 0303). Google answers a request with
// no OAuth token only when it carries an API key ("Every request must either specify an API key …
// or provide an OAuth 2.0 token", https://developers.google.com/youtube/v3/docs/videos/list and
// /docs/errors: 403 forbidden otherwise). Where the video's owner is known and has linked a channel
// (a campaign submitter, whose video must be on their own channel), the owner's access token is used:
// no key is needed for them. Otherwise (clips, posted by clippers) YOUTUBE_API_KEY. Both draw on the
// same project quota; the jobs batch 50 ids per call and credential.

/** Renew the access token when it has less than this left (the spec's token refresh margin). */
export const TOKEN_MARGIN_MS = 90_000;

/** The grant is gone (revoked, expired, missing): the page offers to reconnect. */
export const needsReconnect = (message: string) => new DomainError("conflict", message, { details: { reconnect: true } });

/**
 * A new access token from the stored refresh token. Only the token endpoint's `invalid_grant`
 * means the grant is gone (reconnect); a 5xx, a 429 or no answer (after oauth.server's retries),
 * or any other refusal, is "unavailable": the channel stays linked and the next run tries again.
 */
export async function renewGrant(request: Request, channelRowId: string, refreshTokenEnc: string | null): Promise<OAuth2Tokens> {
  if (!refreshTokenEnc) {
    throw needsReconnect("Access to this channel has expired and no refresh token is stored. Reconnect the channel to continue.");
  }
  const refreshToken = await decryptToken(refreshTokenEnc, `refresh:${channelRowId}`);
  try {
    return await refreshAccessToken(request, refreshToken);
  } catch (error) {
    if (error instanceof OAuthError && error.code === "invalid_grant") throw needsReconnect(`${error.message} Reconnect the channel to continue.`);
    throw new DomainError("unavailable", `Google could not renew the channel's access for now (${(error as Error).message}). It will be tried again.`);
  }
}

type RenewedGrant = { accessTokenEnc: string; refreshTokenEnc: string | null; accessTokenExpiresAt: string | null };

/** A renewed grant, encrypted for storage (the refresh token only when Google sent a new one). */
export async function encryptRenewed(channelRowId: string, renewed: OAuth2Tokens): Promise<RenewedGrant> {
  return {
    accessTokenEnc: await encryptToken(renewed.accessToken(), `access:${channelRowId}`),
    refreshTokenEnc: renewed.hasRefreshToken() ? await encryptToken(renewed.refreshToken(), `refresh:${channelRowId}`) : null,
    accessTokenExpiresAt: expiresAtOf(renewed),
  };
}

/** Stores a renewed grant (a batch item); the stored refresh token stays unless a new one came. */
export function storeRenewedQuery(channelRowId: string, grant: RenewedGrant, iso: string) {
  return db()
    .update(youtubeChannelTokens)
    .set({
      accessTokenEnc: grant.accessTokenEnc,
      accessTokenExpiresAt: grant.accessTokenExpiresAt,
      refreshTokenEnc: sql`coalesce(${grant.refreshTokenEnc}, ${youtubeChannelTokens.refreshTokenEnc})`,
      updatedAt: iso,
    })
    .where(eq(youtubeChannelTokens.channelRowId, channelRowId));
}

/** A usable access token of one of the user's linked channels (renewed and stored when near expiry), or null. */
async function ownerToken(request: Request, userId: string, now: Date): Promise<string | null> {
  const grants = await db()
    .select({
      id: youtubeChannels.id,
      accessTokenEnc: youtubeChannelTokens.accessTokenEnc,
      refreshTokenEnc: youtubeChannelTokens.refreshTokenEnc,
      accessTokenExpiresAt: youtubeChannelTokens.accessTokenExpiresAt,
    })
    .from(youtubeChannels)
    .innerJoin(youtubeChannelTokens, eq(youtubeChannelTokens.channelRowId, youtubeChannels.id))
    .where(eq(youtubeChannels.userId, userId))
    .orderBy(desc(youtubeChannels.lastSyncedAt))
    .limit(3)
    .all();
  for (const grant of grants) {
    try {
      const expiresAt = grant.accessTokenExpiresAt ? Date.parse(grant.accessTokenExpiresAt) : Number.NaN;
      if (Number.isFinite(expiresAt) && expiresAt - now.getTime() >= TOKEN_MARGIN_MS) {
        return await decryptToken(grant.accessTokenEnc, `access:${grant.id}`);
      }
      const renewed = await renewGrant(request, grant.id, grant.refreshTokenEnc);
      await storeRenewedQuery(grant.id, await encryptRenewed(grant.id, renewed), now.toISOString());
      return renewed.accessToken();
    } catch (error) {
      // This grant cannot be used now (the daily channel refresh reports why): try the next one.
      if (!(error instanceof DomainError)) console.error("could not use a channel's grant for videos.list", error);
    }
  }
  return null;
}

/** The project's API key, when it is set. */
export function apiKeyCredential(): YouTubeCredential | null {
  const key = setting("YOUTUBE_API_KEY");
  return key ? { kind: "key", key } : null;
}

/** Credentials resolved during one request (one job run): a user's token is renewed at most once. */
const resolved = new WeakMap<Request, Map<string, Promise<YouTubeCredential | null>>>();

/**
 * The credential for a videos.list call about videos `ownerUserId` owns: their linked channel's
 * token, else the API key; null when there is neither. No owner (null): the API key.
 */
export function youtubeCredentialFor(request: Request, ownerUserId: string | null, now = new Date()): Promise<YouTubeCredential | null> {
  if (!ownerUserId) return Promise.resolve(apiKeyCredential());
  let perRequest = resolved.get(request);
  if (!perRequest) {
    perRequest = new Map();
    resolved.set(request, perRequest);
  }
  let credential = perRequest.get(ownerUserId);
  if (!credential) {
    credential = ownerToken(request, ownerUserId, now).then((token) => (token ? { kind: "bearer" as const, token } : apiKeyCredential()));
    perRequest.set(ownerUserId, credential);
  }
  return credential;
}
