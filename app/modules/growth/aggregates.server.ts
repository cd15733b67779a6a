import { and, countDistinct, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { retentionCohortCells, retentionPeople, retentionWeeks, userActivityDays } from "~/db/schema";
import { growthPeople } from "~/modules/accounts/accounts.server";
import { hasLicence } from "~/modules/music/music.server";
import { hasEarnings } from "~/modules/payments/payments.server";
import { db } from "~/platform/db.server";
import { activityByDay, dayLiteral, lastActiveDay } from "./activity.server";
import { addWeeks, lastWeeks, weekOf, weeksBetween } from "./weeks";

// The weekly figures /user-retention reads, precomputed for every COMPLETED ISO week (UTC) by the
// scheduled job (docs/decisions/0172-retention-aggregates.md): weekly active users, and per cohort
// (sign-up week and source) how many were active that week. A completed week never changes, so
// each is computed once; the current week is always computed live by the page.

/** Weeks kept: a year of cohorts and weekly active users. */
export const AGGREGATE_WEEKS = 53;

/** The Monday of a sign-up instant's ISO week, in SQL (date(x, 'weekday 0', '-6 days') = that Monday). */
export const weekSql = (at: SQL | unknown) => sql<string>`date(${at}, 'weekday 0', '-6 days')`;

/** The completed weeks of the last year that have no figures yet. */
async function missingWeeks(now: number): Promise<string[]> {
  const weeks = lastWeeks(now, AGGREGATE_WEEKS + 1).slice(0, -1);
  const done = await db().select({ week: retentionWeeks.week }).from(retentionWeeks).where(inArray(retentionWeeks.week, weeks)).all();
  const have = new Set(done.map((d) => d.week));
  return weeks.filter((w) => !have.has(w));
}

/** The statements storing one completed week's figures. */
async function weekStatements(week: string): Promise<BatchItem<"sqlite">[]> {
  const next = addWeeks(week, 1);
  const firstCohort = addWeeks(week, -(AGGREGATE_WEEKS - 1));
  const p = growthPeople();
  const [active, cells] = await db().batch([
    db()
      .select({ n: countDistinct(userActivityDays.userId) })
      .from(activityByDay())
      .where(and(gte(userActivityDays.day, dayLiteral(week)), lt(userActivityDays.day, dayLiteral(next)))),
    // From the week's activity rows (index on day) to their people, not from every person.
    db()
      .select({ cohort: weekSql(p.joinedAt), source: p.source, n: countDistinct(userActivityDays.userId) })
      .from(userActivityDays)
      .innerJoin(p, eq(p.userId, userActivityDays.userId))
      .where(and(gte(userActivityDays.day, dayLiteral(week)), lt(userActivityDays.day, dayLiteral(next)), gte(p.joinedAt, firstCohort), lt(p.joinedAt, next)))
      .groupBy(sql`1`, sql`2`),
  ]);
  const rows = cells.map((c) => [c.cohort, c.source, weeksBetween(c.cohort, week), c.n]);
  const out: BatchItem<"sqlite">[] = [
    db()
      .insert(retentionWeeks)
      .values({ week, activeUsers: active[0]?.n ?? 0 })
      .onConflictDoUpdate({ target: retentionWeeks.week, set: { activeUsers: sql`excluded.active_users`, computedAt: sql`excluded.created_at` } }),
  ];
  if (rows.length > 0) {
    // All of the week's cells in one bound parameter (D1 binds at most 100 per statement).
    out.push(
      db()
        .insert(retentionCohortCells)
        .select(
          sql`select json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]') from json_each(${JSON.stringify(rows)}) where true`,
        )
        .onConflictDoUpdate({
          target: [retentionCohortCells.cohort, retentionCohortCells.source, retentionCohortCells.weeksSince],
          set: { active: sql`excluded.active` },
        }),
    );
  }
  return out;
}

/** Computes the figures of the completed weeks that have none, newest first, at most `limit`. Returns how many. */
export async function computeMissingWeeks(now = Date.now(), limit = AGGREGATE_WEEKS): Promise<number> {
  const weeks = (await missingWeeks(now)).reverse().slice(0, limit);
  for (const week of weeks) {
    const [first, ...rest] = await weekStatements(week);
    await db().batch([first, ...rest]);
  }
  return weeks.length;
}

/**
 * Rebuilds retention_people: every person who signed up before `now`, with the facts the funnel,
 * the source breakdown and the inactive list need, in one batch (the old rows go in the same
 * transaction). Returns the snapshot's time.
 */
export async function rebuildRetentionPeople(now = Date.now()): Promise<string> {
  const at = new Date(now).toISOString();
  const p = growthPeople();
  await db().batch([
    db().delete(retentionPeople),
    db()
      .insert(retentionPeople)
      .select(
        // Columns in the table's order.
        db()
          .select({
            userId: p.userId,
            joinedAt: p.joinedAt,
            week: weekSql(p.joinedAt).as("week"),
            source: p.source,
            status: p.approvalStatus,
            banned: p.isBanned,
            verified: sql<boolean>`${p.emailVerifiedAt} is not null`.as("verified"),
            approved: sql<boolean>`${p.approvalStatus} = 'approved'`.as("approved"),
            linked: sql<boolean>`${p.channelLinkedAt} is not null`.as("linked"),
            licensed: sql<boolean>`${hasLicence(p.userId)}`.as("licensed"),
            earning: sql<boolean>`${hasEarnings(p.userId)}`.as("earning"),
            lastDay: sql<string | null>`${lastActiveDay(p.userId)}`.as("last_day"),
            computedAt: sql<string>`${at}`.as("computed_at"),
          })
          .from(p)
          .where(lt(p.joinedAt, at)),
      ),
  ]);
  return at;
}

/** When the snapshot was taken, or null before the daily job's first run (read only: loaders never write). */
export async function retentionSnapshotAt(): Promise<string | null> {
  const row = await db().select({ at: retentionPeople.computedAt }).from(retentionPeople).limit(1).get();
  return row?.at ?? null;
}

/** The daily job (workers/app.ts scheduled): the people snapshot, and the completed weeks' figures once each. */
export async function runRetentionAggregates(now = Date.now()): Promise<void> {
  try {
    await rebuildRetentionPeople(now);
    const n = await computeMissingWeeks(now);
    if (n > 0) console.log(`retention: computed ${n} week(s) up to ${weekOf(now)}`);
  } catch (error) {
    console.error("retention aggregates failed", error);
  }
}
