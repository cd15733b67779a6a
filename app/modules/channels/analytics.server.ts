import { and, asc, desc, eq, gte, lt, lte, max, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { channelSnapshots as s, youtubeChannels as c } from "~/db/schema";
import { authorize, type Actor } from "~/lib/permissions";
import { db } from "~/platform/db.server";
import { analyticsCsv, buildAnalytics, rangeDays, type AnalyticsData, type AnalyticsRange } from "./analytics";

// Analytics of the user's linked channels, read from the daily snapshots (one round trip).

const snapshotColumns = {
  channelRowId: s.channelRowId,
  day: s.day,
  subscribers: s.subscriberCount,
  views: s.viewCount,
  videos: s.videoCount,
};

/** The user's channels over the range, from the snapshots (one round trip). */
export async function analyticsFor(actor: Actor, range: AnalyticsRange, today = new Date()): Promise<AnalyticsData> {
  authorize(actor, "channel", "readAnalytics");
  const days = rangeDays(range, today);
  const [start, end] = [days[0], days.at(-1)];
  if (start === undefined || end === undefined) throw new RangeError(`analytics range ${range} has no days`);
  const earlier = alias(s, "earlier");
  const [channels, snapshots, baselines] = await db().batch([
    db()
      .select({ id: c.id, channelId: c.channelId, title: c.channelTitle, handle: c.channelHandle })
      .from(c)
      .where(eq(c.userId, actor.id))
      .orderBy(desc(c.createdAt), asc(c.id)),
    db()
      .select(snapshotColumns)
      .from(s)
      .innerJoin(c, eq(c.id, s.channelRowId))
      .where(and(eq(c.userId, actor.id), gte(s.day, start), lte(s.day, end)))
      .orderBy(asc(s.day)),
    // Each channel's newest snapshot before the range: where its carried value starts.
    db()
      .select(snapshotColumns)
      .from(s)
      .innerJoin(c, eq(c.id, s.channelRowId))
      .where(
        and(
          eq(c.userId, actor.id),
          eq(
            s.day,
            sql`(${db()
              .select({ day: max(earlier.day) })
              .from(earlier)
              .where(and(eq(earlier.channelRowId, s.channelRowId), lt(earlier.day, start)))})`,
          ),
        ),
      ),
  ]);
  return buildAnalytics(range, days, channels, snapshots, baselines);
}

/** The visible range as a CSV download: the file name and its text. */
export async function analyticsExport(actor: Actor, range: AnalyticsRange): Promise<{ filename: string; csv: string }> {
  const data = await analyticsFor(actor, range);
  const lastDay = data.days[data.days.length - 1];
  return { filename: `shortbeat-analytics-${range}d-${lastDay}.csv`, csv: analyticsCsv(data) };
}
