import { and, eq, sql } from "drizzle-orm";
import { channelSnapshots, youtubeChannels, youtubeChannelTokens } from "~/db/schema";
import { db } from "~/platform/db.server";
import type { ProviderChannel } from "./provider.server";

// The statements that link and refresh share (queries for a batch, not executed).

export const nowIso = () => new Date().toISOString();
export const dayOf = (iso: string) => iso.slice(0, 10);

/** What the provider says of a channel, as the columns of its row. */
export const providerFields = (channel: ProviderChannel) => ({
  channelTitle: channel.title,
  channelHandle: channel.handle,
  subscriberCount: channel.subscriberCount,
  viewCount: channel.viewCount,
  videoCount: channel.videoCount,
  thumbnailUrl: channel.thumbnailUrl,
  description: channel.description,
});

/** Writes what the provider says of a channel onto its row (only the owner's row matches). */
export function channelStatsQuery(rowId: string, userId: string, channel: ProviderChannel, syncedAt: string) {
  return db()
    .update(youtubeChannels)
    .set({
      ...providerFields(channel),
      updatedAt: syncedAt,
      lastSyncedAt: syncedAt,
    })
    .where(and(eq(youtubeChannels.id, rowId), eq(youtubeChannels.userId, userId)));
}

/** One snapshot per channel per day; the latest refresh of the day wins. */
export function snapshotQuery(channelRowId: string, day: string, c: Pick<ProviderChannel, "subscriberCount" | "viewCount" | "videoCount">) {
  return db()
    .insert(channelSnapshots)
    .values({
      id: crypto.randomUUID(),
      channelRowId,
      day,
      subscriberCount: c.subscriberCount,
      viewCount: c.viewCount,
      videoCount: c.videoCount,
    })
    .onConflictDoUpdate({
      target: [channelSnapshots.channelRowId, channelSnapshots.day],
      set: {
        subscriberCount: sql`excluded.subscriber_count`,
        viewCount: sql`excluded.view_count`,
        videoCount: sql`excluded.video_count`,
      },
    });
}

/**
 * Stores a channel's (encrypted) tokens. A new grant without a refresh token keeps the stored
 * refresh token: Google sends one only with the consent prompt.
 */
export function storeTokensQuery(
  channelRowId: string,
  t: { accessTokenEnc: string; refreshTokenEnc: string | null; accessTokenExpiresAt: string | null },
  at: string,
) {
  return db()
    .insert(youtubeChannelTokens)
    .values({ channelRowId, ...t, updatedAt: at })
    .onConflictDoUpdate({
      target: youtubeChannelTokens.channelRowId,
      set: {
        accessTokenEnc: sql`excluded.access_token_enc`,
        refreshTokenEnc: sql`coalesce(excluded.refresh_token_enc, ${youtubeChannelTokens.refreshTokenEnc})`,
        accessTokenExpiresAt: sql`excluded.access_token_expires_at`,
        updatedAt: sql`excluded.updated_at`,
      },
    });
}
