import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { ledgerEntries, payouts } from "~/db/schema";
import { personById } from "~/modules/accounts/accounts.server";
import { notifyUserQuietly } from "~/modules/notifications/notifications.server";
import { auditQueryWhen } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { appOrigin, emailQueryWhen, userText } from "~/platform/email.server";
import { appName } from "~/platform/env.server";
import { monthLabel } from "./calendar";
import { formatCents } from "./money";

// What becomes of a Stripe payout once its transfer's fate is known (transfers.server.ts sends them):
// the statements that mark it paid or failed, each run in one batch (a webhook's, a refusal's, a
// reconciliation's), the person's e-mail and bell, and its ledger lines paid with it.

export type PayoutRecord = typeof payouts.$inferSelect;

function paidEmail(to: string, p: { amountCents: number; batch: string }, transferId: string) {
  const amount = formatCents(p.amountCents);
  return {
    to,
    kind: "payout_paid",
    subject: `Your ${appName()} payout of ${amount} is on its way`,
    text: `We have sent your payout of ${amount} from the ${monthLabel(p.batch)} run to your Stripe account (transfer ${transferId}). Stripe pays it out to your bank on your payout schedule, usually within a few business days.\n\nSee your statement and payout history at ${appOrigin()}/payments.\n`,
  };
}

function failedEmail(to: string, p: { amountCents: number }, reason: string) {
  const amount = formatCents(p.amountCents);
  return {
    to,
    kind: "payout_failed",
    subject: `Your ${appName()} payout of ${amount} did not go through`,
    text: `Your payout of ${amount} could not be sent: ${userText(reason)}.\n\nThe amount is back in your balance and goes out with the next payout. Check your payout account at ${appOrigin()}/payments.\n`,
  };
}

/** The statements that mark a Stripe payout paid (its transfer exists): guarded, audited, e-mailed once, its entries paid. */
export function payoutPaidQueries(
  p: PayoutRecord,
  email: string | null,
  transfer: { id: string; amount: number; destination: string },
  now: string,
): BatchItem<"sqlite">[] {
  return [
    db()
      .update(payouts)
      .set({ status: "paid", paidAt: now, reference: transfer.id, stripeTransferId: transfer.id })
      .where(
        and(
          eq(payouts.id, p.id),
          eq(payouts.method, "stripe"),
          inArray(payouts.status, ["pending", "processing"]),
          eq(payouts.amountCents, transfer.amount),
          eq(payouts.stripeAccountId, transfer.destination),
        ),
      ),
    auditQueryWhen(
      {
        eventType: "payout_paid_stripe",
        severity: "high",
        targetUserId: p.userId,
        details: { payout_id: p.id, transfer_id: transfer.id, amount_cents: p.amountCents },
      },
      sql`changes() = 1`,
    ),
    emailQueryWhen(paidEmail(email ?? "", p, transfer.id), sql`changes() = 1 and ${email ?? ""} <> ''`),
    ledgerPaidWithPayoutQuery(p.id),
  ];
}

/** The statements that fail a payout and return its entries to the balance: guarded (once), audited, e-mailed. */
export function payoutFailedQueries(p: PayoutRecord, email: string | null, reason: string, now: string): BatchItem<"sqlite">[] {
  return [
    db()
      .update(payouts)
      .set({ status: "failed", failedAt: now, failureReason: reason })
      .where(and(eq(payouts.id, p.id), inArray(payouts.status, ["pending", "processing", "paid"]))),
    auditQueryWhen(
      { eventType: "payout_failed", severity: "high", targetUserId: p.userId, details: { payout_id: p.id, amount_cents: p.amountCents, reason } },
      sql`changes() = 1`,
    ),
    emailQueryWhen(failedEmail(email ?? "", p, reason), sql`changes() = 1 and ${email ?? ""} <> ''`),
    // Back to the balance: finalized and in no payout, gathered again on the next payout day.
    db()
      .update(ledgerEntries)
      .set({ status: "finalized", payoutId: null })
      .where(and(eq(ledgerEntries.payoutId, p.id), sql`exists (select 1 from payouts x where x.id = ${p.id} and x.status = 'failed')`)),
  ];
}

/** The bell after a payout changed (the record is already written; a missing bell must not undo it). */
export async function tellPayout(p: { userId: string; amountCents: number }, outcome: "paid" | "failed", reason?: string): Promise<void> {
  const amount = formatCents(p.amountCents);
  await notifyUserQuietly(
    p.userId,
    outcome === "paid"
      ? { title: "Payout sent", content: `Your payout of ${amount} has been sent to your Stripe account.`, kind: "payout_paid" }
      : {
          title: "Payout failed",
          content: `Your payout of ${amount} did not go through (${reason}). The amount is back in your balance.`,
          kind: "payout_failed",
        },
  );
}

/** Fails one payout now (Stripe refused its transfer) and tells the person. */
export async function failNow(p: PayoutRecord, reason: string): Promise<void> {
  const email = (await personById(p.userId))?.email ?? null;
  const results = (await db().batch(
    payoutFailedQueries(p, email, reason, new Date().toISOString()) as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]],
  )) as unknown[];
  const changed = (results[0] as { meta?: { changes?: number } })?.meta?.changes ?? 0;
  if (changed > 0) await tellPayout(p, "failed", reason);
}

/** Runs the statements in one batch; whether the first (the guarded transition) changed a row. */
export async function changedFirst(statements: BatchItem<"sqlite">[]): Promise<boolean> {
  const results = (await db().batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[];
  return ((results[0] as { meta?: { changes?: number } })?.meta?.changes ?? 0) > 0;
}

/** A payout's finalized ledger lines become paid, in the same batch and only once the payout itself is paid (by hand or by Stripe). */
export function ledgerPaidWithPayoutQuery(payoutId: string) {
  return db()
    .update(ledgerEntries)
    .set({ status: "paid" })
    .where(
      and(
        eq(ledgerEntries.payoutId, payoutId),
        eq(ledgerEntries.status, "finalized"),
        sql`exists (select 1 from payouts x where x.id = ${payoutId} and x.status = 'paid')`,
      ),
    );
}
