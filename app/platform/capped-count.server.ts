import { count, sql, type SQL, type Subquery } from "drizzle-orm";
import { db } from "./db.server";

// A list's total, counted up to a cap (docs/decisions/0340). An exact count(*) over a table of a
// million rows reads every matching row on every load (D1 bills each one); past a few thousand the
// admin reads "10,000+" and narrows the filters instead, as search consoles do. The count is over a
// LIMIT cap + 1 subquery, so SQLite stops after cap + 1 rows, and the pages stop at the cap too:
// an OFFSET past it would read as many rows as the count saved.

/** Rows counted at most; the lists show "10,000+" beyond it and page only within it. */
export const COUNT_CAP = 10_000;

/** `count(*)` of a select's rows, stopping after cap + 1: read `n > cap` as "more than cap". */
export function cappedCount(select: { limit(n: number): { as(alias: string): Subquery } }, cap = COUNT_CAP) {
  return db()
    .select({ n: count() })
    .from(select.limit(cap + 1).as("capped"));
}

/** The pager's figures for a capped count: the total shown, whether there are more, and the pages. */
export function cappedPages(n: number, pageSize: number, cap = COUNT_CAP) {
  const more = n > cap;
  const total = Math.min(n, cap);
  return { total, more, pageCount: Math.max(1, Math.ceil(total / pageSize)) };
}

/** The page asked for, kept within the pages a capped count allows (an OFFSET never past the cap). */
export function pageWithinCap(page: number, pageSize: number, cap = COUNT_CAP): number {
  return Math.min(page, Math.max(1, Math.floor(cap / pageSize)));
}

/** The constant 1, for a counted subquery's one column. */
export const one = (): SQL<number> => sql<number>`1`;
