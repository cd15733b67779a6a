import { Column, and, desc, eq, getTableName, is, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { ledgerEntries } from "~/db/schema";
import { type Actor, authorize } from "~/lib/permissions";
import { db } from "~/platform/db.server";
import { addMonths, monthLabel, monthOf } from "./calendar";
import type { LedgerStatus } from "./types";
import { countedEntries } from "./counted";

// Earnings from the ledger for other pages (docs/decisions/0132): the person's own earnings by
// month (/analytics), and a roster member's earnings this month and in total, as correlated SQL
// for the agency roster's own query. Only entries that count (written by hand or by the live
// import of their month); every status (estimated, finalized, paid).

type Ref = SQLiteColumn | SQL;

/** A column as "table"."column": drizzle leaves select-list columns of one-table queries bare. */
function ref(c: Ref): SQL {
  return is(c, Column) ? sql`${sql.identifier(getTableName(c.table))}.${sql.identifier(c.name)}` : c;
}

/** Entries that count, over the alias `le` of ledger_entries. */
const countedLe = countedEntries(sql`le.import_id`);

/**
 * What the person in `userId` earned this month (the calendar month, UTC) and in total, in cents,
 * as columns of the caller's query. Call only where the viewer may see that person's earnings (their
 * agency's roster, an admin).
 */
export function earningsOf(userId: Ref, today = new Date()): { earnedThisMonthCents: SQL<number>; earnedTotalCents: SQL<number> } {
  const id = ref(userId);
  const month = monthOf(today);
  return {
    earnedThisMonthCents:
      sql<number>`coalesce((select sum(le.amount_cents) from ${ledgerEntries} le where le.user_id = ${id} and le.month = ${month} and ${countedLe}), 0)`.mapWith(
        Number,
      ),
    earnedTotalCents: sql<number>`coalesce((select sum(le.amount_cents) from ${ledgerEntries} le where le.user_id = ${id} and ${countedLe}), 0)`.mapWith(
      Number,
    ),
  };
}

export type MonthEarnings = { month: string; label: string; amountCents: number; status: LedgerStatus };

const STATUS_ORDER: LedgerStatus[] = ["estimated", "finalized", "paid"];

/** The signed-in person's earnings by month over the last `months` months (newest first), with each month's least advanced status. */
export async function earningsByMonth(actor: Actor, months = 12, today = new Date()): Promise<MonthEarnings[]> {
  authorize(actor, "payments", "readOwn");
  const since = addMonths(monthOf(today), -(months - 1));
  const rows = await db()
    .select({
      month: ledgerEntries.month,
      total: sql<number>`sum(${ledgerEntries.amountCents})`.mapWith(Number),
      rank: sql<number>`min(case ${ledgerEntries.status} when 'estimated' then 0 when 'finalized' then 1 else 2 end)`.mapWith(Number),
    })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, actor.id), sql`${ledgerEntries.month} >= ${since}`, countedEntries()))
    .groupBy(ledgerEntries.month)
    .orderBy(desc(ledgerEntries.month));
  return rows.map((r) => ({ month: r.month, label: monthLabel(r.month), amountCents: r.total, status: STATUS_ORDER[r.rank] ?? "estimated" }));
}
