// The payout queue's pace (issue 45, docs/decisions/0332): how fast the PAYOUT_QUEUE consumer may send
// Stripe transfers, as a setting, because Stripe raises rate limits per account on request.
//
// Stripe: "API endpoints have a default limit of 25 requests per second" (POST /v1/transfers is one
// endpoint), 100 operations per second in all in live mode and 25 in a sandbox, and "Stripe may
// increase rate limits for specific accounts" (https://docs.stripe.com/rate-limits). The default, 16
// per second, leaves a third of the endpoint's 25 for the webhooks' reads, the admin's pages and
// retries.
//
// The formula. The queue runs at most C = max_concurrency consumer invocations at once (wrangler.toml,
// [[queues.consumers]] shortbeat-payouts); each takes a batch of n ≤ max_batch_size messages and
// sends them side by side. If every batch of n lasts at least n × C / R seconds, the C consumers
// together send at most C × n / (n × C / R) = R transfers per second, whatever n the queue hands
// out. So the consumer waits out `minBatchMs(n, R)` = ceil(1000 × n × C / R).
// Two constraints keep that true and keep Stripe's own limit:
//   - PAYOUT_CONSUMER_CONCURRENCY below equals max_concurrency (tests/unit/payments/payout-pace.test.ts
//     reads wrangler.toml), else the sum runs faster than R;
//   - max_batch_size × max_concurrency (the burst of requests in flight at a batch's start, 10 × 2 = 20)
//     stays within Stripe's 25 per second on the endpoint, so even the first instant is within it.

/** The pace without a setting: under Stripe's default 25 requests per second on one endpoint. */
export const DEFAULT_TRANSFERS_PER_SECOND = 16;
/** wrangler.toml's max_concurrency of the shortbeat-payouts consumer (checked by a unit test). */
export const PAYOUT_CONSUMER_CONCURRENCY = 2;
/** wrangler.toml's max_batch_size of the shortbeat-payouts consumer (checked by a unit test). */
export const PAYOUT_BATCH_SIZE = 10;
/** Stripe's default per-endpoint limit: the burst of one round of batches must stay within it. */
export const STRIPE_ENDPOINT_LIMIT_PER_SECOND = 25;
/**
 * The highest pace accepted: far above any limit Stripe grants by default (100/s in live mode), so a
 * raised account fits, while a typo with extra digits (1600) falls back to the default instead of
 * hammering Stripe into 429s.
 */
export const MAX_TRANSFERS_PER_SECOND = 1000;

export type Pace = { perSecond: number; problem: string | null };

/**
 * PAYOUT_TRANSFERS_PER_SECOND read: a number from 1 to MAX_TRANSFERS_PER_SECOND (decimals allowed:
 * 12.5). Unset is the default, silently; anything else falls back to the default with `problem`
 * saying why (the consumer logs it).
 */
export function payoutPace(raw: string | undefined | null): Pace {
  if (raw === undefined || raw === null || raw.trim() === "") return { perSecond: DEFAULT_TRANSFERS_PER_SECOND, problem: null };
  const value = Number(raw.trim());
  if (!Number.isFinite(value) || value < 1 || value > MAX_TRANSFERS_PER_SECOND) {
    return {
      perSecond: DEFAULT_TRANSFERS_PER_SECOND,
      problem: `PAYOUT_TRANSFERS_PER_SECOND=${JSON.stringify(raw)} is not a number from 1 to ${MAX_TRANSFERS_PER_SECOND}: paying at the default ${DEFAULT_TRANSFERS_PER_SECOND} per second`,
    };
  }
  return { perSecond: value, problem: null };
}

/** How long a consumer batch of `messages` must last so that `concurrency` of them send at most `perSecond` transfers a second. */
export function minBatchMs(messages: number, perSecond: number, concurrency = PAYOUT_CONSUMER_CONCURRENCY): number {
  if (messages <= 0) return 0;
  return Math.ceil((1000 * messages * concurrency) / perSecond);
}

/** The most transfers per second the queue can send at `perSecond`: the pace itself, for a full batch. */
export function transfersPerSecondAt(perSecond: number, batchSize = PAYOUT_BATCH_SIZE, concurrency = PAYOUT_CONSUMER_CONCURRENCY): number {
  return (concurrency * batchSize * 1000) / minBatchMs(batchSize, perSecond, concurrency);
}

/** Minutes the queue takes for `payouts` transfers at `perSecond` (the docs' "≈ 105 min for 100,000 at 16/s"). */
export const minutesFor = (payouts: number, perSecond: number) => payouts / perSecond / 60;
