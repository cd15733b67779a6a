import { and, eq, isNotNull, isNull, lt } from "drizzle-orm";
import { payouts } from "~/db/schema";
import { personById } from "~/modules/accounts/accounts.server";
import { db } from "~/platform/db.server";
import type { stripeClient } from "~/platform/stripe.server";
import { PAYOUT_MESSAGES as P } from "./messages";
import { changedFirst, type PayoutRecord, payoutFailedQueries, payoutPaidQueries, tellPayout } from "./transfer-outcomes.server";

// Stripe payouts still processing after their transfer was sent (transfers.server.ts's `recover` and
// `reconcile`): a lost answer is looked up by its transfer group, a webhook that never came is settled
// by reading the transfer back.

export const RECOVER_AFTER_MS = 10 * 60 * 1000;
/** A sent transfer's webhook normally arrives within seconds; after an hour the daily job asks Stripe itself. */
export const RECONCILE_AFTER_MS = 60 * 60 * 1000;

/**
 * Stripe payouts still processing that were sent before `sentBefore` (up to `limit`): "without
 * transfer", the answer to their transfer was lost; "with transfer", their webhook never came.
 */
export async function processingStripePayouts(which: "with transfer" | "without transfer", sentBefore: Date, limit: number): Promise<PayoutRecord[]> {
  return db()
    .select()
    .from(payouts)
    .where(
      and(
        eq(payouts.method, "stripe"),
        eq(payouts.status, "processing"),
        which === "with transfer" ? isNotNull(payouts.stripeTransferId) : isNull(payouts.stripeTransferId),
        lt(payouts.sentAt, sentBefore.toISOString()),
      ),
    )
    .limit(limit)
    .all();
}

export type StripeClient = Awaited<ReturnType<typeof stripeClient>>;

/**
 * A payout whose transfer answer was lost (processing, no transfer id): Stripe is asked for the
 * transfers of its group. Found → its id recorded (the webhook pays it); none → pending again, so the
 * next send makes it with the same idempotency key. Returns whether it is pending again.
 */
export async function recoverOne(stripe: StripeClient, p: PayoutRecord): Promise<boolean> {
  const found = await stripe.transfers.list({ transfer_group: p.id, limit: 1 });
  const transfer = found.data[0];
  if (transfer) {
    await db()
      .update(payouts)
      .set({ stripeTransferId: transfer.id })
      .where(and(eq(payouts.id, p.id), isNull(payouts.stripeTransferId)))
      .run();
    return false;
  }
  const [again] = await db()
    .update(payouts)
    .set({ status: "pending" })
    .where(and(eq(payouts.id, p.id), eq(payouts.status, "processing"), isNull(payouts.stripeTransferId)))
    .returning({ id: payouts.id });
  return !!again;
}

/**
 * The payouts sent over an hour ago whose webhook never came (the endpoint was down, misconfigured,
 * or Stripe gave up): each transfer is read back and settled as its webhook would have settled it.
 * A transfer that does not match the payout (amount, destination, currency) is left for an admin, as
 * the webhook leaves it. Returns how many were settled.
 */
export async function reconcileUnconfirmed(stripe: StripeClient, now: Date, limit: number): Promise<number> {
  const waiting = await processingStripePayouts("with transfer", new Date(now.getTime() - RECONCILE_AFTER_MS), limit);
  let settled = 0;
  for (const p of waiting) if (await reconcileOne(stripe, p)) settled += 1;
  return settled;
}

/** One sent payout whose webhook never came: its transfer read back and settled as the webhook would. Whether it changed. */
export async function reconcileOne(stripe: StripeClient, p: PayoutRecord): Promise<boolean> {
  let transfer: Awaited<ReturnType<typeof stripe.transfers.retrieve>>;
  try {
    transfer = await stripe.transfers.retrieve(p.stripeTransferId ?? "");
  } catch (error) {
    // No answer, or no such transfer: it stays processing and is asked about again tomorrow.
    console.error("stripe transfer: reading it back failed", p.id, error);
    return false;
  }
  const destination = typeof transfer.destination === "string" ? transfer.destination : (transfer.destination?.id ?? "");
  const email = (await personById(p.userId))?.email ?? null;
  const at = new Date().toISOString();
  if (transfer.reversed) {
    if (!(await changedFirst(payoutFailedQueries(p, email, P.transferReversed, at)))) return false;
    await tellPayout(p, "failed", P.transferReversed);
    return true;
  }
  if (transfer.currency !== "usd" || transfer.amount !== p.amountCents || destination !== p.stripeAccountId) {
    console.error("stripe transfer: read back, does not match its payout; left for an admin", p.id, transfer.id);
    return false;
  }
  if (!(await changedFirst(payoutPaidQueries(p, email, { id: transfer.id, amount: transfer.amount, destination }, at)))) return false;
  await tellPayout(p, "paid");
  return true;
}
