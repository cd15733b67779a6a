import { and, asc, eq, inArray, like, or } from "drizzle-orm";
import { youtubeChannels } from "~/db/schema";
import { type Actor, authorize } from "~/lib/permissions";
import { db } from "~/platform/db.server";

// The thumbnail editor's "open a creator's channel thumbnail" (issue 19, decision 0184): linked
// channels with the thumbnail URL this module stored from the provider. Only this module reads
// youtube_channels; the thumbnails module fetches the stored URL, never one from the client.

export type ChannelThumbnailSource = { id: string; title: string; handle: string | null; userId: string; thumbnailUrl: string | null };

const httpsOnly = (url: string | null) => (url && /^https:\/\//.test(url) ? url : null);

/** Linked channels by title/handle (or of the given creators), at most 20, A→Z. Admins (thumbnail.use). */
export async function channelThumbnailSources(actor: Actor, filter: { search?: string; userIds?: string[] }): Promise<ChannelThumbnailSource[]> {
  authorize(actor, "thumbnail", "use");
  const term = (filter.search ?? "")
    .trim()
    .slice(0, 100)
    .replace(/[%_\\]/g, "");
  const conditions = [];
  if (filter.userIds) {
    if (!filter.userIds.length) return [];
    conditions.push(inArray(youtubeChannels.userId, filter.userIds));
  }
  if (term) conditions.push(or(like(youtubeChannels.channelTitle, `%${term}%`), like(youtubeChannels.channelHandle, `%${term}%`)));
  const rows = await db()
    .select({
      id: youtubeChannels.id,
      title: youtubeChannels.channelTitle,
      handle: youtubeChannels.channelHandle,
      userId: youtubeChannels.userId,
      thumbnailUrl: youtubeChannels.thumbnailUrl,
    })
    .from(youtubeChannels)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(asc(youtubeChannels.channelTitle))
    .limit(20)
    .all();
  return rows.map((r) => ({ ...r, thumbnailUrl: httpsOnly(r.thumbnailUrl) }));
}

/** One linked channel's stored thumbnail source, or null when there is no such channel. */
export async function channelThumbnailSource(actor: Actor, channelRowId: string): Promise<ChannelThumbnailSource | null> {
  authorize(actor, "thumbnail", "use");
  const rows = await db()
    .select({
      id: youtubeChannels.id,
      title: youtubeChannels.channelTitle,
      handle: youtubeChannels.channelHandle,
      userId: youtubeChannels.userId,
      thumbnailUrl: youtubeChannels.thumbnailUrl,
    })
    .from(youtubeChannels)
    .where(eq(youtubeChannels.id, channelRowId))
    .limit(1)
    .all();
  return rows[0] ? { ...rows[0], thumbnailUrl: httpsOnly(rows[0].thumbnailUrl) } : null;
}
