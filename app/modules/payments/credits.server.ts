import { and, eq, getTableColumns, isNull, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { ledgerEntries } from "~/db/schema";
import { db } from "~/platform/db.server";
import { isMonth } from "./calendar";
import { WHOLE_BP } from "~/lib/split";

// Ledger entries that do not come from a revenue import (issue 15): a campaign's approved amounts
// today; clips, referral bonuses and adjustments later. Other domains never write ledger SQL of
// their own: they get these statements and put them in their own guarded batch, so the entries
// are written in the same transaction as the change that earns them (docs/decisions/0141).
//
//   creditQueries(credits)                 INSERT … SELECT … FROM json_each(?), 1,000 entries per statement
//   finalizeCreditsQuery(kind, sourceId)   estimated → finalized for one source (the payout-day job then gathers them)
//   creditsOfSourceQuery(kind, sourceId)   the entries a source wrote, with their status and payout

export type CreditSourceKind = "campaign" | "clip" | "referral" | "adjustment";

export type Credit = {
  userId: string;
  /** YYYY-MM: the statement month the entry belongs to. */
  month: string;
  sourceKind: CreditSourceKind;
  /** The source item's id (a campaign id, a clip id, a referred user's id). */
  sourceId: string;
  netCents: number;
  shareBp: number;
  amountCents: number;
  /** 'finalized' when the money is already in (it is payable on the next payout day). */
  status: "estimated" | "finalized";
  /** What the statement names (e.g. the campaign's brand and title). */
  note: string | null;
};

/** Entries per INSERT: one bound JSON parameter each (docs/decisions/0126-ledger-benchmark.md). */
export const CREDIT_ROWS_PER_INSERT = 1000;

/** Fields of an entry in the JSON rows, by position. */
const CREDIT_FIELDS = ["id", "userId", "month", "sourceKind", "sourceId", "netCents", "shareBp", "amountCents", "status", "note"] as const;

function checkCredit(c: Credit): void {
  if (!c.userId || !isMonth(c.month)) throw new RangeError(`A credit needs a person and a month (YYYY-MM): ${c.userId} ${c.month}`);
  if (!["campaign", "clip", "referral", "adjustment"].includes(c.sourceKind)) throw new RangeError(`Not a credit source: ${c.sourceKind}`);
  for (const v of [c.netCents, c.amountCents]) if (!Number.isSafeInteger(v)) throw new RangeError(`Amounts are whole cents: ${v}`);
  if (!Number.isInteger(c.shareBp) || c.shareBp < 0 || c.shareBp > WHOLE_BP) throw new RangeError(`A share is 0..10000 basis points: ${c.shareBp}`);
  if (c.status !== "estimated" && c.status !== "finalized") throw new RangeError(`A credit is written estimated or finalized: ${c.status}`);
}

/**
 * The statements that write `credits` to the ledger: INSERT … SELECT … FROM json_each(?) with up to
 * 1,000 entries in one bound parameter, so thousands of entries are a few statements. The caller
 * puts them in its own batch, after its guarded update and precondition. An entry is written once
 * per person, month and source: a row whose (person, month, kind, source) already has an entry
 * outside any import is skipped, so a repeated call writes nothing twice. Two credits of one
 * person, month and source in the same call are refused (RangeError): sum them first.
 */
export function creditQueries(credits: readonly Credit[]): BatchItem<"sqlite">[] {
  const seen = new Set<string>();
  for (const c of credits) {
    checkCredit(c);
    const key = `${c.userId}\u0000${c.month}\u0000${c.sourceKind}\u0000${c.sourceId}`;
    if (seen.has(key)) throw new RangeError(`Two credits for one person, month and source: ${c.sourceKind} ${c.sourceId}`);
    seen.add(key);
  }
  const out: BatchItem<"sqlite">[] = [];
  for (let i = 0; i < credits.length; i += CREDIT_ROWS_PER_INSERT) {
    const rows = credits.slice(i, i + CREDIT_ROWS_PER_INSERT).map((c) => ({ ...c, id: crypto.randomUUID() }));
    out.push(creditInsertQuery(rows));
  }
  return out;
}

function creditInsertQuery(rows: (Credit & { id: string })[]) {
  const json = JSON.stringify(rows.map((c) => CREDIT_FIELDS.map((f) => c[f] ?? null)));
  const at = (f: (typeof CREDIT_FIELDS)[number]) => sql.raw(`json_extract(value, '$[${CREDIT_FIELDS.indexOf(f)}]')`);
  const fixed: Partial<Record<keyof typeof ledgerEntries.$inferSelect, SQL>> = {
    payoutId: sql`null`,
    importId: sql`null`,
    createdAt: ledgerEntries.createdAt.default as SQL,
  };
  const columns = Object.keys(getTableColumns(ledgerEntries)).map((k) =>
    (CREDIT_FIELDS as readonly string[]).includes(k) ? at(k as (typeof CREDIT_FIELDS)[number]) : (fixed[k as keyof typeof fixed] ?? sql`null`),
  );
  return db()
    .insert(ledgerEntries)
    .select(
      sql`select ${sql.join(columns, sql`, `)} from json_each(${json}) where not exists (select 1 from ledger_entries e where e.import_id is null and e.user_id = ${at("userId")} and e.month = ${at("month")} and e.source_kind = ${at("sourceKind")} and e.source_id = ${at("sourceId")})`,
    );
}

/** Estimated → finalized for every entry one source wrote (the payout-day job gathers them from then on). */
export function finalizeCreditsQuery(sourceKind: CreditSourceKind, sourceId: string) {
  return db()
    .update(ledgerEntries)
    .set({ status: "finalized" })
    .where(
      and(
        eq(ledgerEntries.sourceKind, sourceKind),
        eq(ledgerEntries.sourceId, sourceId),
        eq(ledgerEntries.status, "estimated"),
        isNull(ledgerEntries.importId),
      ),
    );
}

/** The entries one source wrote, with their status and whether they are paid. */
export function creditsOfSourceQuery(sourceKind: CreditSourceKind, sourceId: string) {
  return db()
    .select({
      userId: ledgerEntries.userId,
      month: ledgerEntries.month,
      amountCents: ledgerEntries.amountCents,
      status: ledgerEntries.status,
      payoutId: ledgerEntries.payoutId,
    })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.sourceKind, sourceKind), eq(ledgerEntries.sourceId, sourceId), isNull(ledgerEntries.importId)));
}
