import { and, asc, eq, gt, sql } from "drizzle-orm";
import { LEAF_MATCHED, revenueReportLeaves, revenueReportPeople } from "~/db/schema";
import { db, inJsonList } from "~/platform/db.server";
import { centsHalfUp } from "./decimal";
import { letOthersIn } from "./import-report-read.server";
import { PAGES_PER_STEP, ROWS_PER_INSERT } from "./import-slices-common.server";

// A revenue report's stage, the month's rounding (issue 45 §1, docs/decisions/0350): the `stage
// people i` steps' exact sums per person, the month's cents, and the `stage round i` steps giving the
// left-over cents down the rank index.

const NANO_SCALE = 9;
/** 10^7: a cent in nano. */
const NANO_PER_CENT = 10_000_000n;

export type PeopleStep = { after: string | null; done: boolean; people: number; nano: string; floors: string };

/**
 * Step `stage people i`: the matched leaves by person in pages → each person's exact sum (nano), its
 * cents rounded down and its sub-cent remainder (INSERT OR REPLACE). A page ends at a person's
 * boundary (the last person of a full page is read again in the next one), or is one person alone.
 */
export async function peopleStep(reportId: string, after: string | null, page: number): Promise<PeopleStep> {
  const l = revenueReportLeaves;
  const out: PeopleStep = { after, done: false, people: 0, nano: "0", floors: "0" };
  let nano = 0n;
  let floors = 0n;
  for (let p = 0; p < PAGES_PER_STEP; p++) {
    await letOthersIn();
    const from = out.after;
    const rows = await db()
      .select({ userId: l.userId, nano: sql<string>`cast(${l.amountNano} as text)` })
      .from(l)
      .where(and(eq(l.reportId, reportId), eq(l.kind, LEAF_MATCHED), from === null ? undefined : gt(l.userId, from)))
      .orderBy(asc(l.userId))
      .limit(page)
      .all();
    if (rows.length === 0) {
      out.done = true;
      break;
    }
    const people = new Map<string, { nano: bigint; leaves: number }>();
    const full = rows.length === page;
    const lastUser = rows[rows.length - 1]?.userId ?? "";
    if (full && rows[0]?.userId === lastUser) {
      // One person fills the page: their sum in one aggregate (their leaves, however many).
      await letOthersIn();
      const one = await db()
        .select({ nano: sql<string>`cast(sum(${l.amountNano}) as text)`, leaves: sql<number>`count(*)` })
        .from(l)
        .where(and(eq(l.reportId, reportId), eq(l.kind, LEAF_MATCHED), eq(l.userId, lastUser)))
        .get();
      people.set(lastUser, { nano: BigInt(one?.nano ?? "0"), leaves: one?.leaves ?? 0 });
    } else {
      for (const r of rows) {
        // A full page's last person may go on in the next page: read again there, whole.
        if (full && r.userId === lastUser) break;
        const person = people.get(r.userId) ?? { nano: 0n, leaves: 0 };
        person.nano += BigInt(r.nano);
        person.leaves += 1;
        people.set(r.userId, person);
      }
    }
    const list = [...people].map(([userId, v]) => ({ userId, nano: v.nano, floor: v.nano / NANO_PER_CENT, rem: v.nano % NANO_PER_CENT, leaves: v.leaves }));
    for (let i = 0; i < list.length; i += ROWS_PER_INSERT) {
      const json = JSON.stringify(
        list
          .slice(i, i + ROWS_PER_INSERT)
          .map((x) => [x.userId, x.nano.toString(), x.floor.toString(), Number(x.rem), x.leaves, rankKey(Number(x.rem), x.userId)]),
      );
      await letOthersIn();
      await db().run(
        sql`insert or replace into ${revenueReportPeople} (report_id, user_id, nano, floor_cents, rem, leaves, rank_key, bump)
            select ${reportId}, json_extract(value, '$[0]'), cast(json_extract(value, '$[1]') as integer), cast(json_extract(value, '$[2]') as integer),
                   json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]'), 0 from json_each(${json}) where true`,
      );
    }
    for (const x of list) {
      nano += x.nano;
      floors += x.floor;
    }
    out.people += list.length;
    out.after = list.at(-1)?.userId ?? out.after;
    if (!full) {
      out.done = true;
      break;
    }
  }
  out.nano = nano.toString();
  out.floors = floors.toString();
  return out;
}

/** The month's cents (its exact sum rounded half up once) and the cents left after every person's were rounded down. */
export function monthCents(nano: bigint, floors: bigint): { totalCents: bigint; left: number } {
  const totalCents = centsHalfUp({ n: nano, s: NANO_SCALE });
  return { totalCents, left: Number(totalCents - floors) };
}

/**
 * A person's place in the month's rounding as one text key: the largest remainder first, ties by user
 * id (apportion's order over people sorted by id) — (9,999,999 − rem) in seven digits, then the id.
 */
export function rankKey(rem: number, userId: string): string {
  return `${String(9_999_999 - rem).padStart(7, "0")}${userId}`;
}

export type RoundStep = { after: string | null; bumped: number };

/**
 * Step `stage round i`: the next people in rank order get one cent more, `left` in all, a page a
 * call down the rank index (one index range after the last key). `bump` is set, not added: a
 * retried step sets the same people again.
 */
export async function roundStep(reportId: string, after: string | null, left: number, page: number): Promise<RoundStep> {
  const t = revenueReportPeople;
  const out: RoundStep = { after, bumped: 0 };
  for (let p = 0; p < PAGES_PER_STEP && out.bumped < left; p++) {
    const from = out.after;
    await letOthersIn();
    const next = await db()
      .select({ userId: t.userId, rankKey: t.rankKey })
      .from(t)
      .where(and(eq(t.reportId, reportId), from === null ? undefined : gt(t.rankKey, from)))
      .orderBy(asc(t.rankKey))
      .limit(Math.min(page, left - out.bumped))
      .all();
    if (next.length === 0) break;
    await letOthersIn();
    await db()
      .update(t)
      .set({ bump: 1 })
      .where(
        and(
          eq(t.reportId, reportId),
          inJsonList(
            t.userId,
            next.map((n) => n.userId),
          ),
        ),
      );
    out.bumped += next.length;
    out.after = next[next.length - 1]?.rankKey ?? out.after;
  }
  return out;
}
