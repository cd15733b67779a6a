// /user-retention's panels agree (issue 31 §1, docs/decisions/0250-retention-definitions.md): a
// generated population (sign-ups across sources and weeks, funnel steps, activity days) in weeks no
// other test touches; after the daily job every panel (funnel, "By source", the weekly chart, the
// cohorts' People column and cells, weekly active users, the inactive list) is checked against the
// others and against the truth worked out here from the generated rows.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { actorOf, type SessionUser } from "~/modules/accounts/accounts.server";
import { inactiveUsersCsv, retentionPage, runRetentionAggregates } from "~/modules/growth/growth.server";
import { retentionQuerySchema } from "~/modules/growth/schema";
import { SOURCES, type RetentionPage, type Source } from "~/modules/growth/types";
import { addDays, addWeeks, lastWeeks, utcDay, weekOf } from "~/modules/growth/weeks";
import { createUser } from "../../factories/users";
import { present } from "../../helpers/present";

// 2040-01-02 is a Monday (ISO 2040-W01); "now" is the Wednesday of the eighth week.
const FIRST_WEEK = "2040-01-02";
const WEEKS = 8;
const now = Date.parse(`${addDays(addWeeks(FIRST_WEEK, WEEKS - 1), 2)}T15:30:00.000Z`);
const today = utcDay(now);

type Person = { id: string; email: string; joined: string; week: string; source: Source; approved: boolean; banned: boolean; days: string[] };

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const admin = { id: "", email: "", isAdmin: true, isBanned: false, approvalStatus: "approved", isMusicPartner: false, hasActiveAgency: false } as SessionUser;
const page = (over: Record<string, string> = {}) => retentionPage(actorOf(admin), retentionQuerySchema.parse({ weeks: "12", ...over }), now);

const people: Person[] = [];
const activeIn = (p: Person, week: string) => p.week === week || p.days.some((d) => weekOf(d) === week);
const lastDay = (p: Person) => [p.joined.slice(0, 10), ...p.days].sort().at(-1) ?? "";
const of = (source: "all" | Source) => people.filter((p) => source === "all" || p.source === source);

beforeAll(async () => {
  const a = await createUser("admin");
  admin.id = a.id;
  admin.email = a.email;
  const referrer = await createUser("creator");
  const agency = await createUser("agency");
  const rnd = random(31);
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < 160; i++) {
    const id = crypto.randomUUID();
    // A sign-up at any time of its week, before now.
    const joinedMs = Math.min(now - 3_600_000, Date.parse(`${FIRST_WEEK}T00:00:00Z`) + Math.floor(rnd() * WEEKS * 7 * 86_400_000));
    const joined = new Date(joinedMs).toISOString();
    const r = rnd();
    const source: Source = r < 0.5 ? "direct" : r < 0.8 ? "referral" : "agency";
    const verified = rnd() < 0.8;
    const approved = verified && rnd() < 0.7;
    const banned = rnd() < 0.05;
    // Activity days after sign-up (up to today), some people often, some never.
    const rate = present([0, 0.05, 0.2, 0.5][Math.floor(rnd() * 4)], "an activity rate");
    const days: string[] = [];
    for (let d = joined.slice(0, 10); d <= today; d = addDays(d, 1)) if (rnd() < rate) days.push(d);
    const p: Person = { id, email: `agree-${i}-${id.slice(0, 6)}@example.com`, joined, week: weekOf(joined), source, approved, banned, days };
    people.push(p);
    statements.push(
      env.DB.prepare("INSERT INTO users (id, email, email_verified_at, created_at) VALUES (?, ?, ?, ?)").bind(id, p.email, verified ? joined : null, joined),
      env.DB.prepare(
        "INSERT INTO profiles (user_id, creator_id, full_name, approval_status, is_banned, referred_by, agency_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      ).bind(
        id,
        `AG${id.slice(0, 8)}`.toUpperCase(),
        `Agree Person ${i}`,
        approved ? "approved" : "pending",
        banned ? 1 : 0,
        source === "referral" ? referrer.id : null,
        source === "agency" ? agency.agencyId : null,
        joined,
      ),
    );
    if (days.length > 0)
      statements.push(env.DB.prepare("INSERT INTO user_activity_days (user_id, day) SELECT ?, value FROM json_each(?)").bind(id, JSON.stringify(days)));
  }
  await env.DB.batch(statements);
  // A first run, then activity recorded late for past weeks (an import, a delayed write): the next run must show it.
  await runRetentionAggregates(now);
  const late = people.filter((p) => p.days.length === 0 && p.week < addWeeks(FIRST_WEEK, 3)).slice(0, 5);
  for (const p of late) p.days.push(addDays(p.joined.slice(0, 10), 8));
  await env.DB.batch(late.map((p) => env.DB.prepare("INSERT INTO user_activity_days (user_id, day) VALUES (?, ?)").bind(p.id, p.days[0])));
  expect(late.length).toBe(5);
  await runRetentionAggregates(now);
}, 120_000);

function cellsByWeek(d: RetentionPage) {
  const byWeek = new Map<string, number>();
  for (const c of d.cohorts)
    for (const cell of c.cells)
      if (cell.active !== null) byWeek.set(addWeeks(c.cohort, cell.weeksSince), (byWeek.get(addWeeks(c.cohort, cell.weeksSince)) ?? 0) + cell.active);
  return byWeek;
}

describe("/user-retention: every panel agrees on one generated population", () => {
  const weeks = lastWeeks(now, 12);

  it("sign-ups: the weekly chart, the funnel, 'By source' and the cohorts' People column count the same people, as generated", async () => {
    const d = await page();
    expect(d.computedAt).not.toBeNull();
    const chart = d.signups.reduce((s, w) => s + w.total, 0);
    expect(chart).toBe(people.length);
    expect(d.funnel[0]?.count).toBe(chart);
    expect(d.sources.reduce((s, x) => s + x.signedUp, 0)).toBe(chart);
    expect(d.cohorts.reduce((s, c) => s + c.size, 0)).toBe(chart);
    for (const w of d.signups) {
      for (const s of SOURCES) expect(w[s], `${w.label} ${s}`).toBe(people.filter((p) => p.week === w.week && p.source === s).length);
      expect(d.cohorts.find((c) => c.cohort === w.week)?.size).toBe(w.total);
    }
    expect(d.funnel.find((s) => s.key === "approved")?.count).toBe(people.filter((p) => p.approved).length);
  });

  it("a source filter: the funnel, the chart's column, 'By source' and the cohorts give the same count", async () => {
    const all = await page();
    for (const source of SOURCES) {
      const d = await page({ source });
      const truth = of(source).length;
      expect(d.funnel[0]?.count, source).toBe(truth);
      expect(all.sources.find((s) => s.source === source)?.signedUp, source).toBe(truth);
      expect(
        all.signups.reduce((s, w) => s + w[source], 0),
        source,
      ).toBe(truth);
      expect(
        d.cohorts.reduce((s, c) => s + c.size, 0),
        source,
      ).toBe(truth);
    }
  });

  it("weekly active users and cohort cells: past weeks counted, week 0 is 100 %, cells sum to weekly active users, as generated", async () => {
    for (const source of ["all", ...SOURCES] as const) {
      const d = await page(source === "all" ? {} : { source });
      const byWeek = cellsByWeek(d);
      for (const w of d.wau) {
        const truth = of(source).filter((p) => activeIn(p, w.week)).length;
        expect(w.active, `${source} ${w.label}`).toBe(truth);
        // Everyone active signed up in the window, so the cohort cells of a week add up to its active users.
        expect(byWeek.get(w.week) ?? 0, `${source} ${w.label} cells`).toBe(w.active);
      }
      for (const c of d.cohorts) {
        if (c.size > 0) expect(c.cells[0]?.pct, `${source} ${c.label} week 0`).toBe(100);
        for (const cell of c.cells) {
          if (cell.active === null) continue;
          const week = addWeeks(c.cohort, cell.weeksSince);
          const truth = of(source).filter((p) => p.week === c.cohort && activeIn(p, week)).length;
          expect(cell.active, `${source} ${c.label} week ${cell.weeksSince}`).toBe(truth);
        }
      }
    }
    // Past weeks are not empty: the population was active before the current week.
    const d = await page();
    expect(d.wau.filter((w) => w.week < weekOf(now) && w.active > 0).length).toBeGreaterThanOrEqual(WEEKS - 1);
    expect(weeks.at(-1)).toBe(weekOf(now));
  });

  it("the inactive list (from the snapshot) names exactly the generated people inactive for N days, with their last active day", async () => {
    for (const inactiveDays of [7, 14, 30]) {
      const q = retentionQuerySchema.parse({ inactiveDays: String(inactiveDays) });
      const cutoff = addDays(today, -inactiveDays);
      const csv = await inactiveUsersCsv(actorOf(admin), q, now);
      const lines = new Map(
        csv
          .trim()
          .split(/\r?\n/)
          .slice(1)
          .map((l) => l.split(","))
          .map((cols) => [cols[1], cols[5]]),
      );
      const truth = people.filter((p) => !p.banned && p.joined < cutoff && lastDay(p) < cutoff);
      expect(truth.length, `${inactiveDays} days`).toBeGreaterThan(0);
      const listed = people.filter((p) => lines.has(p.email));
      expect(listed.map((p) => p.email).sort(), `${inactiveDays} days`).toEqual(truth.map((p) => p.email).sort());
      for (const p of truth) expect(lines.get(p.email), p.email).toBe(lastDay(p));
      // The count on the page is the CSV's rows (nobody became active again since the snapshot).
      const d = await retentionPage(actorOf(admin), q, now);
      expect(d.inactive.total).toBe(lines.size);
    }
  });
});
