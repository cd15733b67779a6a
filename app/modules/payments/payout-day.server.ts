import { and, desc, eq, gt, inArray, type SQLWrapper, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { payoutRunTotals, payouts } from "~/db/schema";
import { conflict, DomainError, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { adminSessionLimit, alongsideSession } from "~/modules/accounts/accounts.server";
import { audit } from "~/platform/audit.server";
import { builtOnce, db, type Slot } from "~/platform/db.server";
import { consumeRecent } from "~/platform/rate-limit.server";
import { env } from "~/platform/env.server";
import { stripeClient, stripeConfig } from "~/platform/stripe.server";
import { isMonth } from "./calendar";
import { PAYMENT_MESSAGES as M, PAYOUT_MESSAGES as P } from "./messages";
import { minBatchMs, payoutPace } from "./payout-pace";
import { nextBalancesQuery, type PayoutRunPlan, payoutRunPlan } from "./payout-run.server";
import { alertAdminsOfHold, claimPending, type recordTransferQuery, type SettleOutcome, sendClaimed, settleOne } from "./transfers.server";
import type { PayoutRunProgress } from "./types";

export type { PayoutRunProgress };

// The payout day on Cloudflare's engines (issue 45 §2, docs/decisions/0331):
//   start     the daily cron creates the Workflow instance of the month's run, id payout-day-YYYY-MM.
//             Workflows refuse a second instance with an id that exists ("If a provided id exists, an
//             error will be thrown": https://developers.cloudflare.com/workflows/build/workers-api/#create),
//             so starting the day twice runs it once.
//   steps     workers/payout-day.ts: the gather chunks (payout-run.server.ts), then `enqueueChunk`
//             puts the run's Stripe payouts on PAYOUT_QUEUE, a few thousand per step.
//   consumer  `consumePayoutQueue` settles each payout a message names with `settleOne`: the guarded
//             claim pending → processing and the idempotency key payout-<id>, so a duplicate message,
//             a retried step or a rerun sends once. Paced to PAYOUT_TRANSFERS_PER_SECOND (wrangler.toml
//             [vars], default 16, under Stripe's 25 per endpoint: payout-pace.ts, decision 0332).
//   retry     an admin's "Retry" starts a further instance for the run (one per run per 10 minutes).

export const PAYOUT_QUEUE_NAME = "shortbeat-payouts";
export type PayoutQueueMessage = { type: "payout"; payoutId: string };

/** The Workflow's parameters: the run, whether to gather (only the run that is due now), and the chunk sizes. */
export type PayoutDayParams = { batch: string; gather: boolean; peoplePerChunk?: number; payoutsPerEnqueue?: number };

/** Payouts per enqueue step: 20 sendBatch calls of 100 messages. */
export const PAYOUTS_PER_ENQUEUE = 2000;
/** Queues takes at most 100 messages per sendBatch (https://developers.cloudflare.com/queues/platform/limits/). */
const MESSAGES_PER_SEND = 100;
/** A message whose transfer got no answer (network, 5xx, 429) comes back after the recover window. */
const RETRY_UNKNOWN_SECONDS = 11 * 60;
/** Retries of one run: one per 10 minutes, so two admins clicking at once start one. */
const RETRY_WINDOW_MS = 10 * 60 * 1000;

/** The id of a month's run: the same for every start of it. */
export function payoutRunId(batch: string): string {
  return `payout-day-${batch}`;
}

/** Creates the instance; false when one with that id exists already (this start is the second). */
async function createRun(id: string, params: PayoutDayParams): Promise<boolean> {
  try {
    await env.PAYOUT_DAY.create({ id, params });
    return true;
  } catch (error) {
    // Miniflare and production both say "already exists" (instance.already_exists).
    if (/already[ _]exists/i.test(String((error as Error)?.message ?? error))) return false;
    throw error;
  }
}

/** A run's instance, for the dev tool and the bench: its status and, once complete, its output. */
export async function payoutRunStatus(id: string): Promise<InstanceStatus | null> {
  try {
    return await (await env.PAYOUT_DAY.get(id)).status();
  } catch {
    return null;
  }
}

/**
 * Runs a run's instance again from its first step (Workflows' restart(), "restarts the instance from
 * the beginning": https://developers.cloudflare.com/changelog/post/2026-03-23-local-dev-instance-methods/,
 * https://developers.cloudflare.com/workflows/build/workers-api/). For the dev tool and the bench's
 * kill test (decision 0332): Cloudflare's engine resumes an instance whose machine died, but a local
 * workerd killed mid-run leaves its instance "running" with nothing running it, and its queued
 * messages are gone (Miniflare keeps them in memory). Every step is idempotent and the same
 * instance id is the same token, so the rerun gathers only who is left and queues every payout that
 * is still waiting or unconfirmed. False when no such instance exists.
 */
export async function restartPayoutRun(id: string): Promise<boolean> {
  let instance: WorkflowInstance;
  try {
    instance = await env.PAYOUT_DAY.get(id);
  } catch {
    return false;
  }
  await instance.restart();
  return true;
}

export type PayoutDayStart = { batch: string | null; started: boolean; restarted: boolean; swept: number };

/** Restarts of a month's stopped run: one per 12 hours, so two crons at once (or a retried cron) restart it once. */
const RESTART_WINDOW_MS = 12 * 60 * 60 * 1000;

/**
 * Whether the run of `plan` still has work: a Stripe or manual payout of the month not yet settled
 * (pending or processing), or a person whose payable balance reaches the minimum and who is in no
 * payout yet (nextBalancesQuery: the first such person by user id is enough).
 */
async function runHasUnpaidWork(plan: PayoutRunPlan): Promise<boolean> {
  const waiting = await db()
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(eq(payouts.batch, plan.batch), inArray(payouts.status, ["pending", "processing"])))
    .limit(1)
    .all();
  if (waiting.length > 0) return true;
  return (await nextBalancesQuery("", Math.max(1, plan.minimumCents), 1).all()).length > 0;
}

/**
 * The month's instance exists: if it ended "errored" (a step's retries ran out) or "terminated", and
 * the month still has unpaid work, it is run again from its first step with `restart()` (decision
 * 0342). Statuses: https://developers.cloudflare.com/workflows/build/workers-api/#instancestatus;
 * restart(): https://developers.cloudflare.com/workflows/build/workers-api/#restart ("restarts the
 * instance from the beginning", also locally:
 * https://developers.cloudflare.com/changelog/post/2026-03-23-local-dev-instance-methods/). The same
 * id is the same token: every step is idempotent, so the gathered people are not gathered twice
 * and the waiting payouts are queued again. Once per RESTART_WINDOW_MS, counted in the RateLimiter
 * Durable Object (exact under concurrency, decision 0040): of two crons at once, one restarts.
 */
async function restartIfStopped(id: string, plan: PayoutRunPlan, now: Date): Promise<boolean> {
  const instance = await env.PAYOUT_DAY.get(id);
  const { status, error } = await instance.status();
  if (status !== "errored" && status !== "terminated") return false;
  if (!(await runHasUnpaidWork(plan))) return false;
  const slot = await consumeRecent("payout-day-restart", plan.batch, { maxAttempts: 1, windowMs: RESTART_WINDOW_MS }, now.getTime());
  if (!slot.allowed) return false;
  await instance.restart();
  await audit({ eventType: "payout_run_restarted", severity: "high", details: { batch: plan.batch, instance: id, was: status, error: error ?? null } });
  return true;
}

/**
 * The daily cron's payout job: on and after a month's payout date, the month's run is started
 * (once: its id is fixed); a run of the month that ended errored or terminated with work left is
 * restarted (once per 12 hours). Every day, the Stripe payouts of earlier runs that still wait
 * (held for the platform's balance, answers lost) go on the queue again, at most PAYOUTS_PER_ENQUEUE.
 */
export async function startPayoutDay(now = new Date()): Promise<PayoutDayStart> {
  const plan = await payoutRunPlan(now);
  const started = plan ? await createRun(payoutRunId(plan.batch), { batch: plan.batch, gather: true }) : false;
  const restarted = plan && !started ? await restartIfStopped(payoutRunId(plan.batch), plan, now) : false;
  // The run just (re)started enqueues its own.
  const swept = stripeConfig() ? await queueWaitingTransfers(plan && (started || restarted) ? plan.batch : null) : 0;
  return { batch: plan?.batch ?? null, started, restarted, swept };
}

/**
 * The Stripe payouts of every run still waiting (pending, held) or unconfirmed (processing) go on
 * PAYOUT_QUEUE, at most PAYOUTS_PER_ENQUEUE per run and status; the consumer sends, recovers or
 * reconciles each at the queue's pace (`settleOne`, PAYOUT_TRANSFERS_PER_SECOND). The daily sweep
 * and the admin's "Send waiting transfers now" (decision 0343): nothing reaches Stripe but through
 * the paced consumer. A payout queued twice is claimed once. Returns the messages queued.
 */
export async function queueWaitingTransfers(skipBatch: string | null = null): Promise<number> {
  const waiting = await db()
    .selectDistinct({ batch: payouts.batch })
    .from(payouts)
    .where(and(eq(payouts.method, "stripe"), inArray(payouts.status, ["pending", "processing"])))
    .all();
  let queued = 0;
  for (const { batch } of waiting) {
    if (batch === skipBatch) continue;
    for (const status of ["pending", "processing"] as const) queued += (await enqueueChunk(batch, status, 0, PAYOUTS_PER_ENQUEUE)).enqueued;
  }
  return queued;
}

/**
 * Puts the next `limit` Stripe payouts of a run in `status` after the cursor on the queue. The cursor
 * is SQLite's rowid: payouts_batch_idx (batch, status) keeps its entries in rowid order, so each step
 * reads only its own rows (drizzle has no name for rowid, hence the raw column).
 */
export async function enqueueChunk(
  batch: string,
  status: "pending" | "processing",
  after: number,
  limit = PAYOUTS_PER_ENQUEUE,
): Promise<{ next: number | null; enqueued: number }> {
  const rows = await db()
    .select({ rowid: sql<number>`rowid`.mapWith(Number), id: payouts.id, method: payouts.method })
    .from(payouts)
    .where(and(eq(payouts.batch, batch), eq(payouts.status, status), sql`rowid > ${after}`))
    .orderBy(sql`rowid`)
    .limit(limit)
    .all();
  const ids = rows.filter((r) => r.method === "stripe").map((r) => r.id);
  for (let i = 0; i < ids.length; i += MESSAGES_PER_SEND) {
    await env.PAYOUT_QUEUE.sendBatch(
      ids.slice(i, i + MESSAGES_PER_SEND).map((payoutId) => ({ body: { type: "payout", payoutId } satisfies PayoutQueueMessage })),
    );
  }
  return { next: rows.length === limit ? (rows.at(-1)?.rowid ?? null) : null, enqueued: ids.length };
}

export type PayoutQueueResult = { sent: number; failed: number; held: number; skipped: number; unknown: number };

/** The bad setting this isolate has already logged (once, not once per batch). */
let paceProblemLogged: string | null = null;

/**
 * How long a consumer batch of `messages` must last: PAYOUT_TRANSFERS_PER_SECOND (wrangler.toml [vars],
 * validated; a bad value is the default, logged once) through the formula of payout-pace.ts.
 */
export function payoutBatchMs(messages: number): number {
  const pace = payoutPace(env.PAYOUT_TRANSFERS_PER_SECOND);
  if (pace.problem && pace.problem !== paceProblemLogged) {
    paceProblemLogged = pace.problem;
    console.warn(pace.problem);
  }
  return minBatchMs(messages, pace.perSecond);
}

/**
 * The PAYOUT_QUEUE consumer (workers/app.ts `queue()`): the batch's waiting payouts claimed in one
 * statement, then each message's payout sent (or settled by `settleOne`) side by side, then the batch
 * waits out the rest of `payoutBatchMs` (the pace: docs/decisions/0332). A lost answer (network, 5xx,
 * 429) leaves the payout processing and the message comes back after the recover window, when
 * `settleOne` asks Stripe what became of it; every other outcome is acknowledged.
 */
export async function consumePayoutQueue(batch: MessageBatch<PayoutQueueMessage>, batchMs = payoutBatchMs(batch.messages.length)): Promise<PayoutQueueResult> {
  const began = Date.now();
  const result: PayoutQueueResult = { sent: 0, failed: 0, held: 0, skipped: 0, unknown: 0 };
  if (!stripeConfig()) {
    for (const m of batch.messages) m.retry({ delaySeconds: 3600 });
    return result;
  }
  const stripe = await stripeClient();
  const ids = [...new Set(batch.messages.map((m) => m.body?.payoutId).filter((id): id is string => typeof id === "string"))];
  const rows = new Map((ids.length ? await db().select().from(payouts).where(inArray(payouts.id, ids)).all() : []).map((p) => [p.id, p]));
  const now = new Date();
  // The batch's waiting payouts claimed in one statement (not one UPDATE per message): the claimed
  // ids are this batch's to send, each by the first message naming it; a twin message in the batch,
  // or a payout another consumer or run claimed first, is skipped.
  const claimed = await claimPending(
    [...rows.values()].filter((p) => p.method === "stripe" && p.status === "pending").map((p) => p.id),
    now,
  );
  let newlyHeld = 0;
  // The sent transfers' ids, written in one D1 batch once the batch's transfers are made (one round
  // trip per batch instead of one per transfer). Exactly-once does not rest on them: the claim and
  // the key payout-<id> do; a write lost in a crash leaves the payout processing without an id,
  // which `settleOne` recovers through its transfer_group, as a lost answer.
  const records: BatchItem<"sqlite">[] = [];
  const defer = (write: ReturnType<typeof recordTransferQuery>) => records.push(write);
  await Promise.all(
    batch.messages.map(async (m) => {
      const p = rows.get(m.body?.payoutId);
      let outcome: SettleOutcome = "skipped";
      if (p?.method === "stripe" && p.status === "pending") outcome = claimed.delete(p.id) ? await sendClaimed(stripe, p, now, defer) : "skipped";
      else if (p) outcome = await settleOne(stripe, p, now);
      if (outcome === "unknown") {
        result.unknown += 1;
        m.retry({ delaySeconds: RETRY_UNKNOWN_SECONDS });
        return;
      }
      if (outcome === "sent") result.sent += 1;
      else if (outcome === "failed") result.failed += 1;
      else if (outcome === "held" || outcome === "newly held") result.held += 1;
      else result.skipped += 1;
      if (outcome === "newly held") newlyHeld += 1;
      m.ack();
    }),
  );
  if (records.length > 0) await db().batch(records as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  if (newlyHeld > 0) await alertAdminsOfHold(newlyHeld);
  const rest = batchMs - (Date.now() - began);
  if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
  return result;
}

/**
 * The runs' figures by method and status, counted from payouts_batch_figures_idx alone in its order
 * (batch, method, status, held_at, amount_cents): a run of 100,000 payouts is read from the index,
 * never the table, and not sorted (decision 0333). `batches`: the runs, or a subquery choosing them
 * (the newest three, NEWEST_RUNS). Exported for its query-plan test.
 */
export function payoutRunFiguresQuery(batches: string[] | SQLWrapper) {
  return db()
    .select({
      batch: payouts.batch,
      method: payouts.method,
      status: payouts.status,
      held: sql<number>`coalesce(sum(${payouts.heldAt} is not null), 0)`.mapWith(Number),
      n: sql<number>`count(*)`.mapWith(Number),
      cents: sql<number>`coalesce(sum(${payouts.amountCents}), 0)`.mapWith(Number),
    })
    .from(payouts)
    .where(inArray(payouts.batch, batches))
    .groupBy(payouts.batch, payouts.method, payouts.status);
}

/** The newest three runs, off payouts_batch_idx's order (a skip-ahead DISTINCT: three index seeks), as a subquery. */
export const newestRunsQuery = () => db().selectDistinct({ batch: payouts.batch }).from(payouts).orderBy(desc(payouts.batch)).limit(3);

/**
 * The newest three runs' figures in ONE statement (the runs chosen inside it; decision 0352): the
 * kept totals (payout_run_totals, decision 0353: a few rows per run, written by triggers on payouts),
 * in the shape of payoutRunFiguresQuery's count, which they equal. Exported for its query-plan test.
 */
export function newestRunsFiguresQuery(slot?: Slot) {
  return db()
    .select({
      batch: payoutRunTotals.batch,
      method: payoutRunTotals.method,
      status: payoutRunTotals.status,
      held: payoutRunTotals.held,
      n: payoutRunTotals.payouts,
      cents: payoutRunTotals.cents,
    })
    .from(payoutRunTotals)
    .where(and(inArray(payoutRunTotals.batch, newestRunsQuery()), gt(payoutRunTotals.payouts, 0)))
    .limit(adminSessionLimit(slot));
}

/** newestRunsFiguresQuery, built once per isolate. */
const newestRunsFigures = builtOnce(() => newestRunsFiguresQuery());
/** The same for /admin/payments, alongside the session: only for an admin's session (adminSessionLimit, decision 0356). */
const newestRunsFiguresOfAdminSession = builtOnce((slot) => newestRunsFiguresQuery(slot));

type FiguresRow = { batch: string; method: string; status: string; held: number; n: number; cents: number };

/** The figures' rows as each run's progress, newest run first (every run of the three has a row). */
function runsProgressOf(rows: FiguresRow[]): PayoutRunProgress[] {
  const batches = [...new Set(rows.map((r) => r.batch))].sort().reverse();
  return batches.map((batch) => {
    const progress: PayoutRunProgress = { batch, gathered: 0, totalCents: 0, waiting: 0, held: 0, sent: 0, paid: 0, failed: 0, manual: 0 };
    for (const r of rows.filter((x) => x.batch === batch)) {
      progress.gathered += r.n;
      progress.totalCents += r.cents;
      if (r.status === "paid") progress.paid += r.n;
      else if (r.status === "failed") progress.failed += r.n;
      else if (r.method === "manual") progress.manual += r.n;
      else if (r.status === "processing") progress.sent += r.n;
      else {
        progress.waiting += r.n;
        progress.held += r.held;
      }
    }
    return progress;
  });
}

/** The newest runs' progress (three), for a run's retry. */
export async function payoutRunsProgress(actor: Actor): Promise<PayoutRunProgress[]> {
  authorize(actor, "payments", "manage");
  return runsProgressOf(await newestRunsFigures({}).all());
}

/**
 * The newest runs' progress (three) for /admin/payments, read in the session lookup's batch (one
 * round trip for the page, decision 0352): call before the guard, then give the guard's actor.
 */
export function startPayoutRunsProgress(args: Parameters<typeof alongsideSession>[0]): (actor: Actor) => Promise<PayoutRunProgress[]> {
  const rows = alongsideSession(args, newestRunsFiguresOfAdminSession);
  return async (actor) => {
    authorize(actor, "payments", "manage");
    return runsProgressOf(await rows);
  };
}

/**
 * An admin's "Retry" of a run: a further instance of the payout-day Workflow for it, which gathers
 * again if the run is the one due now (a run that stopped half-way finishes) and puts the run's
 * waiting and sent-but-unconfirmed Stripe payouts on the queue, where `settleOne` sends, recovers or
 * reconciles each. Refused payouts are not sent again: their amount is back in the balance and goes
 * with the next run (decision 0331). One retry per run per 10 minutes, counted exactly in a Durable
 * Object: two admins clicking at once start one instance; the second is told a retry is under way.
 */
export async function retryPayoutRun(actor: Actor, request: Request, batch: string, now = new Date()): Promise<{ waiting: number; sent: number }> {
  authorize(actor, "payments", "manage");
  if (!stripeConfig()) throw new DomainError("unavailable", P.adminNotConfigured, { title: "Stripe is not configured" });
  if (!isMonth(batch)) throw notFound(M.batchNotFound);
  const [progress] = (await payoutRunsProgress(actor)).filter((p) => p.batch === batch);
  if (!progress) throw notFound(M.batchNotFound);
  if (progress.waiting + progress.sent === 0) throw conflict(P.nothingToRetry);
  const due = await payoutRunPlan(now);
  // Exact under concurrency (a Durable Object counts it): of two admins clicking at once, one retries.
  const slot = await consumeRecent("payout-retry", batch, { maxAttempts: 1, windowMs: RETRY_WINDOW_MS }, now.getTime());
  if (!slot.allowed) throw conflict(P.retryUnderWay);
  await createRun(`${payoutRunId(batch)}-retry-${now.getTime()}`, { batch, gather: due?.batch === batch });
  await audit({
    eventType: "payout_run_retried",
    severity: "high",
    userId: actor.id,
    request,
    details: { batch, waiting: progress.waiting, sent: progress.sent },
  });
  return { waiting: progress.waiting, sent: progress.sent };
}
