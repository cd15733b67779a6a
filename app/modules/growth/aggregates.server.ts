import { eq, inArray, lt, notExists, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { retentionCohortCells, retentionPeople, retentionWeeks, userActivityDays } from "~/db/schema";
import { growthPeople } from "~/modules/accounts/accounts.server";
import { hasLicence } from "~/modules/music/music.server";
import { hasEarnings } from "~/modules/payments/payments.server";
import { db } from "~/platform/db.server";
import { activityByDay, lastActiveDay } from "./activity.server";
import { addWeeks, lastWeeks, weekOf } from "./weeks";

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

/**
 * The statements storing the figures of the given completed weeks, all of them at once (set-based,
 * one batch; it used to be two round trips per week, ~10 s for a year over 50,000 people):
 * per week, the distinct people active in it, and per cohort (sign-up week within the 52 weeks
 * before, and source) how many of them were active. Each week reads its own activity range
 * through the day index; people and their source are worked out once (a materialized CTE) rather
 * than for every activity row.
 */
function weeksStatements(weeks: readonly string[]): [BatchItem<"sqlite">, BatchItem<"sqlite">] {
  // [week, next week, first cohort] per week; days are our own dates, one bound parameter.
  const ranges = JSON.stringify(weeks.map((w) => [w, addWeeks(w, 1), addWeeks(w, -(AGGREGATE_WEEKS - 1))]));
  const m = sql`m as materialized (select json_extract(value, '$[0]') as week, json_extract(value, '$[1]') as next, json_extract(value, '$[2]') as first from json_each(${ranges}))`;
  const p = growthPeople();
  const a = userActivityDays;
  return [
    db()
      .insert(retentionWeeks)
      .select(
        sql`with ${m} select m.week, (select count(distinct ${a.userId}) from ${activityByDay()} where ${a.day} >= m.week and ${a.day} < m.next), ${nowIso} from m where true`,
      )
      .onConflictDoUpdate({ target: retentionWeeks.week, set: { activeUsers: sql`excluded.active_users`, computedAt: sql`excluded.created_at` } }),
    db()
      .insert(retentionCohortCells)
      .select(
        sql`with ${m}, ppl as materialized (select ${p.userId} as user_id, ${p.joinedAt} as joined_at, ${weekSql(p.joinedAt)} as cohort, ${p.source} as source from ${p})
          select ppl.cohort, ppl.source, cast(round((julianday(m.week) - julianday(ppl.cohort)) / 7) as integer), count(distinct ${a.userId})
          from m join ${activityByDay()} on ${a.day} >= m.week and ${a.day} < m.next join ppl on ppl.user_id = ${a.userId}
          where ppl.joined_at >= m.first and ppl.joined_at < m.next group by m.week, ppl.cohort, ppl.source`,
      )
      .onConflictDoUpdate({
        target: [retentionCohortCells.cohort, retentionCohortCells.source, retentionCohortCells.weeksSince],
        set: { active: sql`excluded.active` },
      }),
  ];
}

const nowIso = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/** Computes the figures of the completed weeks that have none, newest first, at most `limit`, in one batch. Returns how many. */
export async function computeMissingWeeks(now = Date.now(), limit = AGGREGATE_WEEKS): Promise<number> {
  const weeks = (await missingWeeks(now)).reverse().slice(0, limit);
  if (weeks.length === 0) return 0;
  await db().batch(weeksStatements(weeks));
  return weeks.length;
}

/**
 * Rebuilds retention_people: every person who signed up before `now`, with the facts the funnel,
 * the source breakdown and the inactive list need, in one batch: an upsert that writes only the
 * rows whose facts changed, then the snapshot's time on every row (an unindexed column), rather
 * than deleting all 50,000 rows and inserting them again (every index entry written twice; about
 * 3x slower on the benchmark's data). Rows of people who are gone are deleted in the same
 * transaction (their accounts' deletion cascades too). Returns the snapshot's time.
 */
export async function rebuildRetentionPeople(now = Date.now()): Promise<string> {
  const at = new Date(now).toISOString();
  const p = growthPeople();
  const r = retentionPeople;
  await db().batch([
    db()
      .delete(r)
      .where(notExists(db().select({ one: sql`1` }).from(p).where(eq(p.userId, r.userId)))),
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
      )
      .onConflictDoUpdate({
        target: r.userId,
        set: {
          joinedAt: excluded(r.joinedAt),
          week: excluded(r.week),
          source: excluded(r.source),
          status: excluded(r.status),
          banned: excluded(r.banned),
          verified: excluded(r.verified),
          approved: excluded(r.approved),
          linked: excluded(r.linked),
          licensed: excluded(r.licensed),
          earning: excluded(r.earning),
          lastDay: excluded(r.lastDay),
          computedAt: excluded(r.computedAt),
        },
        // Only the people whose facts changed are written (most did not since yesterday).
        setWhere: sql.join(
          FACTS.map((c) => sql`${c} is not ${excluded(c)}`),
          sql` or `,
        ),
      }),
    // The snapshot's time on every row (not indexed: no index entry is touched).
    db().update(r).set({ computedAt: at }),
  ]);
  return at;
}

const excluded = (c: { name: string }) => sql.raw(`excluded."${c.name}"`);
const FACTS = (() => {
  const r = retentionPeople;
  return [r.joinedAt, r.week, r.source, r.status, r.banned, r.verified, r.approved, r.linked, r.licensed, r.earning, r.lastDay];
})();

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
