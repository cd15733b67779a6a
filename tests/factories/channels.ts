import { env } from "cloudflare:workers";

/** Links YouTube channels to users as the OAuth flow would leave them (title, and a subscriber count where given). */
export async function linkChannels(channels: { userId: string; channelId: string; title: string; subscribers?: number }[]): Promise<void> {
  await env.DB.batch(
    channels.map((c) =>
      c.subscribers === undefined
        ? env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, ?)").bind(
            crypto.randomUUID(),
            c.userId,
            c.channelId,
            c.title,
          )
        : env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title, subscriber_count) VALUES (?, ?, ?, ?, ?)").bind(
            crypto.randomUUID(),
            c.userId,
            c.channelId,
            c.title,
            c.subscribers,
          ),
    ),
  );
}

/**
 * Declares a user's TikTok / Instagram handles as /channels would store them (decision 0265). A handle
 * another test user holds moves to this one (test files may share the database).
 */
export async function declareHandles(userId: string, handles: { tiktok?: string; instagram?: string }): Promise<void> {
  const entries = Object.entries(handles).filter((e): e is [string, string] => typeof e[1] === "string");
  await env.DB.batch(
    entries.flatMap(([platform, handle]) => [
      env.DB.prepare("DELETE FROM social_handles WHERE platform = ? AND handle = ?").bind(platform, handle.toLowerCase()),
      env.DB.prepare(
        "INSERT INTO social_handles (user_id, platform, handle) VALUES (?, ?, ?) ON CONFLICT (user_id, platform) DO UPDATE SET handle = excluded.handle",
      ).bind(userId, platform, handle.toLowerCase()),
    ]),
  );
}
