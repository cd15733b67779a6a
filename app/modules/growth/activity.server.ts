import { and, gte, lt, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { userActivityDays } from "~/db/schema";
import { db } from "~/platform/db.server";
import { utcDay } from "./weeks";

// Activity per user per UTC day (issue 18; docs/decisions/0170-activity-days.md). The accounts
// module puts `recordActivityQuery` into the session's sliding-expiry write (at most once an hour
// per session) and into sign-in, so no request gains a round trip; the primary key (user, day)
// keeps one row per user and day however often it runs.

/** INSERT OR IGNORE of the user's activity on the UTC day of `at` (a query for a batch). */
export function recordActivityQuery(userId: string, at: number | string | Date = Date.now()) {
  return db()
    .insert(userActivityDays)
    .values({ userId, day: utcDay(at) })
    .onConflictDoNothing();
}

/** The user was active on a day in [fromDay, toDay) (toDay open when omitted), as a predicate. */
export function activeBetween(userId: SQLiteColumn | SQL, fromDay: string, toDay?: string): SQL {
  return sql`exists (select 1 from ${userActivityDays} where ${and(
    sql`${userActivityDays.userId} = ${userId}`,
    gte(userActivityDays.day, fromDay),
    toDay ? lt(userActivityDays.day, toDay) : undefined,
  )})`;
}

/** The user's last active day (YYYY-MM-DD) or NULL. */
export function lastActiveDay(userId: SQLiteColumn | SQL): SQL<string | null> {
  return sql<string | null>`(select max(${userActivityDays.day}) from ${userActivityDays} where ${userActivityDays.userId} = ${userId})`;
}

/**
 * A day (YYYY-MM-DD, checked) as an SQL literal, for ranges on user_activity_days.day. With a bound
 * parameter SQLite cannot see how narrow `day >= ?` is and counts distinct users by scanning the
 * whole primary key (about 120 ms over a year of 50,000 people); with the literal it reads the
 * range from the day index (a few ms). The value is our own date, never user input.
 */
export function dayLiteral(day: string): SQL<string> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new RangeError(`Not a day: ${day}`);
  return sql.raw(`'${day}'`) as SQL<string>;
}
