import { eq, or } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { payoutAccounts, payouts, stripeEvents } from "~/db/schema";
import { personById } from "~/modules/accounts/accounts.server";
import { auditQuery } from "~/platform/audit.server";
import { readText } from "~/platform/body.server";
import { db } from "~/platform/db.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { stripeConfig, verifyStripeWebhook } from "~/platform/stripe.server";
import { PAYOUT_MESSAGES as P } from "./messages";
import { accountStateFromStripe, StripeAccountUnreadable } from "./payout-accounts.server";
import { parseStripeEvent, type StripeEvent } from "./stripe-event";
import { payoutFailedQueries, payoutPaidQueries, tellPayout } from "./transfers.server";

// POST /api/stripe/webhook (docs/decisions/0225-stripe-webhooks.md). The raw body is read (at most
// 512 KiB) and its Stripe-Signature verified (HMAC-SHA256 with the endpoint's signing secret, at
// most five minutes old) before anything else; an unsigned, forged or stale request is refused with
// 400 and changes nothing. A signed body that is not an event we can read (not JSON, an array, no
// `data`, a null or string `data.object`…) is a 400 with the reason, stored nowhere (0295): a 500
// would have Stripe retry it for three days. Each event is stored once by its id, in the same D1 batch as what it
// does: Stripe's own retries and any replay of an event already handled change nothing (answered
// 200, so Stripe stops retrying). Handled:
//   account.updated    the person's payout account status, as Stripe has it when the event arrives
//                      (read back from Stripe, not taken from the event: events can arrive out of order, 0297)
//   transfer.created   the payout paid (amount and destination must match the payout)
//   transfer.reversed  (in full) the payout failed: its amount back to the balance, the person told
// Other event types are stored and acknowledged.

const MAX_BODY = 512 * 1024;

type Outcome = { status: number; body: Record<string, unknown> };

const answer = (o: Outcome) => Response.json(o.body, { status: o.status, headers: { "Cache-Control": "no-store" } });

export async function receiveStripeWebhook(request: Request): Promise<Response> {
  if (!stripeConfig()) return answer({ status: 503, body: { error: "Stripe is not configured." } });
  const signature = request.headers.get("Stripe-Signature");
  if (!signature) return answer({ status: 400, body: { error: "Missing Stripe-Signature." } });
  const raw = await readText(request, MAX_BODY + 1);
  if (raw.length > MAX_BODY) return answer({ status: 413, body: { error: "Payload too large." } });
  const verified = await verifyStripeWebhook(raw, signature);
  if (!verified.ok) return answer({ status: 400, body: { error: verified.reason === "json" ? "The body is not JSON." : "Invalid signature." } });
  const parsed = parseStripeEvent(verified.body);
  if (!parsed.ok) return answer({ status: 400, body: { error: parsed.reason } });
  try {
    return answer(await applyStripeEvent(parsed.event));
  } catch (error) {
    // Nothing was stored: Stripe delivers the event again later (https://docs.stripe.com/webhooks#retries).
    if (error instanceof StripeAccountUnreadable) return answer({ status: 503, body: { error: "Stripe could not be read; deliver the event again." } });
    throw error;
  }
}

/**
 * `after` runs once the batch has committed, told whether the batch's first planned statement (the
 * guarded transition of the payout) changed a row: of two deliveries at once, only the one whose
 * batch wrote it rings the bell, without reading the row back (one D1 round trip less per transfer).
 */
type Planned = { statements: BatchItem<"sqlite">[]; outcome: string; after?: (changed: boolean) => Promise<void> };

/** The event's own record, first in its batch: stored once (a second copy stops the batch). */
function recordQueries(event: StripeEvent, objectId: string | null, outcome: string): BatchItem<"sqlite">[] {
  return [
    db()
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type, account: event.account, objectId, created: event.created, outcome })
      .onConflictDoNothing(),
    precondition(previousStatementChanged(1)),
  ];
}

async function payoutOf(payoutId: string | null, transferId: string) {
  return db()
    .select()
    .from(payouts)
    .where(or(eq(payouts.stripeTransferId, transferId), payoutId ? eq(payouts.id, payoutId) : undefined))
    .get();
}

async function plan(event: StripeEvent): Promise<Planned & { objectId: string | null }> {
  const now = new Date().toISOString();
  if (event.kind === "account") {
    const account = event.object;
    const known = await db().select({ userId: payoutAccounts.userId }).from(payoutAccounts).where(eq(payoutAccounts.stripeAccountId, account.id)).get();
    if (!known) return { objectId: account.id, statements: [], outcome: "ignored: unknown account" };
    // The account as Stripe has it now, not as the event says (0297): of two events in the same
    // second delivered out of order, the later delivery would otherwise win.
    const state = await accountStateFromStripe(account.id);
    if (!state) return { objectId: account.id, statements: [], outcome: "ignored: Stripe does not give the account" };
    return { objectId: account.id, statements: [state.query], outcome: "account status" };
  }
  if (event.kind === "transfer") {
    const transfer = event.object;
    const destination = typeof transfer.destination === "string" ? transfer.destination : (transfer.destination?.id ?? "");
    const payout = await payoutOf(transfer.metadata?.payout_id ?? transfer.transfer_group ?? null, transfer.id);
    if (!payout) return { objectId: transfer.id, statements: [], outcome: "ignored: no payout" };
    const email = (await personById(payout.userId))?.email ?? null;
    if (event.type === "transfer.created") {
      if (payout.amountCents !== transfer.amount || payout.stripeAccountId !== destination || transfer.currency !== "usd") {
        // Never mark paid what Stripe says differently: an admin looks at it.
        return {
          objectId: transfer.id,
          statements: [
            auditQuery({
              eventType: "payout_transfer_mismatch",
              severity: "critical",
              targetUserId: payout.userId,
              details: { payout_id: payout.id, transfer_id: transfer.id, amount: transfer.amount, currency: transfer.currency, destination },
            }),
          ],
          outcome: "mismatch: not paid",
        };
      }
      return {
        objectId: transfer.id,
        statements: payoutPaidQueries(payout, email, { id: transfer.id, amount: transfer.amount, destination }, now),
        outcome: payout.status === "paid" ? "already paid" : "payout paid",
        after: payout.status === "paid" ? undefined : (changed) => (changed ? tellPayout(payout, "paid") : Promise.resolve()),
      };
    }
    if (transfer.amount_reversed < transfer.amount) {
      return {
        objectId: transfer.id,
        statements: [
          auditQuery({
            eventType: "payout_partly_reversed",
            severity: "high",
            targetUserId: payout.userId,
            details: { payout_id: payout.id, transfer_id: transfer.id, amount_reversed: transfer.amount_reversed },
          }),
        ],
        outcome: "partial reversal: for an admin",
      };
    }
    return {
      objectId: transfer.id,
      statements: payoutFailedQueries(payout, email, P.transferReversed, now),
      outcome: payout.status === "failed" ? "already failed" : "payout failed",
      after: payout.status === "failed" ? undefined : (changed) => (changed ? tellPayout(payout, "failed", P.transferReversed) : Promise.resolve()),
    };
  }
  return { objectId: event.object.id ?? null, statements: [], outcome: "ignored" };
}

export async function applyStripeEvent(event: StripeEvent): Promise<Outcome> {
  const done = await db().select({ outcome: stripeEvents.outcome }).from(stripeEvents).where(eq(stripeEvents.id, event.id)).get();
  if (done) return { status: 200, body: { received: true, duplicate: true } };
  const planned = await plan(event);
  const recorded = recordQueries(event, planned.objectId, planned.outcome);
  let results: unknown[];
  try {
    results = await db().batch([...recorded, ...planned.statements] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (error) {
    // The same event delivered twice at once: the other delivery stored it.
    if (isPreconditionFailure(error)) return { status: 200, body: { received: true, duplicate: true } };
    throw error;
  }
  const first = results[recorded.length] as { meta?: { changes?: number } } | undefined;
  await planned.after?.((first?.meta?.changes ?? 0) > 0);
  return { status: 200, body: { received: true, outcome: planned.outcome } };
}
