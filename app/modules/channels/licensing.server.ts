import { and, asc, eq } from "drizzle-orm";
import { manualChannelSubmissions, youtubeChannels } from "~/db/schema";
import { type Actor, authorize } from "~/lib/permissions";
import { db } from "~/platform/db.server";

// The channels a music licence covers (the music module's 'Use this track'): the actor's linked
// YouTube channels and their manual submissions that an admin verified. Pending or rejected
// submissions do not count.

export type LicensableChannel = {
  kind: "youtube" | "manual";
  /** The YouTube channel id, or the manual submission's id. */
  ref: string;
  title: string;
  url: string | null;
};

/** The actor's linked and verified channels, linked ones first; empty when there is none. */
export async function licensableChannels(actor: Actor): Promise<LicensableChannel[]> {
  authorize(actor, "channel", "list");
  const [linked, verified] = await db().batch([
    db()
      .select({ channelId: youtubeChannels.channelId, title: youtubeChannels.channelTitle, handle: youtubeChannels.channelHandle })
      .from(youtubeChannels)
      .where(eq(youtubeChannels.userId, actor.id))
      .orderBy(asc(youtubeChannels.channelTitle)),
    db()
      .select({ id: manualChannelSubmissions.id, title: manualChannelSubmissions.channelName, url: manualChannelSubmissions.channelUrl })
      .from(manualChannelSubmissions)
      .where(and(eq(manualChannelSubmissions.userId, actor.id), eq(manualChannelSubmissions.status, "verified")))
      .orderBy(asc(manualChannelSubmissions.channelName)),
  ]);
  return [
    ...linked.map((c) => ({
      kind: "youtube" as const,
      ref: c.channelId,
      title: c.title,
      url: `https://www.youtube.com/channel/${encodeURIComponent(c.channelId)}`,
    })),
    ...verified.map((c) => ({ kind: "manual" as const, ref: c.id, title: c.title, url: c.url })),
  ];
}
