import { type SQL, sql } from "drizzle-orm";
import { alongsideSession, NoSessionError, sessionUserOf } from "~/modules/accounts/accounts.server";
import { connectedChannelCountQuery } from "~/modules/channels/channels.server";
import { publishedTrackCountQuery } from "~/modules/music/music.server";
import { builtOnce, db } from "~/platform/db.server";

// The dashboard shows other domains' numbers; it owns no table. Each domain builds its count as
// a query; the dashboard reads both as scalar subqueries of ONE statement, and that statement rides
// in the session lookup's D1 batch: a signed-in /dashboard is one round trip with two statements
// (docs/decisions/0083, 0089).

export type DashboardCounts = { trackCount: number; connectedChannels: number };

type Args = Parameters<typeof alongsideSession>[0];

/** Both counts in one row (one statement instead of two: each statement has its own cost in D1). */
export function dashboardCountsQuery(me: SQL<string | null> | string) {
  return db()
    .select({
      trackCount: sql<number>`${publishedTrackCountQuery()}`.mapWith(Number),
      connectedChannels: sql<number>`${connectedChannelCountQuery(me)}`.mapWith(Number),
    })
    .from(sql`(select 1)`);
}

/** dashboardCountsQuery for the session's user, built once per isolate (docs/decisions/0285). */
const dashboardCountsStatement = builtOnce((slot) => dashboardCountsQuery(sessionUserOf(slot)));

/**
 * Published tracks in the library, and the user's connected channels. Call it before the guard
 * (so it joins the session's batch) and await it after the guard has passed.
 */
export function dashboardCounts(args: Args): Promise<DashboardCounts> {
  return alongsideSession(args, dashboardCountsStatement).then(
    ([row]) => ({ trackCount: row?.trackCount ?? 0, connectedChannels: row?.connectedChannels ?? 0 }),
    (error) => {
      // The track count shows 0 on failure (spec); so does the channel count. Without a session
      // the guard answers (a redirect) and these numbers are never shown.
      if (!(error instanceof NoSessionError)) console.error("dashboard counts failed", error);
      return { trackCount: 0, connectedChannels: 0 };
    },
  );
}
