import { and, eq, sql } from "drizzle-orm";
import { ledgerEntries, payoutAccounts, shareOffers } from "~/db/schema";
import { type Actor, authorize } from "~/lib/permissions";
import { formatBp } from "~/lib/split";
import { alongsideSession, isApprovedCreator, sessionUserOf } from "~/modules/accounts/accounts.server";
import { builtOnce, db } from "~/platform/db.server";
import { getSettings } from "~/platform/settings.server";
import { amountSum, nextPayoutOf, ownEntries, payableWhere, STATUS_ORDER, statusRank } from "./balances.server";
import { monthLabel } from "./calendar";
import { formatCents } from "./money";
import { viewOf } from "./payout-accounts.server";
import type { LedgerStatus } from "./types";

// The dashboard's money card (issue 42 §1, docs/decisions/0328): an approved creator's balance, next
// payout and its date, the latest month's estimate, and what waits on them — the numbers /payments
// shows, from the same rules (balances.server, calendar, the payout minimum setting, the payout
// account's view). It is ONE statement that rides in the session lookup's D1 batch (alongsideSession,
// docs/decisions/0083): the person is not known before that batch, so the statement carries its own
// check, and for anyone who is not an approved creator it stops there and reads no money.

export type MoneyWaiting = { kind: "payout_account" | "offer"; title: string; text: string; href: string };

export type MoneyAtAGlance = {
  /** Earned and not paid yet: estimated plus finalized (what /payments' two cards add up to). */
  balanceCents: number;
  estimatedCents: number;
  finalizedCents: number;
  /** YYYY-MM-DD, a payout-calendar day (never shifted by a time zone). */
  nextPayoutDate: string;
  /** What the next payout holds: the payable balance when it reaches the minimum, else 0. */
  expectedCents: number;
  payableCents: number;
  minimumCents: number;
  /** The latest month on the person's statement, as /payments' month list shows it; null before any import. */
  latestMonth: { month: string; label: string; amountCents: number; status: LedgerStatus } | null;
  waiting: MoneyWaiting[];
};

/** The latest month of the person's counted entries (`me`: an SQL expression), as a scalar subquery. */
const latestMonthOf = (me: ReturnType<typeof sessionUserOf>) => sql`(select max(${ledgerEntries.month}) from ${ledgerEntries} where ${ownEntries(me)})`;

/** The card's one statement for the session's user (slot `sessionId`), built once per isolate (docs/decisions/0285). */
const glanceOfSession = builtOnce((slot) => {
  const me = sessionUserOf(slot);
  const inLatestMonth = and(ownEntries(me), sql`${ledgerEntries.month} = ${latestMonthOf(me)}`);
  // Each column named apart: in a D1 batch rows are read by column name, and two unnamed subqueries
  // whose text differs only in a bound value would collapse into one.
  return db()
    .select({
      estimatedCents: amountSum(and(ownEntries(me), eq(ledgerEntries.status, "estimated"))).as("estimated_cents"),
      finalizedCents: amountSum(and(ownEntries(me), eq(ledgerEntries.status, "finalized"))).as("finalized_cents"),
      payableCents: amountSum(payableWhere(me)).as("payable_cents"),
      latestMonth: sql<string | null>`${latestMonthOf(me)}`.as("latest_month"),
      latestMonthCents: amountSum(inLatestMonth).as("latest_month_cents"),
      latestMonthRank: sql<number | null>`(${db().select({ rank: statusRank }).from(ledgerEntries).where(inLatestMonth)})`.as("latest_month_rank"),
      offerShareBp: sql<number | null>`(${db()
        .select({ bp: shareOffers.shareBp })
        .from(shareOffers)
        .where(and(eq(shareOffers.userId, me), eq(shareOffers.status, "offered")))
        .limit(1)})`.as("offer_share_bp"),
      method: payoutAccounts.method,
      stripeAccountId: payoutAccounts.stripeAccountId,
      status: payoutAccounts.status,
      statusReason: payoutAccounts.statusReason,
      manualReason: payoutAccounts.manualReason,
      hasAccount: sql<number>`${payoutAccounts.userId} is not null`.mapWith(Number).as("has_account"),
    })
    .from(sql`(select 1)`)
    .leftJoin(payoutAccounts, eq(payoutAccounts.userId, me))
    .where(isApprovedCreator(me));
});

type GlanceRow = Awaited<ReturnType<ReturnType<typeof glanceOfSession>["all"]>>[number];

/** What waits on the person: their payout account (as /payments' payout method panel words it), a revised-share offer. */
function waitingOf(row: GlanceRow, minimumCents: number): MoneyWaiting[] {
  const out: MoneyWaiting[] = [];
  const account = viewOf(row.hasAccount ? { ...row, method: row.method ?? "stripe" } : undefined);
  // Payouts through Stripe not available on this deployment, or paid outside Stripe: nothing for them to do.
  if (account.available && account.method === "stripe" && account.status !== "enabled") {
    const ready = row.payableCents >= minimumCents ? `Your ${formatCents(row.payableCents)} is ready: it is paid once your payout account is enabled.` : null;
    const title =
      account.status === "none"
        ? "Connect your payout account"
        : account.status === "needs_information"
          ? "Finish setting up your payout account"
          : "Update your payout account details";
    const why = account.status === "none" ? "We pay you through Stripe, into your own bank account. Setting up takes a few minutes." : account.statusReason;
    out.push({ kind: "payout_account", title, text: [ready, why].filter(Boolean).join(" "), href: "/payments#payout-method-heading" });
  }
  if (row.offerShareBp !== null) {
    out.push({
      kind: "offer",
      title: "Answer your revised share offer",
      text: `We offer you ${formatBp(row.offerShareBp)} of net revenue. Accepting starts a new 12-month term.`,
      href: "/payments#agreement-heading",
    });
  }
  return out;
}

/**
 * The dashboard's money card for the session's person, riding in this request's session lookup (one
 * round trip). Call before the guard; the returned function takes the guard's actor and gives the
 * card, or null for anyone who is not an approved creator (docs/decisions/0328).
 */
export function startMoneyAtAGlance(args: Parameters<typeof alongsideSession>[0], today = new Date()): (actor: Actor) => Promise<MoneyAtAGlance | null> {
  const rows = alongsideSession(args, glanceOfSession);
  return async (actor) => {
    authorize(actor, "payments", "readOwn");
    const [row] = await rows;
    if (!row) return null;
    // The settings the isolate keeps (30 s; /payments reads the same): no D1 call while they are fresh.
    const settings = await getSettings();
    const minimumCents = settings.payoutMinimumUsd * 100;
    return {
      balanceCents: row.estimatedCents + row.finalizedCents,
      estimatedCents: row.estimatedCents,
      finalizedCents: row.finalizedCents,
      ...nextPayoutOf(row.payableCents, minimumCents, settings.payoutDayOfMonth, today),
      payableCents: row.payableCents,
      minimumCents,
      latestMonth: row.latestMonth
        ? {
            month: row.latestMonth,
            label: monthLabel(row.latestMonth),
            amountCents: row.latestMonthCents,
            status: STATUS_ORDER[row.latestMonthRank ?? 0] ?? "estimated",
          }
        : null,
      waiting: waitingOf(row, minimumCents),
    };
  };
}
