import { and, desc, eq, sql } from "drizzle-orm";
import { ledgerEntries, payouts, revenueMonths } from "~/db/schema";
import { type Actor, authorize } from "~/lib/permissions";
import { channelOwnersByChannelIds } from "~/modules/channels/channels.server";
import { db } from "~/platform/db.server";
import { monthLabel, nextPayoutDate } from "./calendar";
import { centsToDecimal } from "./money";
import { toCsv } from "./payouts.server";
import { creatorShareBpAt, payoutDay } from "./share.server";
import type { LedgerStatus, PayoutRow, SourceKind, StatementLine } from "./types";

// What /payments shows: the person's own entries (only those that count: a staged import's are
// invisible), balances by status, the monthly statement, payouts, and the CSV of it all.

/** Entries that count: written by hand, or by the live import of their month. */
const counts = () =>
  sql`(${ledgerEntries.importId} is null or ${ledgerEntries.importId} in (select ${revenueMonths.liveImportId} from ${revenueMonths} where ${revenueMonths.liveImportId} is not null))`;

const SOURCE_LABEL: Record<SourceKind, string> = {
  music: "Music share",
  campaign: "Campaign",
  clip: "Clip",
  referral: "Referral",
  adjustment: "Adjustment",
};

async function linesOf(userId: string, month?: string): Promise<StatementLine[]> {
  const rows = await db()
    .select({
      id: ledgerEntries.id,
      month: ledgerEntries.month,
      sourceKind: ledgerEntries.sourceKind,
      sourceId: ledgerEntries.sourceId,
      netCents: ledgerEntries.netCents,
      shareBp: ledgerEntries.shareBp,
      amountCents: ledgerEntries.amountCents,
      status: ledgerEntries.status,
      note: ledgerEntries.note,
    })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), month ? eq(ledgerEntries.month, month) : undefined, counts()))
    .orderBy(desc(ledgerEntries.month), ledgerEntries.sourceKind, ledgerEntries.sourceId)
    .all();
  const channels = await channelOwnersByChannelIds(rows.filter((r) => r.sourceKind === "music" && r.sourceId).map((r) => r.sourceId));
  return rows.map((r) => ({
    id: r.id,
    month: r.month,
    sourceKind: r.sourceKind,
    source:
      r.sourceKind === "music"
        ? `${SOURCE_LABEL.music}: ${r.sourceId ? (channels.get(r.sourceId)?.title ?? r.sourceId) : "all channels"}`
        : `${SOURCE_LABEL[r.sourceKind]}${r.note ? `: ${r.note}` : ""}`,
    netCents: r.netCents,
    shareBp: r.shareBp,
    amountCents: r.amountCents,
    status: r.status,
  }));
}

export type PaymentsPage = {
  nextPayoutDate: string;
  expectedCents: number;
  shareBp: number;
  balances: Record<LedgerStatus, number>;
  months: { month: string; label: string; amountCents: number; status: LedgerStatus }[];
  month: string | null;
  lines: StatementLine[];
  payouts: PayoutRow[];
};

/** The signed-in person's money: next payout, balances, statement of `month` (default: the latest), payouts. */
export async function paymentsPage(actor: Actor, month: string | null, today = new Date()): Promise<PaymentsPage> {
  authorize(actor, "payments", "readOwn");
  const [byStatus, byMonth, own, unpaid] = await db().batch([
    db()
      .select({ status: ledgerEntries.status, total: sql<number>`coalesce(sum(${ledgerEntries.amountCents}), 0)`.mapWith(Number) })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, actor.id), counts()))
      .groupBy(ledgerEntries.status),
    db()
      .select({
        month: ledgerEntries.month,
        total: sql<number>`sum(${ledgerEntries.amountCents})`.mapWith(Number),
        // The least advanced status of the month's lines.
        rank: sql<number>`min(case ${ledgerEntries.status} when 'estimated' then 0 when 'finalized' then 1 else 2 end)`.mapWith(Number),
      })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, actor.id), counts()))
      .groupBy(ledgerEntries.month)
      .orderBy(desc(ledgerEntries.month)),
    db()
      .select({
        id: payouts.id,
        batch: payouts.batch,
        amountCents: payouts.amountCents,
        status: payouts.status,
        reference: payouts.reference,
        paidAt: payouts.paidAt,
        createdAt: payouts.createdAt,
      })
      .from(payouts)
      .where(eq(payouts.userId, actor.id))
      .orderBy(desc(payouts.createdAt)),
    // What the next payout will hold: finalized entries not yet paid (gathered or about to be).
    db()
      .select({ total: sql<number>`coalesce(sum(${ledgerEntries.amountCents}), 0)`.mapWith(Number) })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, actor.id), eq(ledgerEntries.status, "finalized"))),
  ]);
  const balances: Record<LedgerStatus, number> = { estimated: 0, finalized: 0, paid: 0 };
  for (const r of byStatus) balances[r.status] = r.total;
  const STATUS: LedgerStatus[] = ["estimated", "finalized", "paid"];
  const months = byMonth.map((m) => ({ month: m.month, label: monthLabel(m.month), amountCents: m.total, status: STATUS[m.rank] ?? "estimated" }));
  const chosen = month && months.some((m) => m.month === month) ? month : (months[0]?.month ?? null);
  return {
    nextPayoutDate: nextPayoutDate(today, await payoutDay()),
    expectedCents: Math.max(0, unpaid[0]?.total ?? 0),
    shareBp: await creatorShareBpAt(chosen ?? today.toISOString().slice(0, 7), actor.id),
    balances,
    months,
    month: chosen,
    lines: chosen ? await linesOf(actor.id, chosen) : [],
    payouts: own,
  };
}

/** Every line of the person's statement as CSV. */
export async function statementCsv(actor: Actor): Promise<{ filename: string; csv: string }> {
  authorize(actor, "payments", "readOwn");
  const lines = await linesOf(actor.id);
  const csv = toCsv(
    ["month", "source", "net_revenue", "share_percent", "amount", "currency", "status"],
    lines.map((l) => [l.month, l.source, centsToDecimal(l.netCents), (l.shareBp / 100).toFixed(2), centsToDecimal(l.amountCents), "USD", l.status]),
  );
  return { filename: "shortbeat-statement.csv", csv };
}
