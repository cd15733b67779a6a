import { and, eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { ledgerEntries } from "~/db/schema";
import { db } from "~/platform/db.server";
import { countedEntries } from "./counted";

// The referral bonus, the payments module's part (issue 18; docs/decisions/0173-referral-bonus.md).
// The bonus entries are priced with a revenue import (referralBonusEntries in import-price.ts, from
// the referrals import-match.server.ts reads) and follow their import: invisible while staged, live
// with the commit, gone when replaced, finalized with the month. Here: what other screens ask of them.

/** The person has earned money (a counted, positive entry that is not a referral bonus): the funnel's last step. */
export function hasEarnings(userId: SQLiteColumn | SQL): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${ledgerEntries} where ${ledgerEntries.userId} = ${userId} and ${ledgerEntries.sourceKind} <> 'referral' and ${ledgerEntries.amountCents} > 0 and ${countedEntries()})`;
}

/** A referrer's bonus in total: earned (finalized or paid) and upcoming (estimated), in cents. A query for a batch. */
export function referralBonusTotalsQuery(userId: string) {
  return db()
    .select({
      earnedCents:
        sql<number>`coalesce(sum(case when ${ledgerEntries.status} in ('finalized', 'paid') then ${ledgerEntries.amountCents} else 0 end), 0)`.mapWith(Number),
      upcomingCents: sql<number>`coalesce(sum(case when ${ledgerEntries.status} = 'estimated' then ${ledgerEntries.amountCents} else 0 end), 0)`.mapWith(
        Number,
      ),
    })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.sourceKind, "referral"), countedEntries()));
}
