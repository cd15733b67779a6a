import { Column, eq, getTableName, is, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { manualChannelSubmissions, youtubeChannels } from "~/db/schema";
import { type Actor, authorize } from "~/lib/permissions";
import { builtOnce, db, inJsonList } from "~/platform/db.server";

// The channel statistics another module shows next to a person (the agency roster), as
// correlated SQL to put in its own query: one statement per page, not one per person.

type Ref = SQLiteColumn | SQL;

/** A column as "table"."column": drizzle leaves select-list columns of one-table queries bare. */
function ref(c: Ref): SQL {
  return is(c, Column) ? sql`${sql.identifier(getTableName(c.table))}.${sql.identifier(c.name)}` : c;
}

/** Linked channels plus verified manual submissions, and the linked channels' total views, of the user in `userId`. */
export function channelStatsOf(userId: Ref): { channels: SQL<number>; views: SQL<number> } {
  const id = ref(userId);
  const linked = sql`(select count(*) from ${youtubeChannels} where ${ref(youtubeChannels.userId)} = ${id})`;
  const verified = sql`(select count(*) from ${manualChannelSubmissions}
    where ${ref(manualChannelSubmissions.userId)} = ${id} and ${ref(manualChannelSubmissions.status)} = 'verified')`;
  const views = sql`(select sum(${ref(youtubeChannels.viewCount)}) from ${youtubeChannels} where ${ref(youtubeChannels.userId)} = ${id})`;
  return {
    channels: sql<number>`(${linked} + ${verified})`.mapWith(Number),
    views: sql<number>`coalesce(${views}, 0)`.mapWith(Number),
  };
}

/**
 * Who owns each of these platform channel ids (youtube_channels.channel_id), with the channel's
 * title: the payments module's revenue import matches its rows with it. Unknown ids are absent.
 */
export async function channelOwnersByChannelIds(channelIds: readonly string[]): Promise<Map<string, { userId: string; title: string }>> {
  const unique = [...new Set(channelIds)];
  const rows = unique.length === 0 ? [] : await channelOwnersQuery({ channelIds: JSON.stringify(unique) }).all();
  return new Map(rows.map((r) => [r.channelId, { userId: r.userId, title: r.title }]));
}

/** The channels of a list (one JSON slot), built once per isolate (db.server builtOnce). */
const channelOwnersQuery = builtOnce((slot) =>
  db()
    .select({ channelId: youtubeChannels.channelId, userId: youtubeChannels.userId, title: youtubeChannels.channelTitle })
    .from(youtubeChannels)
    .where(inJsonList(youtubeChannels.channelId, slot("channelIds"))),
);

/** A person's linked YouTube channels (id and title), for the admin's user panel: a revenue import names them by id. */
export async function linkedChannelsForAdmin(actor: Actor, userId: string): Promise<{ channelId: string; title: string }[]> {
  authorize(actor, "user", "read");
  return db()
    .select({ channelId: youtubeChannels.channelId, title: youtubeChannels.channelTitle })
    .from(youtubeChannels)
    .where(eq(youtubeChannels.userId, userId))
    .orderBy(youtubeChannels.createdAt)
    .all();
}
