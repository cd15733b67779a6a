import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { ledgerEntries, payouts } from "~/db/schema";
import { columnsOf } from "~/db/columns";
import { toCsv } from "~/lib/csv";
import { conflict, DomainError, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import {
  alongsideSession,
  peopleByIds,
  peopleMap,
  peopleWhereIdIn,
  type PersonSummary,
  personById,
  adminSessionLimit,
} from "~/modules/accounts/accounts.server";
import { createNotification, notifyUserQuietly } from "~/modules/notifications/notifications.server";
import { audit, auditQuery, auditQueryWhen } from "~/platform/audit.server";
import { builtOnce, db, type Slot } from "~/platform/db.server";
import { appOrigin, emailQuery, emailQueryWhen, userText } from "~/platform/email.server";
import { appName } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { stripeConfig, stripeMode } from "~/platform/stripe.server";
import { isMonth, monthLabel, payoutDateIn } from "./calendar";
import { PAYMENT_MESSAGES as M, PAYOUT_MESSAGES as P } from "./messages";
import { queueWaitingTransfers } from "./payout-day.server";
import { auditStripeRefusal, gatherChunk, madeByRun, payoutRunPlan } from "./payout-run.server";
import { ledgerPaidWithPayoutQuery, type SendResult, sendPendingTransfers, transfersWaitingOf, transfersWaitingQuery } from "./transfers.server";
import { centsToDecimal, formatCents } from "./money";
import { payoutDay } from "./share.server";

// Payouts (docs/decisions/0122-payout-calendar.md). The daily cron starts the payout-day Workflow
// (payout-day.server.ts, docs/decisions/0331; `runPayoutDay` is the same run in one call): from the
// payout date of a month on (the setting, Monday when it falls on a weekend) it gathers every
// person's finalized, unpaid entries into one payout of that run (batch = YYYY-MM). The payout's
// amount is summed and its entries attached in one batch (one transaction), and the unique
// (user, batch) index makes a second run — or two at once — gather nothing new. Entries finalized
// after a run wait for the next month's. Banned accounts are left out: their money moves only by
// an admin's explicit action. An admin marks a payout paid with the bank reference: a guarded
// update, so marking twice pays once.

export type PayoutRun = {
  batch: string | null;
  payouts: number;
  totalCents: number;
  /** Why payouts through Stripe did not start (no Stripe secrets), for the admin. */
  refused?: string;
  /** What the transfers step did, when Stripe is configured. */
  transfers?: SendResult;
};

/**
 * The whole payout day in one call (decision 0122, 0224): every chunk of `gatherChunk` (payout-run.server.ts),
 * then the Stripe payouts sent as transfers (at most TRANSFERS_PER_RUN). Production's daily cron does
 * not call this: it starts the payout-day Workflow (`startPayoutDay`, docs/decisions/0331), whose steps
 * are the same chunks and whose Queue sends each transfer through the same `sendOne`. This one serves
 * the worker tests and the dev tool's /dev/payout-day, where a run is a few dozen people.
 */
export async function runPayoutDay(now = new Date()): Promise<PayoutRun> {
  const plan = await payoutRunPlan(now);
  // Between payout days the job still sends what is waiting (a transfer whose answer was lost, a run an admin retried).
  if (!plan) return { batch: null, payouts: 0, totalCents: 0, transfers: stripeConfig() ? await sendPendingTransfers(now) : undefined };
  // One id prefix per run: an entry joins only a payout this run created (never an older one of the same batch).
  const token = crypto.randomUUID();
  let waitingForStripe = 0;
  for (let after: string | null = ""; after !== null; ) {
    const chunk = await gatherChunk(plan, token, after);
    waitingForStripe += chunk.waitingForStripe;
    after = chunk.next;
  }
  const refused = waitingForStripe > 0 ? await auditStripeRefusal(plan.batch, waitingForStripe) : undefined;
  const run: PayoutRun = { batch: plan.batch, ...(await madeByRun(token)), refused };
  if (stripeConfig()) run.transfers = await sendPendingTransfers(now);
  return run;
}

/** The e-mail a person gets when their payout is marked paid (one payout or a whole run). */
function payoutPaidEmail(to: string, amountCents: number, reference: string) {
  const amount = formatCents(amountCents);
  return {
    to,
    kind: "payout_paid",
    subject: `Your ${appName()} payout of ${amount} has been sent`,
    text: `We have sent your payout of ${amount} (reference ${userText(reference)}).\n\nSee your statement and payout history at ${appOrigin()}/payments.\n`,
  };
}

/** Marks a pending payout paid with the bank transfer's reference: its entries become paid, the person is told. */
export async function markPayoutPaid(actor: Actor, request: Request, input: { payoutId: string; reference: string }): Promise<{ amountCents: number }> {
  authorize(actor, "payments", "markPaid");
  const payout = await db().select().from(payouts).where(eq(payouts.id, input.payoutId)).get();
  if (!payout) throw notFound(M.payoutNotFound);
  if (payout.method !== "manual") throw conflict(P.manualOnly);
  if (payout.status !== "pending") throw conflict(M.paidAlready);
  const person = await personById(payout.userId);
  const now = new Date().toISOString();
  const amount = formatCents(payout.amountCents);
  try {
    await db().batch([
      db()
        .update(payouts)
        .set({ status: "paid", reference: input.reference, paidAt: now, paidBy: actor.id })
        .where(and(eq(payouts.id, payout.id), eq(payouts.status, "pending"), eq(payouts.method, "manual"))),
      precondition(previousStatementChanged(1)),
      db()
        .update(ledgerEntries)
        .set({ status: "paid" })
        .where(and(eq(ledgerEntries.payoutId, payout.id), eq(ledgerEntries.status, "finalized"))),
      auditQuery({
        eventType: "payout_marked_paid",
        severity: "high",
        userId: actor.id,
        targetUserId: payout.userId,
        request,
        details: { payout_id: payout.id, batch: payout.batch, amount_cents: payout.amountCents, reference: input.reference },
      }),
      ...(person ? [emailQuery(payoutPaidEmail(person.email, payout.amountCents, input.reference))] : []),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw conflict(M.paidAlready);
    throw error;
  }
  await notifyUserQuietly(payout.userId, {
    title: "Payout sent",
    content: `Your payout of ${amount} has been sent. Reference: ${input.reference}.`,
    kind: "payout_paid",
    createdBy: actor.id,
  });
  return { amountCents: payout.amountCents };
}

/** Payouts per D1 batch when a whole run is marked paid: 4 statements each, well under D1's limits. */
const PAYOUTS_PER_PAID_BATCH = 20;

export type BatchPaid = { paid: number; amountCents: number; alreadyPaid: number };

/**
 * Marks every pending payout of a run paid with one bank reference (docs/decisions/0124). Per payout,
 * in one D1 batch per chunk: the guarded update (pending → paid), then its audit row and the
 * person's e-mail written only when that update changed the row (`changes() = 1`), then its entries.
 * A payout already paid — by a single 'mark paid' or by a parallel request — is left alone, so each
 * is paid, logged and e-mailed once. The bell follows as one notification to the people paid here.
 */
export async function markBatchPaid(actor: Actor, request: Request, input: { batch: string; reference: string }): Promise<BatchPaid> {
  authorize(actor, "payments", "markPaid");
  const rows = await db()
    .select({ id: payouts.id, userId: payouts.userId, amountCents: payouts.amountCents, status: payouts.status })
    .from(payouts)
    .where(and(eq(payouts.batch, input.batch), eq(payouts.method, "manual")))
    .all();
  if (rows.length === 0) throw notFound(M.batchNotFound);
  if (rows.every((r) => r.status !== "pending")) throw conflict(M.batchPaidAlready(input.batch));
  // Every payout of the run goes through the guarded update, not only those read as pending: the
  // update alone decides (a payout paid since this read, or before it, is skipped there).
  const people = await peopleByIds(rows.map((r) => r.userId));
  const now = new Date().toISOString();
  const paid: { id: string; userId: string; amountCents: number }[] = [];
  for (let i = 0; i < rows.length; i += PAYOUTS_PER_PAID_BATCH) {
    const statements: BatchItem<"sqlite">[] = [];
    for (const p of rows.slice(i, i + PAYOUTS_PER_PAID_BATCH)) {
      const person = people.get(p.userId);
      statements.push(
        db()
          .update(payouts)
          .set({ status: "paid", reference: input.reference, paidAt: now, paidBy: actor.id })
          .where(and(eq(payouts.id, p.id), eq(payouts.status, "pending"), eq(payouts.method, "manual")))
          .returning({ id: payouts.id, userId: payouts.userId, amountCents: payouts.amountCents }),
        auditQueryWhen(
          {
            eventType: "payout_marked_paid",
            severity: "high",
            userId: actor.id,
            targetUserId: p.userId,
            request,
            details: { payout_id: p.id, batch: input.batch, amount_cents: p.amountCents, reference: input.reference, whole_batch: true },
          },
          previousStatementChanged(1),
        ),
        // After the audit row: it was written exactly when the payout changed.
        emailQueryWhen(
          payoutPaidEmail(person?.email ?? "", p.amountCents, input.reference),
          sql`${previousStatementChanged(1)} and ${person?.email ?? ""} <> ''`,
        ),
        ledgerPaidWithPayoutQuery(p.id),
      );
    }
    const results = (await db().batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[];
    for (let j = 0; j < results.length; j += 4) paid.push(...(results[j] as typeof paid));
  }
  if (paid.length === 0) throw conflict(M.batchPaidAlready(input.batch));
  const amountCents = paid.reduce((s, p) => s + p.amountCents, 0);
  await audit({
    eventType: "payout_batch_marked_paid",
    severity: "high",
    userId: actor.id,
    request,
    details: { batch: input.batch, reference: input.reference, payouts: paid.length, amount_cents: amountCents },
  });
  try {
    await createNotification(
      {
        title: "Payout sent",
        content: `Your payout from the ${monthLabel(input.batch)} run has been sent. Reference: ${input.reference}. The amount is on your Payments page.`,
        kind: "payout_paid",
        createdBy: actor.id,
      },
      { type: "ids", userIds: [...new Set(paid.map((p) => p.userId))] },
      { audienceTag: `payout:${input.batch}` },
    );
  } catch (error) {
    // The payments are recorded; a missing bell entry must not undo them.
    console.error("payout notification failed", error);
  }
  return { paid: paid.length, amountCents, alreadyPaid: rows.length - paid.length };
}

/** How many payouts /admin/payments lists in each of its lists; the rest are in each run's CSV. */
export const PAYOUT_ROWS_SHOWN = 25;

/** payoutBatches' statements (exported for their query-plan test); `slot`: the session's, for the page's adminSessionLimit (decision 0356). */
export function payoutListQueries(slot?: Slot) {
  const columns = columnsOf(
    payouts,
    "id",
    "userId",
    "batch",
    "amountCents",
    "status",
    "reference",
    "paidAt",
    "method",
    "failureReason",
    "heldReason",
    "sentAt",
  );
  const newest = db().selectDistinct({ batch: payouts.batch }).from(payouts).orderBy(desc(payouts.batch)).limit(3);
  const toMarkPaidWhere = and(eq(payouts.method, "manual"), eq(payouts.status, "pending"));
  const failedWhere = and(inArray(payouts.batch, newest), eq(payouts.status, "failed"));
  return {
    toMarkPaid: db()
      .select(columns)
      .from(payouts)
      .where(toMarkPaidWhere)
      .orderBy(desc(payouts.batch), desc(payouts.amountCents))
      .limit(adminSessionLimit(slot, PAYOUT_ROWS_SHOWN)),
    failed: db()
      .select(columns)
      .from(payouts)
      .where(failedWhere)
      .orderBy(desc(payouts.batch), desc(payouts.amountCents))
      .limit(adminSessionLimit(slot, PAYOUT_ROWS_SHOWN)),
    counts: db()
      .select({
        toMarkPaid: db().$count(payouts, toMarkPaidWhere),
        failed: db().$count(payouts, failedWhere),
      })
      .from(sql`(select 1)`)
      .limit(adminSessionLimit(slot)),
  };
}

/**
 * payoutBatches' statements, built once per isolate (db.server builtOnce, 0284; decision 0349): the
 * same text on every load; each reads only for an admin's session (adminSessionLimit, decision 0356).
 */
const payoutLists = {
  toMarkPaid: builtOnce((slot) => payoutListQueries(slot).toMarkPaid),
  failed: builtOnce((slot) => payoutListQueries(slot).failed),
  counts: builtOnce((slot) => payoutListQueries(slot).counts),
  // The people the two lists name, over the lists' own statements (their user ids): in the same batch (decision 0352).
  people: builtOnce((slot) => {
    const q = payoutListQueries();
    return peopleWhereIdIn([sql`select user_id from ${q.toMarkPaid}`, sql`select user_id from ${q.failed}`], adminSessionLimit(slot));
  }),
};

type SessionArgs = Parameters<typeof alongsideSession>[0];

/**
 * The payouts /admin/payments lists (decision 0333): those still to be marked paid by hand (outside
 * Stripe, every run, newest run first) and those Stripe refused in the newest three runs, at most
 * PAYOUT_ROWS_SHOWN of each with how many there are. The runs' figures are payoutRunsProgress's; every
 * payout of a run is in its CSV. Each list is read through an index ((method, status), (batch, status)):
 * a run of 100,000 payouts is not sorted to show 25.
 */
export function startPayoutBatches(args: SessionArgs) {
  const lists = [payoutLists.toMarkPaid, payoutLists.failed, payoutLists.counts, payoutLists.people] as const;
  const [marking, refused, counted, named] = [
    alongsideSession(args, lists[0]),
    alongsideSession(args, lists[1]),
    alongsideSession(args, lists[2]),
    alongsideSession(args, lists[3]),
  ];
  return async (actor: Actor) => {
    authorize(actor, "payments", "manage");
    const [toMarkPaid, failed, counts, people] = [await marking, await refused, await counted, peopleMap(await named)];
    return payoutListsOf(toMarkPaid, failed, counts, people);
  };
}

type PayoutListRow = Awaited<ReturnType<ReturnType<typeof payoutLists.toMarkPaid>["all"]>>[number];

function payoutListsOf(
  toMarkPaid: PayoutListRow[],
  failed: PayoutListRow[],
  counts: { toMarkPaid: number; failed: number }[],
  people: Map<string, PersonSummary>,
) {
  const named = (rows: PayoutListRow[]) =>
    rows.map((r) => ({ ...r, name: people.get(r.userId)?.fullName ?? null, email: people.get(r.userId)?.email ?? null }));
  return {
    toMarkPaid: named(toMarkPaid),
    toMarkPaidCount: counts[0]?.toMarkPaid ?? 0,
    failed: named(failed),
    failedCount: counts[0]?.failed ?? 0,
  };
}

/** A batch as CSV for the bank: one line per payout. */
export async function payoutBatchCsv(actor: Actor, batch: string): Promise<{ filename: string; csv: string }> {
  authorize(actor, "payments", "manage");
  if (!isMonth(batch)) throw notFound(M.batchNotFound);
  const rows = await db().select().from(payouts).where(eq(payouts.batch, batch)).orderBy(desc(payouts.amountCents)).all();
  if (rows.length === 0) throw notFound(M.batchNotFound);
  const people = await peopleByIds(rows.map((r) => r.userId));
  const day = await payoutDay();
  const csv = toCsv([
    ["payout_id", "batch", "payout_date", "name", "email", "creator_id", "amount", "currency", "method", "status", "reference", "paid_at"],
    ...rows.map((r) => {
      const p = people.get(r.userId);
      return [
        r.id,
        r.batch,
        r.payoutDate ?? payoutDateIn(r.batch, day),
        p?.fullName ?? "",
        p?.email ?? "",
        p?.creatorId ?? "",
        centsToDecimal(r.amountCents),
        "USD",
        r.method === "stripe" ? "stripe" : "outside_stripe",
        r.status,
        r.reference,
        r.paidAt,
      ];
    }),
  ]);
  return { filename: `payouts-${batch}.csv`, csv };
}

/** transfersWaitingStatement's count for the admin page: only for an admin's session (adminSessionLimit, decision 0356). */
const transfersWaitingOfAdminSession = builtOnce((slot) => transfersWaitingQuery(adminSessionLimit(slot)));

/**
 * The payout rail for the admin page: Stripe's mode (or off) and the Stripe payouts waiting, read in
 * the session lookup's batch (decision 0352): call before the guard, then give the guard's actor.
 */
export function startPayoutRail(args: SessionArgs) {
  const waiting = alongsideSession(args, transfersWaitingOfAdminSession);
  return async (actor: Actor) => {
    authorize(actor, "payments", "manage");
    return { mode: stripeMode(), ...transfersWaitingOf(await waiting) };
  };
}

/**
 * An admin's "send now" (after fixing the configuration, a balance top-up, a failed run): the Stripe
 * payouts waiting or unconfirmed go on the payout queue, whose consumer sends them at
 * PAYOUT_TRANSFERS_PER_SECOND under Stripe's rate limit (https://docs.stripe.com/rate-limits),
 * recovering a lost answer and reconciling a missing webhook as the day's run does. It no longer
 * sends from the request (400 transfers, 6 at a time, outside the queue's pace: decision 0343).
 */
export async function sendTransfersNow(actor: Actor, request: Request): Promise<{ queued: number }> {
  authorize(actor, "payments", "manage");
  if (!stripeConfig()) throw new DomainError("unavailable", P.adminNotConfigured, { title: "Stripe is not configured" });
  const queued = await queueWaitingTransfers();
  if (queued === 0) throw conflict(P.nothingToSend);
  await audit({ eventType: "payout_transfers_queued", severity: "high", userId: actor.id, request, details: { queued } });
  return { queued };
}
