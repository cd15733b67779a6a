import { eq, lt, notExists, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { retentionCohortCells, retentionPeople, retentionWeeks, userActivityDays } from "~/db/schema";
import { growthPeople } from "~/modules/accounts/accounts.server";
import { hasLicence } from "~/modules/music/music.server";
import { hasEarnings } from "~/modules/payments/payments.server";
import { db } from "~/platform/db.server";
import { dayLiteral, lastActiveDay } from "./activity.server";
import { addWeeks, utcDay, weekOf } from "./weeks";

// /user-retention's figures, all from ONE snapshot taken by the daily job or 'Refresh figures now'
// (docs/decisions/0250-retention-definitions.md): retention_people (each person's sign-up week,
// source, funnel steps and last active day), and from it and the activity days the cohort cells
// (cohort = sign-up week and source, by weeks since) of a year of weeks up to the snapshot's day,
// the current week included. Weekly active users are the cells summed by the week they fall in, so
// every panel reads the same people with the same definitions. Each run recomputes the whole year:
// activity recorded or imported late, people deleted and sources changed all show at the next run.

/** Weeks of cohort cells kept: a year of weeks, the snapshot's own week included. */
export const AGGREGATE_WEEKS = 53;

/** The Monday of a sign-up instant's ISO week, in SQL (date(x, 'weekday 0', '-6 days') = that Monday). */
export const weekSql = (at: SQL | unknown) => sql<string>`date(${at}, 'weekday 0', '-6 days')`;

/**
 * The statements that replace the cohort cells and weekly active users from retention_people as
 * just written (same batch, same transaction). A person is active in a week when they have an
 * activity day in it or signed up in it (sign-up is their first activity: week 0 is 100 %).
 */
function figuresStatements(at: string): BatchItem<"sqlite">[] {
  const today = utcDay(at);
  const first = addWeeks(weekOf(at), -(AGGREGATE_WEEKS - 1));
  const r = retentionPeople;
  const a = userActivityDays;
  const c = retentionCohortCells;
  // Each person's (person, week) pairs of activity, sign-up included: UNION removes the repeats (a
  // person active on several days of a week once). The whole year is read, so the primary key's
  // scan serves it better than the day index (measured on the bench's data: ~7 s against ~14 s).
  // Days are our own dates, as literals.
  const activeWeeks = sql`(select ${a.userId} as user_id, ${weekSql(a.day)} as week from ${a} where ${a.day} >= ${dayLiteral(first)} and ${a.day} <= ${dayLiteral(today)}
      union select ${r.userId}, ${r.week} from ${r} where ${r.week} >= ${dayLiteral(first)})`;
  return [
    db().delete(c),
    db()
      .insert(c)
      .select(
        sql`select ${r.week}, ${r.source}, cast(round((julianday(aw.week) - julianday(${r.week})) / 7) as integer), count(*)
          from ${activeWeeks} as aw join ${r} on ${r.userId} = aw.user_id where aw.week >= ${r.week} group by 1, 2, 3`,
      ),
    db().delete(retentionWeeks),
    db()
      .insert(retentionWeeks)
      .select(sql`select date(${c.cohort}, '+' || (${c.weeksSince} * 7) || ' days') as week, sum(${c.active}), ${at} from ${c} where true group by 1`),
  ];
}

/**
 * Rebuilds retention_people: every person who signed up before `now`, with the facts the funnel,
 * the source breakdown and the inactive list need, in one batch: an upsert that writes only the
 * rows whose facts changed, then the snapshot's time on every row (an unindexed column), rather
 * than deleting all 50,000 rows and inserting them again (every index entry written twice; about
 * 3x slower on the benchmark's data). Rows of people who are gone are deleted in the same
 * transaction (their accounts' deletion cascades too); then, in the same batch, the cohort cells
 * and weekly active users from it. Returns the snapshot's time.
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
            // Signing up is activity too: the later of the last activity day and the sign-up day.
            lastDay: sql<string | null>`max(coalesce(${lastActiveDay(p.userId)}, ''), substr(${p.joinedAt}, 1, 10))`.as("last_day"),
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
    ...figuresStatements(at),
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

/** The daily job (workers/app.ts scheduled): the snapshot every panel of /user-retention reads. */
export async function runRetentionAggregates(now = Date.now()): Promise<void> {
  try {
    await rebuildRetentionPeople(now);
  } catch (error) {
    console.error("retention aggregates failed", error);
  }
}

/**
 * The dev server's first request (workers/app.ts, `npm run dev` only): a fresh install's demo data
 * has no snapshot until the daily job runs, so /user-retention said "Figures not computed yet".
 * Takes it once when there is none (issue 31, docs/decisions/0258); never in a build.
 */
export async function ensureDemoRetentionSnapshot(): Promise<void> {
  if (!(await retentionSnapshotAt())) await runRetentionAggregates();
}
