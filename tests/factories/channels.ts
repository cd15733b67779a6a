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
