import { connectedChannelCountQuery } from "~/modules/channels/channels.server";
import { publishedTrackCountQuery } from "~/modules/music/music.server";
import { db } from "~/platform/db.server";

// The dashboard shows other domains' numbers; it owns no table. Each domain builds its count as
// a query, and the page runs them in one D1 batch (one round trip).

export type DashboardCounts = { trackCount: number; connectedChannels: number };

/** Published tracks in the library, and the user's connected channels. */
export async function dashboardCounts(userId: string): Promise<DashboardCounts> {
  try {
    const [tracks, channels] = await db().batch([publishedTrackCountQuery(), connectedChannelCountQuery(userId)]);
    return { trackCount: tracks[0]?.n ?? 0, connectedChannels: channels[0]?.n ?? 0 };
  } catch (error) {
    // The track count shows 0 on failure (spec); so does the channel count.
    console.error("dashboard counts failed", error);
    return { trackCount: 0, connectedChannels: 0 };
  }
}
