import { env } from "~/platform/env.server";

/** The dashboard's numbers in one D1 batch (one round trip). */
export async function dashboardCounts(userId: string): Promise<{ trackCount: number; connectedChannels: number }> {
  try {
    const [tracks, channels] = await env.DB.batch<{ n: number }>([
      env.DB.prepare("SELECT count(*) AS n FROM music_tracks WHERE status = 'published'"),
      // Connected channels = linked channels + manual submissions with status verified.
      env.DB.prepare(
        `SELECT (SELECT count(*) FROM youtube_channels WHERE user_id = ?1)
              + (SELECT count(*) FROM manual_channel_submissions WHERE user_id = ?1 AND status = 'verified') AS n`,
      ).bind(userId),
    ]);
    return { trackCount: tracks.results[0]?.n ?? 0, connectedChannels: channels.results[0]?.n ?? 0 };
  } catch (error) {
    // The track count shows 0 on failure (spec); so does the channel count.
    console.error("dashboard counts failed", error);
    return { trackCount: 0, connectedChannels: 0 };
  }
}
