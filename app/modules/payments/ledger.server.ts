import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { ledgerEntries, ledgerVideoLines, payouts } from "~/db/schema";
import { type Actor, authorize } from "~/lib/permissions";
import { peopleByIds } from "~/modules/accounts/accounts.server";
import { channelOwnersByChannelIds } from "~/modules/channels/channels.server";
import { clipsByIds } from "~/modules/clipping/clipping.server";
import { batch, builtOnce, db } from "~/platform/db.server";
import { getSettings } from "~/platform/settings.server";
import { toCsv } from "~/lib/csv";
import { monthLabel, monthOf, payoutDateIn } from "./calendar";
import { nextPayoutOf, ownEntries, payableWhere, STATUS_ORDER, statusRank } from "./balances.server";
import { CURRENCY, centsToDecimal } from "./money";
import { payoutDay, revisedSharesOfQuery, shareInForce, standardShareBp } from "./share.server";
import type { LedgerStatus, PayoutRow, StatementLine } from "./types";
import { statementSource } from "./statement-source";
import { countedEntries } from "./counted";

// What /payments shows: the person's own entries (only those that count: a staged import's are
// invisible), balances by status, the monthly statement, payouts, and the CSV of it all.

/** A ledger line as its person sees it (/payments, the CSV, the data export). */
export const lineColumns = {
  id: ledgerEntries.id,
  month: ledgerEntries.month,
  sourceKind: ledgerEntries.sourceKind,
  sourceId: ledgerEntries.sourceId,
  netCents: ledgerEntries.netCents,
  shareBp: ledgerEntries.shareBp,
  amountCents: ledgerEntries.amountCents,
  status: ledgerEntries.status,
  note: ledgerEntries.note,
};

/** The person's counted entries of one month (an SQL expression) or of every month. */
function linesQuery(userId: string, month?: SQL) {
  return db()
    .select(lineColumns)
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), month ? sql`${ledgerEntries.month} = ${month}` : undefined, countedEntries()))
    .orderBy(desc(ledgerEntries.month), ledgerEntries.sourceKind, ledgerEntries.sourceId);
}

/** The per-video lines of the person's counted entries of one month (an SQL expression) or of every month. */
function videoLinesQuery(userId: string, month?: SQL) {
  return db()
    .select({
      entryId: ledgerVideoLines.entryId,
      videoId: ledgerVideoLines.videoId,
      netCents: ledgerVideoLines.netCents,
      amountCents: ledgerVideoLines.amountCents,
    })
    .from(ledgerVideoLines)
    .innerJoin(ledgerEntries, eq(ledgerEntries.id, ledgerVideoLines.entryId))
    .where(and(eq(ledgerEntries.userId, userId), month ? sql`${ledgerEntries.month} = ${month}` : undefined, countedEntries()))
    .orderBy(ledgerVideoLines.entryId, ledgerVideoLines.videoId);
}

type VideoRow = Awaited<ReturnType<typeof videoLinesQuery>>[number];

/** Statement lines with their source named (a channel's music share by the channel's title) and their videos. */
async function labelLines(me: string, rows: Awaited<ReturnType<typeof linesQuery>>, videoRows: VideoRow[] = []): Promise<StatementLine[]> {
  const videos = new Map<string, StatementLine["videos"]>();
  for (const v of videoRows) {
    const list = videos.get(v.entryId) ?? [];
    list.push({ videoId: v.videoId, netCents: v.netCents, amountCents: v.amountCents });
    videos.set(v.entryId, list);
  }
  const [channels, clips] = await Promise.all([
    channelOwnersByChannelIds(rows.filter((r) => r.sourceKind === "music" && r.sourceId).map((r) => r.sourceId)),
    clipsByIds(rows.filter((r) => r.sourceKind === "clip").map((r) => r.sourceId)),
  ]);
  const names = await peopleByIds([...clips.values()].flatMap((c) => [c.creatorUserId, c.clipperUserId]));
  const nameOf = (id: string) => {
    const p = names.get(id);
    return p?.fullName || p?.creatorId || "a former member";
  };
  return rows.map((r) => {
    const clip = r.sourceKind === "clip" ? clips.get(r.sourceId) : undefined;
    return {
      id: r.id,
      month: r.month,
      sourceKind: r.sourceKind,
      source: statementSource({
        sourceKind: r.sourceKind,
        sourceId: r.sourceId,
        note: r.note,
        me,
        channelTitle: channels.get(r.sourceId)?.title ?? null,
        clip: clip ? { ...clip, creatorName: nameOf(clip.creatorUserId), clipperName: nameOf(clip.clipperUserId) } : null,
      }),
      netCents: r.netCents,
      shareBp: r.shareBp,
      amountCents: r.amountCents,
      status: r.status,
      videos: videos.get(r.id) ?? [],
    };
  });
}

export type PaymentsPage = {
  nextPayoutDate: string;
  /** The payout day setting (18 by default): "on or around the 18th". */
  payoutDay: number;
  expectedCents: number;
  /** Finalized and in no payout yet (may be negative after a debit). */
  payableCents: number;
  /** The smallest payout (the admin setting), in cents. */
  minimumCents: number;
  shareBp: number;
  balances: Record<LedgerStatus, number>;
  months: { month: string; label: string; amountCents: number; status: LedgerStatus }[];
  month: string | null;
  lines: StatementLine[];
  payouts: PayoutRow[];
};

/**
 * The month the statement shows: the asked one (slot `month`, "" for none) when the person has
 * lines in it, else their latest. The subquery's ledger_entries shadows the outer one, so it is
 * not correlated.
 */
const chosenMonth = (slot: <T>(name: string) => T) =>
  sql`(select coalesce(max(case when ${ledgerEntries.month} = ${slot("month")} then ${ledgerEntries.month} end), max(${ledgerEntries.month})) from ${ledgerEntries} where ${ownEntries(slot("me"))})`;

// /payments' statements, built once per isolate with the person and the month as slots (db.server builtOnce, docs/decisions/0284).
const page = {
  byStatus: builtOnce((slot) =>
    db()
      .select({ status: ledgerEntries.status, total: sql<number>`coalesce(sum(${ledgerEntries.amountCents}), 0)`.mapWith(Number) })
      .from(ledgerEntries)
      .where(ownEntries(slot("me")))
      .groupBy(ledgerEntries.status),
  ),
  byMonth: builtOnce((slot) =>
    db()
      .select({
        month: ledgerEntries.month,
        total: sql<number>`sum(${ledgerEntries.amountCents})`.mapWith(Number),
        // The least advanced status of the month's lines.
        rank: statusRank,
      })
      .from(ledgerEntries)
      .where(ownEntries(slot("me")))
      .groupBy(ledgerEntries.month)
      .orderBy(desc(ledgerEntries.month)),
  ),
  payouts: builtOnce((slot) =>
    db()
      .select({
        id: payouts.id,
        batch: payouts.batch,
        amountCents: payouts.amountCents,
        status: payouts.status,
        reference: payouts.reference,
        paidAt: payouts.paidAt,
        createdAt: payouts.createdAt,
        payoutDate: payouts.payoutDate,
        method: payouts.method,
        failureReason: payouts.failureReason,
      })
      .from(payouts)
      .where(eq(payouts.userId, slot("me")))
      .orderBy(desc(payouts.createdAt)),
  ),
  lines: builtOnce((slot) => linesQuery(slot("me"), chosenMonth(slot))),
  videoLines: builtOnce((slot) => videoLinesQuery(slot("me"), chosenMonth(slot))),
  // Payable now: finalized and in no payout (what the next payout day gathers, if at least the minimum).
  payable: builtOnce((slot) =>
    db()
      .select({ total: sql<number>`coalesce(sum(${ledgerEntries.amountCents}), 0)`.mapWith(Number) })
      .from(ledgerEntries)
      .where(payableWhere(slot("me"))),
  ),
};

/**
 * The signed-in person's money: next payout, balances, statement of `month` (default: the latest),
 * payouts. One D1 batch (the statement's month is chosen in SQL), then the channel titles.
 */
export async function paymentsPage(actor: Actor, month: string | null, today = new Date()): Promise<PaymentsPage> {
  authorize(actor, "payments", "readOwn");
  const me = actor.id;
  const [[byStatus, byMonth, payoutRows, lineRows, videoRows, [payable], revised], day, standardBp, settings] = await Promise.all([
    batch([
      page.byStatus({ me }),
      page.byMonth({ me }),
      page.payouts({ me }),
      page.lines({ me, month: month ?? "" }),
      page.videoLines({ me, month: month ?? "" }),
      page.payable({ me }),
      revisedSharesOfQuery([me], monthOf(today)),
    ]),
    payoutDay(),
    standardShareBp(),
    getSettings(),
  ]);
  const shareBp = shareInForce(revised, standardBp);
  const balances: Record<LedgerStatus, number> = { estimated: 0, finalized: 0, paid: 0 };
  for (const r of byStatus) balances[r.status] = r.total;
  const months = byMonth.map((m) => ({ month: m.month, label: monthLabel(m.month), amountCents: m.total, status: STATUS_ORDER[m.rank] ?? "estimated" }));
  return {
    // What the next payout will hold: the payable balance, when it reaches the minimum (else it carries over).
    ...nextPayoutOf(payable?.total ?? 0, settings.payoutMinimumUsd * 100, day, today),
    payoutDay: day,
    payableCents: payable?.total ?? 0,
    minimumCents: settings.payoutMinimumUsd * 100,
    shareBp,
    balances,
    months,
    month: lineRows[0]?.month ?? null,
    lines: await labelLines(me, lineRows, videoRows),
    payouts: payoutRows.map((p) => ({ ...p, payoutDate: p.payoutDate ?? payoutDateIn(p.batch, day) })),
  };
}

/** Every line of the person's statement as CSV: one row per video of a line that has them (their amounts add up to the line). */
export async function statementCsv(actor: Actor): Promise<{ filename: string; csv: string }> {
  authorize(actor, "payments", "readOwn");
  const [lineRows, videoRows] = await db().batch([linesQuery(actor.id), videoLinesQuery(actor.id)]);
  const lines = await labelLines(actor.id, lineRows, videoRows);
  const row = (l: StatementLine, videoId: string, net: number, amount: number) => [
    l.month,
    l.source,
    videoId,
    centsToDecimal(net),
    (l.shareBp / 100).toFixed(2),
    centsToDecimal(amount),
    CURRENCY,
    l.status,
  ];
  const csv = toCsv([
    ["month", "source", "video_id", "net_revenue", "share_percent", "amount", "currency", "status"],
    ...lines.flatMap((l) =>
      l.videos.length > 0 ? l.videos.map((v) => row(l, v.videoId, v.netCents, v.amountCents)) : [row(l, "", l.netCents, l.amountCents)],
    ),
  ]);
  return { filename: "shortbeat-statement.csv", csv };
}
