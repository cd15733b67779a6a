import { and, asc, eq, inArray, or, type SQL } from "drizzle-orm";
import { containsText } from "~/platform/text-search.server";
import { youtubeChannels } from "~/db/schema";
import { type Actor, authorize } from "~/lib/permissions";
import { db } from "~/platform/db.server";
import { devToolsEnabled } from "~/platform/env.server";

// The thumbnail editor's "open a creator's channel thumbnail" (issue 19, decision 0184): linked
// channels with the thumbnail URL this module stored from the provider. Only this module reads
// youtube_channels; the thumbnails module fetches the stored URL, never one from the client.

export type ChannelThumbnailSource = { id: string; title: string; handle: string | null; userId: string; thumbnailUrl: string | null };

/** Where the local stand-in provider serves its channels' thumbnails, on our own origin (app/dev/dev-oauth.server.ts, decision 0185). */
export const STAND_IN_THUMBNAIL_PATH = "/dev/oauth/youtube/thumbnails/";

/**
 * A stored channel image URL the app may show and fetch, or null: YouTube's (https), or, only in a
 * development build running with DEV_TOOLS=1, the stand-in provider's path on our own origin. The
 * production bundle drops the second branch (__DEV_TOOLS_BUILD__ is a build-time constant).
 */
export function channelImageUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  if (/^https:\/\//.test(url)) return url;
  if (__DEV_TOOLS_BUILD__ && devToolsEnabled() && url.startsWith(STAND_IN_THUMBNAIL_PATH) && /^[\w/.-]+$/.test(url) && !url.includes("..")) return url;
  return null;
}

const sourceColumns = {
  id: youtubeChannels.id,
  title: youtubeChannels.channelTitle,
  handle: youtubeChannels.channelHandle,
  userId: youtubeChannels.userId,
  thumbnailUrl: youtubeChannels.thumbnailUrl,
};

async function selectSources(where: SQL | undefined, limit: number): Promise<ChannelThumbnailSource[]> {
  const rows = await db().select(sourceColumns).from(youtubeChannels).where(where).orderBy(asc(youtubeChannels.channelTitle)).limit(limit).all();
  return rows.map((r) => ({ ...r, thumbnailUrl: channelImageUrl(r.thumbnailUrl) }));
}

/** Linked channels by title/handle (or of the given creators), at most 20, A→Z. Admins (thumbnail.use). */
export async function channelThumbnailSources(actor: Actor, filter: { search?: string; userIds?: string[] }): Promise<ChannelThumbnailSource[]> {
  authorize(actor, "thumbnail", "use");
  // Any script and length: instr, not LIKE (D1 refuses LIKE patterns over 50 bytes; 0201).
  const term = (filter.search ?? "").trim().slice(0, 100);
  const conditions = [];
  if (filter.userIds) {
    if (!filter.userIds.length) return [];
    conditions.push(inArray(youtubeChannels.userId, filter.userIds));
  }
  if (term) conditions.push(or(containsText(youtubeChannels.channelTitle, term), containsText(youtubeChannels.channelHandle, term)));
  return selectSources(conditions.length ? and(...conditions) : undefined, 20);
}

/** One linked channel's stored thumbnail source, or null when there is no such channel. */
export async function channelThumbnailSource(actor: Actor, channelRowId: string): Promise<ChannelThumbnailSource | null> {
  authorize(actor, "thumbnail", "use");
  return (await selectSources(eq(youtubeChannels.id, channelRowId), 1))[0] ?? null;
}
