import { and, eq, type SQL, sql } from "drizzle-orm";
import { ledgerEntries } from "~/db/schema";
import { db } from "~/platform/db.server";
import { nextPayoutDate } from "./calendar";
import { countedEntries } from "./counted";
import type { LedgerStatus } from "./types";

// The balance math /payments and the dashboard's money card share (docs/decisions/0328): which
// entries are a person's, what is payable now, the status a month shows, and what the next payout
// holds. Written once here, so the two pages cannot disagree. Internal to the payments module.

/** The person's own entries that count (`me`: their id, a builtOnce slot, or an SQL expression such as the session's user). */
export const ownEntries = (me: SQL | string) => and(eq(ledgerEntries.userId, me), countedEntries());

/**
 * In no payout yet, as a condition that is never read through an index. `payout_id is null` is every
 * unpaid entry of EVERYONE (at 100,000 creators with two finalized months unpaid, 200,000 rows), and
 * with the table's statistics (ANALYZE, PRAGMA optimize) SQLite took it for a selective term: it read
 * ledger_entries_payout_idx's 200,000 nulls instead of the person's dozen rows through
 * (user_id, month): 330 ms and 200,018 rows read per /dashboard (decision 0338). The unary + keeps the
 * term out of index choice (https://www.sqlite.org/optoverview.html, "Disqualifying WHERE Clause
 * Terms Using Unary-+"); the person's own condition chooses the index.
 */
export const notInPayout = () => sql`+${ledgerEntries.payoutId} is null`;

/** Payable now: finalized and in no payout (what the next payout day gathers, if at least the minimum). */
export const payableWhere = (me: SQL | string) => and(ownEntries(me), eq(ledgerEntries.status, "finalized"), notInPayout());

/** The sum of the amounts of the person's entries matching `where`, 0 for none: one scalar subquery. */
export const amountSum = (where: SQL | undefined) =>
  sql<number>`(${db()
    .select({ total: sql`coalesce(sum(${ledgerEntries.amountCents}), 0)` })
    .from(ledgerEntries)
    .where(where)})`.mapWith(Number);

/** The least advanced status of a group of lines, as a rank into STATUS_ORDER. */
export const statusRank = sql<number>`min(case ${ledgerEntries.status} when 'estimated' then 0 when 'finalized' then 1 else 2 end)`.mapWith(Number);

export const STATUS_ORDER: LedgerStatus[] = ["estimated", "finalized", "paid"];

/** The next payout day and what it will hold: the payable balance when it reaches the minimum, else nothing (it carries over). */
export function nextPayoutOf(payableCents: number, minimumCents: number, payoutDay: number, today: Date): { nextPayoutDate: string; expectedCents: number } {
  return { nextPayoutDate: nextPayoutDate(today, payoutDay), expectedCents: payableCents >= minimumCents ? payableCents : 0 };
}
