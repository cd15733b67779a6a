import { and, desc, eq, gte, inArray, isNull, lt, lte, not, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { retentionCohortCells, retentionNotices, retentionPeople } from "~/db/schema";
import { toCsv } from "~/lib/csv";
import { type Actor, authorize } from "~/lib/permissions";
import { type GrowthPeople, growthPeople } from "~/modules/accounts/accounts.server";
import { createNotification } from "~/modules/notifications/notifications.server";
import { auditQuery } from "~/platform/audit.server";
import { batch, builtOnce, builtOncePerShape, db } from "~/platform/db.server";
import { appLink, emailQueryWhen } from "~/platform/email.server";
import { appName } from "~/platform/env.server";
import { activeBetween } from "./activity.server";
import { rebuildRetentionPeople, retentionSnapshotAt } from "./aggregates.server";
import { GROWTH_MESSAGES as M } from "./messages";
import { INACTIVE_PAGE_SIZE, type NotifyInput, type RetentionQuery } from "./schema";
import { SOURCES, type CohortRow, type FunnelStep, type InactiveUser, type RetentionPage } from "./types";
import { addDays, addWeeks, isoWeekLabel, lastWeeks, utcDay, weekOf, weeksBetween } from "./weeks";

// /user-retention (issue 18; docs/decisions/0172, 0250-retention-definitions.md): sign-ups per ISO
// week (UTC) by source with each funnel step reached, weekly active users, cohorts and the inactive
// users, every one read from the snapshot the daily job (or 'Refresh figures now') takes
// (aggregates.server.ts), with its time on the page. Admins only.

/** Cohort rows and week columns shown. */
export const COHORT_WEEKS = 12;

const n = (expr: SQL | SQLiteColumn) => sql<number>`coalesce(sum(${expr}), 0)`.mapWith(Number);
const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

/**
 * The funnel's counts by the furthest step reached: a person counts at a step when they reached it
 * or any later one (an approved person whose e-mail is not verified still passed that step), so
 * each step is at most the one before (a first earnings without a licence once showed as 200%).
 */
type Step = SQL | SQLiteColumn;

function funnelSums([verified, approved, linked, licensed, earning]: [Step, Step, Step, Step, Step]) {
  const any = (...steps: (SQL | SQLiteColumn)[]) => sql`(${sql.join(steps, sql` or `)})`;
  return {
    signedUp: sql<number>`count(*)`.mapWith(Number),
    verified: n(any(verified, approved, linked, licensed, earning)),
    approved: n(any(approved, linked, licensed, earning)),
    linked: n(any(linked, licensed, earning)),
    licensed: n(any(licensed, earning)),
    earning: n(earning),
  };
}

function sourceIs(p: GrowthPeople, source: RetentionQuery["source"]): SQL | undefined {
  return source === "all" ? undefined : sql`${p.source} = ${source}`;
}

/** The inactive users' predicate, live (notify re-checks with it): signed up before the cutoff, not banned, no activity since. */
function inactiveWhere(p: GrowthPeople, q: RetentionQuery, now: number) {
  const cutoff = addDays(utcDay(now), -q.inactiveDays);
  return and(
    lt(p.joinedAt, cutoff),
    eq(p.isBanned, false),
    not(activeBetween(p.userId, cutoff)),
    q.status === "all" ? undefined : eq(p.approvalStatus, q.status),
    sourceIs(p, q.source),
  );
}

/**
 * What the inactive list and its count filter on: the cutoff day, and the status and source when
 * not "all". Values, or builtOnce slots standing for them (the page builds each shape once).
 */
type InactiveFilter = { cutoff: unknown; status?: unknown; source?: unknown };

function inactiveFilterOf(q: RetentionQuery, now: number): InactiveFilter & { cutoff: string } {
  return {
    cutoff: addDays(utcDay(now), -q.inactiveDays),
    status: q.status === "all" ? undefined : q.status,
    source: q.source === "all" ? undefined : q.source,
  };
}

/** The same over the daily snapshot (indexed on the last active day): what the list and its count read. */
function inactiveInSnapshot(f: InactiveFilter) {
  const r = retentionPeople;
  const cutoff = f.cutoff as string;
  return and(
    lt(r.joinedAt, cutoff),
    eq(r.banned, false),
    or(isNull(r.lastDay), lt(r.lastDay, cutoff)),
    f.status === undefined ? undefined : eq(r.status, f.status as never),
    f.source === undefined ? undefined : eq(r.source, f.source as never),
  );
}

/**
 * Inactive people of the snapshot, most recently active first (never-active last: SQLite sorts
 * NULL lowest), with their name and e-mail joined live for the rows of the page only.
 */
function inactiveListQuery(f: InactiveFilter, week: unknown, page: { limit: unknown; offset: unknown }) {
  const r = retentionPeople;
  const cutoff = f.cutoff as string;
  const top = db()
    .select({ id: r.userId, status: r.status, source: r.source, joinedAt: r.joinedAt, lastActive: r.lastDay })
    .from(r)
    .where(inactiveInSnapshot(f))
    .orderBy(desc(r.lastDay), desc(r.joinedAt))
    .limit(page.limit as number)
    .offset(page.offset as number)
    .as("top");
  const p = growthPeople();
  return db()
    .select({
      id: top.id,
      fullName: p.fullName,
      email: p.email,
      status: top.status,
      source: top.source,
      joinedAt: top.joinedAt,
      lastActive: top.lastActive,
      // Active again since the snapshot: left out of the list.
      activeAgain: sql<boolean>`${activeBetween(top.id, cutoff)}`.mapWith(Boolean),
      notifiedThisWeek:
        sql<boolean>`exists (select 1 from ${retentionNotices} where ${retentionNotices.userId} = ${top.id} and ${retentionNotices.week} = ${week})`.mapWith(
          Boolean,
        ),
    })
    .from(top)
    .innerJoin(p, eq(p.userId, top.id))
    .orderBy(desc(top.lastActive), desc(top.joinedAt));
}

/** Which filters an inactive list has (not their values): what its statements' text depends on. */
const filterShape = (f: InactiveFilter) => `${f.status === undefined ? "" : "status"}:${f.source === undefined ? "" : "source"}`;
/** A filter of that shape with slots for its values. */
const slottedFilter = (slot: <T>(name: string) => T, f: InactiveFilter): InactiveFilter => ({
  cutoff: slot("cutoff"),
  status: f.status === undefined ? undefined : slot("status"),
  source: f.source === undefined ? undefined : slot("source"),
});

// The page's four statements, built once per isolate and shape of filter (db.server builtOnce, docs/decisions/0284).
const pageStatements = {
  // Sign-ups per week and source with the funnel steps: the weekly chart, the funnel, "By source" and the cohorts' size.
  people: builtOnce((slot) => {
    const r = retentionPeople;
    return db()
      .select({ week: r.week, source: r.source, ...funnelSums([r.verified, r.approved, r.linked, r.licensed, r.earning]) })
      .from(r)
      .where(and(gte(r.week, slot("from")), lte(r.week, slot("current"))))
      .groupBy(r.week, r.source);
  }),
  // Active people per cohort and weeks since: the cohort cells, and summed by week the weekly active users.
  cells: builtOncePerShape(filterShape, (slot, f: InactiveFilter) => {
    const c = retentionCohortCells;
    return db()
      .select({ cohort: c.cohort, weeksSince: c.weeksSince, active: sql<number>`sum(${c.active})`.mapWith(Number) })
      .from(c)
      .where(f.source === undefined ? undefined : eq(c.source, slot("source")))
      .groupBy(c.cohort, c.weeksSince);
  }),
  inactive: builtOncePerShape(filterShape, (slot, f: InactiveFilter) =>
    inactiveListQuery(slottedFilter(slot, f), slot("current"), { limit: slot("limit"), offset: slot("offset") }),
  ),
  inactiveTotal: builtOncePerShape(filterShape, (slot, f: InactiveFilter) =>
    db()
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(retentionPeople)
      .where(inactiveInSnapshot(slottedFilter(slot, f))),
  ),
};

export async function retentionPage(actor: Actor, q: RetentionQuery, now = Date.now()): Promise<RetentionPage> {
  authorize(actor, "growth", "readRetention");
  // Every figure comes from the one snapshot (docs/decisions/0250-retention-definitions.md): no
  // panel mixes it with live counts, so the same question always gets the same number.
  const snapshotAt = await retentionSnapshotAt();
  const current = weekOf(now);
  const weeks = lastWeeks(now, q.weeks);
  const from = weeks[0];
  // The schema asks for 4–52 weeks; none would be a caller's bug, not an empty page.
  if (from === undefined) throw new RangeError(`retention page over ${q.weeks} weeks`);
  const cohortWeeks = lastWeeks(now, Math.min(COHORT_WEEKS, q.weeks));
  const pageSize = INACTIVE_PAGE_SIZE;

  const filter = inactiveFilterOf(q, now);
  const values = { from, current, cutoff: filter.cutoff, status: q.status, source: q.source, limit: pageSize, offset: (q.page - 1) * pageSize };
  const [people, cellRows, inactiveRows, inactiveTotal] = await batch([
    pageStatements.people(values),
    pageStatements.cells(filter, values),
    pageStatements.inactive(filter, values),
    pageStatements.inactiveTotal(filter, values),
  ]);

  // Sign-ups per week by source, and the funnel and source breakdown over the range.
  const perWeek = new Map(weeks.map((w) => [w, { direct: 0, referral: 0, agency: 0 }]));
  const bySource = new Map(SOURCES.map((s) => [s, { signedUp: 0, approved: 0, channelLinked: 0, earning: 0 }]));
  const totals = { signedUp: 0, verified: 0, approved: 0, linked: 0, licensed: 0, earning: 0 };
  for (const row of people) {
    const w = perWeek.get(row.week);
    if (!w) continue;
    w[row.source] += row.signedUp;
    const s = bySource.get(row.source);
    if (s) {
      s.signedUp += row.signedUp;
      s.approved += row.approved;
      s.channelLinked += row.linked;
      s.earning += row.earning;
    }
    if (q.source !== "all" && row.source !== q.source) continue;
    totals.signedUp += row.signedUp;
    totals.verified += row.verified;
    totals.approved += row.approved;
    totals.linked += row.linked;
    totals.licensed += row.licensed;
    totals.earning += row.earning;
  }
  const steps: [string, string, number][] = [
    ["signed_up", "Signed up", totals.signedUp],
    ["email_verified", "E-mail verified", totals.verified],
    ["approved", "Approved", totals.approved],
    ["channel_linked", "Channel linked", totals.linked],
    ["first_licence", "First licence", totals.licensed],
    ["first_earnings", "First earnings", totals.earning],
  ];
  const funnel: FunnelStep[] = steps.map(([key, label, count], i) => {
    const before = steps[i - 1];
    return { key, label, count, conversion: before ? pct(count, before[2]) : null };
  });

  // Cohort cells by (cohort, weeks since), and weekly active users: the cells summed by the week they fall in.
  const cells = new Map<string, number>();
  const wauByWeek = new Map<string, number>();
  for (const cell of cellRows) {
    cells.set(`${cell.cohort}|${cell.weeksSince}`, cell.active);
    const week = addWeeks(cell.cohort, cell.weeksSince);
    wauByWeek.set(week, (wauByWeek.get(week) ?? 0) + cell.active);
  }
  const cohorts: CohortRow[] = cohortWeeks.map((cohort) => {
    const w = perWeek.get(cohort) ?? { direct: 0, referral: 0, agency: 0 };
    const size = q.source === "all" ? w.direct + w.referral + w.agency : w[q.source];
    const reached = weeksBetween(cohort, current);
    return {
      cohort,
      label: isoWeekLabel(cohort),
      size,
      cells: Array.from({ length: COHORT_WEEKS }, (_, k) => {
        const active = cells.get(`${cohort}|${k}`) ?? 0;
        return { weeksSince: k, active: k > reached ? null : active, pct: k > reached ? null : pct(active, size) };
      }),
    };
  });

  return {
    filters: q,
    currentWeek: current,
    signups: weeks.map((week) => {
      const w = perWeek.get(week) ?? { direct: 0, referral: 0, agency: 0 };
      return { week, label: isoWeekLabel(week), ...w, total: w.direct + w.referral + w.agency };
    }),
    funnel,
    sources: SOURCES.map((source) => ({ source, ...(bySource.get(source) ?? { signedUp: 0, approved: 0, channelLinked: 0, earning: 0 }) })),
    wau: weeks.map((week) => ({ week, label: isoWeekLabel(week), active: wauByWeek.get(week) ?? 0 })),
    cohorts,
    inactive: { total: inactiveTotal[0]?.n ?? 0, rows: inactiveRows.filter((x) => !x.activeAgain).map(toInactive), pageSize },
    computedAt: snapshotAt,
  };
}

function toInactive(r: Omit<InactiveUser, "name"> & { fullName: string | null }): InactiveUser {
  return {
    id: r.id,
    name: r.fullName?.trim() || "—",
    email: r.email,
    status: r.status,
    source: r.source,
    joinedAt: r.joinedAt,
    lastActive: r.lastActive,
    notifiedThisWeek: r.notifiedThisWeek,
  };
}

/** The inactive users matching the filters as CSV (every page, up to 50,000 rows). */
export async function inactiveUsersCsv(actor: Actor, q: RetentionQuery, now = Date.now()): Promise<string> {
  authorize(actor, "growth", "readRetention");
  const rows = (await inactiveListQuery(inactiveFilterOf(q, now), weekOf(now), { limit: 50_000, offset: 0 }).all()).filter((x) => !x.activeAgain);
  return toCsv([
    ["name", "email", "status", "source", "signed_up", "last_active", "notified_this_week"],
    ...rows.map((r) => [r.fullName ?? "", r.email, r.status, r.source, r.joinedAt.slice(0, 10), r.lastActive ?? "", r.notifiedThisWeek ? "yes" : "no"]),
  ]);
}

/**
 * 'Notify': a bell notification and an e-mail to each chosen user who is still inactive for the
 * given days, at most once per user per ISO week (the unique (user, week) row decides, so two
 * admins at once notify each person once). Recorded in retention_notices and the audit log.
 */
export async function notifyInactive(actor: Actor, request: Request, input: NotifyInput, now = Date.now()): Promise<{ sent: number; skipped: number }> {
  authorize(actor, "growth", "notifyInactive");
  const week = weekOf(now);
  const ids = [...new Set(input.userIds)];
  const q: RetentionQuery = { weeks: 12, source: "all", inactiveDays: input.inactiveDays, status: "all", page: 1 };
  const p = growthPeople();
  const eligible = await db()
    .select({ id: p.userId, email: p.email })
    .from(p)
    .where(and(inArray(p.userId, ids), inactiveWhere(p, q, now)))
    .all();
  if (eligible.length === 0) return { sent: 0, skipped: ids.length };
  const app = appName();
  const mail = (to: string) => ({
    to,
    kind: "retention_nudge",
    subject: M.notifyTitle,
    text: `${M.notifyContent(app)}\n\nSign in: ${appLink("/dashboard")}`,
    action: appLink("/dashboard"),
  });
  const statements = eligible.flatMap((u) => [
    db()
      .insert(retentionNotices)
      .values({ id: crypto.randomUUID(), userId: u.id, week, inactiveDays: input.inactiveDays, sentBy: actor.id })
      .onConflictDoNothing()
      .returning({ userId: retentionNotices.userId }),
    // The e-mail only when the notice row was written (changes() of the statement before).
    emailQueryWhen(mail(u.email), sql`changes() = 1`),
  ]);
  const [firstStatement, ...otherStatements] = statements;
  if (!firstStatement) return { sent: 0, skipped: ids.length };
  const results = await db().batch([
    firstStatement,
    ...otherStatements,
    auditQuery({
      eventType: "retention_notify",
      severity: "low",
      userId: actor.id,
      request,
      details: { week, inactive_days: input.inactiveDays, asked: ids.length },
    }),
  ]);
  const sentTo = results.flatMap((r, i) => (i % 2 === 0 && i < statements.length ? (r as { userId: string }[]).map((x) => x.userId) : []));
  if (sentTo.length > 0)
    await createNotification({ title: M.notifyTitle, content: M.notifyContent(app), createdBy: actor.id }, { type: "ids", userIds: sentTo });
  return { sent: sentTo.length, skipped: ids.length - sentTo.length };
}

/** 'Refresh figures': what the daily job does (the people snapshot, the completed weeks), now. */
export async function refreshRetention(actor: Actor, request: Request, now = Date.now()): Promise<{ at: string }> {
  authorize(actor, "growth", "refreshRetention");
  const at = await rebuildRetentionPeople(now);
  await db().batch([auditQuery({ eventType: "retention_refreshed", severity: "low", userId: actor.id, request, details: { at } })]);
  return { at };
}
