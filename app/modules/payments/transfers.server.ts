import { and, eq, inArray, isNull, type Placeholder, sql } from "drizzle-orm";
import { payouts } from "~/db/schema";
import { isAdminUser, userIdsWhere } from "~/modules/accounts/accounts.server";
import { notifyUserQuietly } from "~/modules/notifications/notifications.server";
import { auditQueryWhen } from "~/platform/audit.server";
import { builtOnce, db } from "~/platform/db.server";
import { appName } from "~/platform/env.server";
import { isStripeRefusal, StripeNotConfigured, stripeClient, stripeConfig } from "~/platform/stripe.server";
import { monthLabel } from "./calendar";
import { PAYOUT_MESSAGES as P } from "./messages";
import { failNow, type PayoutRecord } from "./transfer-outcomes.server";
import {
  processingStripePayouts,
  RECONCILE_AFTER_MS,
  RECOVER_AFTER_MS,
  reconcileOne,
  reconcileUnconfirmed,
  recoverOne,
  type StripeClient,
} from "./transfer-recovery.server";

// Stripe transfers of the payouts gathered on the payout day (docs/decisions/0224, 0225):
//   send     pending → processing (a guarded claim, so two runs send once), then one transfer with
//            the idempotency key payout-<id>, transfer_group = the payout's id and its id in the
//            metadata. Stripe's webhook (transfer.created) then marks it paid; a refusal (4xx) fails it
//            at once; a lost answer (network, 5xx) leaves it processing for `recover`.
//   recover  a payout processing for over 10 minutes without a transfer id: Stripe is asked for the
//            transfers of its group; found → recorded (the webhook pays it), none → pending again
//            (the next send uses the same key, and the group check guards a key past its 24 hours).
//   reconcile a payout processing for over an hour WITH a transfer id, whose webhook never came
//            (docs/decisions/0307): the transfer is read back (https://docs.stripe.com/api/transfers/retrieve);
//            not reversed → paid, reversed → failed, exactly as transfer.created / transfer.reversed would.
//   hold     Stripe refuses a transfer with balance_insufficient (the PLATFORM's balance is short,
//            https://docs.stripe.com/error-codes, code balance_insufficient): the payout goes back to pending
//            with a hold reason, the admins are alerted once, the person is told nothing; the next daily
//            run sends it again (0307).
//   paid / failed   the statements a webhook (or a refusal) runs in its batch; a failure returns the
//            payout's entries to the balance and tells the person (bell and e-mail).
// The statements and messages of paid / failed live in transfer-outcomes.server.ts, recover and
// reconcile in transfer-recovery.server.ts; what callers imported from this file is re-exported here.
export { ledgerPaidWithPayoutQuery, payoutFailedQueries, payoutPaidQueries, tellPayout } from "./transfer-outcomes.server";
export { RECONCILE_AFTER_MS, RECOVER_AFTER_MS } from "./transfer-recovery.server";

/** Transfers per run: Workers allow 1,000 subrequests per invocation; the next daily run sends the rest. */
export const TRANSFERS_PER_RUN = 400;
const PARALLEL = 6;

export type SendResult = { sent: number; failed: number; recovered: number; left: number; held: number; reconciled: number };

/** Sends the pending Stripe payouts (and recovers those whose answer was lost). Throws StripeNotConfigured without the secrets. */
export async function sendPendingTransfers(now = new Date(), limit = TRANSFERS_PER_RUN): Promise<SendResult> {
  if (!stripeConfig()) throw new StripeNotConfigured();
  const stripe = await stripeClient();
  const result: SendResult = { sent: 0, failed: 0, recovered: 0, left: 0, held: 0, reconciled: 0 };
  result.reconciled = await reconcileUnconfirmed(stripe, now, limit);

  // Answers lost on the way back: ask Stripe what became of them.
  const stale = await processingStripePayouts("without transfer", new Date(now.getTime() - RECOVER_AFTER_MS), limit);
  for (const p of stale) {
    await recoverOne(stripe, p);
    result.recovered += 1;
  }

  const pending = await db()
    .select()
    .from(payouts)
    .where(and(eq(payouts.method, "stripe"), eq(payouts.status, "pending")))
    .orderBy(payouts.createdAt)
    .limit(limit + 1)
    .all();
  result.left = Math.max(0, pending.length - limit);
  const queue = pending.slice(0, limit);
  let newlyHeld = 0;
  const worker = async () => {
    for (let p = queue.shift(); p; p = queue.shift()) {
      const outcome = await sendOne(stripe, p, now);
      if (outcome === "sent") result.sent += 1;
      if (outcome === "failed") result.failed += 1;
      if (outcome === "held" || outcome === "newly held") result.held += 1;
      if (outcome === "newly held") newlyHeld += 1;
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  if (newlyHeld > 0) await alertAdminsOfHold(newlyHeld);
  return result;
}

/**
 * Holds a payout whose transfer Stripe refused for the platform's balance: back to pending (the next
 * run sends it again), the reason kept for the admin page. The first hold of a payout is audited
 * (critical); later runs that are still short change nothing else. "newly held" tells the caller to
 * alert the admins.
 */
async function holdForBalance(p: PayoutRecord, message: string, now: Date): Promise<"held" | "newly held"> {
  const reason = `${P.heldBalance} Stripe said: ${message}`;
  const at = now.toISOString();
  const [first] = (await db().batch([
    db()
      .update(payouts)
      .set({ status: "pending", heldAt: at, heldReason: reason })
      .where(and(eq(payouts.id, p.id), eq(payouts.status, "processing"), isNull(payouts.heldAt))),
    auditQueryWhen(
      {
        eventType: "payout_held_balance_insufficient",
        severity: "critical",
        targetUserId: p.userId,
        details: { payout_id: p.id, amount_cents: p.amountCents, reason },
      },
      sql`changes() = 1`,
    ),
    db()
      .update(payouts)
      .set({ status: "pending", heldReason: reason })
      .where(and(eq(payouts.id, p.id), eq(payouts.status, "processing"))),
  ])) as unknown as { meta?: { changes?: number } }[];
  return (first?.meta?.changes ?? 0) > 0 ? "newly held" : "held";
}

/** One bell per admin for the payouts a run newly held: the platform's Stripe balance needs topping up. */
export async function alertAdminsOfHold(count: number): Promise<void> {
  const admins = await userIdsWhere((p) => isAdminUser(p.userId));
  for (const id of admins) {
    await notifyUserQuietly(id, { title: "Payouts held: Stripe balance too low", content: P.heldAdminAlert(count), kind: "payout_held" });
  }
}

/**
 * The transfer's idempotency key: payout-<id>, so a retry of a lost answer is the same request. A
 * payout held for the platform's balance was refused, and Stripe keeps a refusal under its key for
 * 24 hours (https://docs.stripe.com/api/idempotent_requests): its next attempt gets a key of its own,
 * named after the refused attempt (sent_at is that attempt's time). The transfer_group check of
 * `recover` still guards it, as it guards any key past its 24 hours.
 */
function transferKey(p: PayoutRecord): string {
  return p.heldAt ? `payout-${p.id}-after-${p.sentAt}` : `payout-${p.id}`;
}

type SendOutcome = "sent" | "failed" | "held" | "newly held" | "skipped" | "unknown";

async function sendOne(stripe: StripeClient, p: PayoutRecord, now: Date): Promise<SendOutcome> {
  // The claim: of two runs at once, one sends.
  const claimed = await claimPending([p.id], now);
  if (!claimed.has(p.id)) return "skipped";
  return sendClaimed(stripe, p, now);
}

/**
 * The guarded claim pending → processing of several payouts in ONE statement (the queue consumer's
 * batch): the ids it returns are this caller's to send, each once; a payout another run or a twin
 * message claimed first is not among them. Each row is claimed by exactly one statement, whoever
 * runs at the same time (D1 runs one statement at a time).
 */
export async function claimPending(ids: string[], now: Date): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db()
    .update(payouts)
    .set({ status: "processing", sentAt: now.toISOString() })
    .where(and(inArray(payouts.id, ids), eq(payouts.status, "pending")))
    .returning({ id: payouts.id });
  return new Set(rows.map((r) => r.id));
}

/** Records a sent payout's transfer id (once: a webhook or a recovery may have recorded it first). */
export function recordTransferQuery(payoutId: string, transferId: string) {
  return db()
    .update(payouts)
    .set({ stripeTransferId: transferId, heldAt: null, heldReason: null })
    .where(and(eq(payouts.id, payoutId), isNull(payouts.stripeTransferId)));
}

/**
 * The transfer of a payout this caller has just claimed (`claimPending`), under its idempotency key.
 * With `deferRecord`, the transfer id's write is handed to the caller (the queue consumer writes a
 * batch's in one D1 batch) instead of run here.
 */
export async function sendClaimed(
  stripe: StripeClient,
  p: PayoutRecord,
  now: Date,
  deferRecord?: (write: ReturnType<typeof recordTransferQuery>) => void,
): Promise<SendOutcome> {
  if (!p.stripeAccountId) return "skipped";
  try {
    const transfer = await stripe.transfers.create(
      {
        amount: p.amountCents,
        currency: "usd",
        destination: p.stripeAccountId,
        transfer_group: p.id,
        description: `${appName()} payout, ${monthLabel(p.batch)} run`,
        metadata: { payout_id: p.id, user_id: p.userId, batch: p.batch },
      },
      { idempotencyKey: transferKey(p) },
    );
    if (deferRecord) deferRecord(recordTransferQuery(p.id, transfer.id));
    else await recordTransferQuery(p.id, transfer.id).run();
    return "sent";
  } catch (error) {
    // The platform's balance, not the person's account: held, not failed (0307).
    if (isStripeRefusal(error) && error.code === "balance_insufficient") return holdForBalance(p, error.message, now);
    if (isStripeRefusal(error)) {
      await failNow({ ...p, status: "processing" }, `${P.transferRefused}: ${error.message}`);
      return "failed";
    }
    // Unknown outcome (network, Stripe 5xx, rate limit): it stays processing; `recover` finds out.
    console.error("stripe transfer: no answer", p.id, error);
    return "unknown";
  }
}

export type SettleOutcome = "sent" | "failed" | "held" | "newly held" | "skipped" | "unknown" | "recovered" | "reconciled";

/**
 * One payout a queue message names (the payout day's Queue, docs/decisions/0331), whatever became of
 * it since the message was sent: pending → sent (the guarded claim, so a duplicate message or a
 * second run sends once); processing without an answer for over 10 minutes → recovered (and sent
 * again under the same key when Stripe has no transfer); processing with a transfer whose webhook
 * has not come for an hour → reconciled; anything else (paid, failed, in flight) → skipped.
 */
export async function settleOne(stripe: StripeClient, p: PayoutRecord, now: Date): Promise<SettleOutcome> {
  if (p.method !== "stripe") return "skipped";
  if (p.status === "pending") return sendOne(stripe, p, now);
  if (p.status !== "processing" || !p.sentAt) return "skipped";
  if (!p.stripeTransferId && Date.parse(p.sentAt) < now.getTime() - RECOVER_AFTER_MS) {
    if (!(await recoverOne(stripe, p))) return "recovered";
    return sendOne(stripe, { ...p, status: "pending" }, now);
  }
  if (p.stripeTransferId && Date.parse(p.sentAt) < now.getTime() - RECONCILE_AFTER_MS) return (await reconcileOne(stripe, p)) ? "reconciled" : "skipped";
  return "skipped";
}

/** For the admin: how many Stripe payouts wait to be sent or confirmed, by status (its rows go to transfersWaitingOf); `limit`: the admin page's adminSessionLimit (decision 0356). */
export function transfersWaitingQuery(limit: number | Placeholder = -1) {
  return db()
    .select({ status: payouts.status, n: sql<number>`count(*)`.mapWith(Number) })
    .from(payouts)
    .where(and(eq(payouts.method, "stripe"), inArray(payouts.status, ["pending", "processing"])))
    .groupBy(payouts.status)
    .limit(limit);
}

/** transfersWaitingQuery, built once per isolate. */
export const transfersWaitingStatement = builtOnce(() => transfersWaitingQuery());

/** transfersWaitingStatement's rows as the two counts. */
export function transfersWaitingOf(rows: { status: string; n: number }[]): { pending: number; processing: number } {
  return { pending: rows.find((r) => r.status === "pending")?.n ?? 0, processing: rows.find((r) => r.status === "processing")?.n ?? 0 };
}

/** For the admin: how many Stripe payouts wait to be sent or confirmed. */
export async function transfersWaiting(): Promise<{ pending: number; processing: number }> {
  return transfersWaitingOf(await transfersWaitingStatement({}).all());
}
