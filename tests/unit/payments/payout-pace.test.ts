import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_TRANSFERS_PER_SECOND,
  MAX_TRANSFERS_PER_SECOND,
  minBatchMs,
  minutesFor,
  PAYOUT_BATCH_SIZE,
  PAYOUT_CONSUMER_CONCURRENCY,
  payoutPace,
  STRIPE_ENDPOINT_LIMIT_PER_SECOND,
  transfersPerSecondAt,
} from "~/modules/payments/payout-pace";

// The payout queue's pace as a setting (docs/decisions/0332): PAYOUT_TRANSFERS_PER_SECOND read and
// validated, the wait of a consumer batch that keeps C concurrent consumers at R per second, and
// wrangler.toml's consumer settings agreeing with the code's formula.

const root = resolve(import.meta.dirname, "../../..");
const toml = readFileSync(join(root, "wrangler.toml"), "utf8");

/** A key of the [[queues.consumers]] table of `queue` (no TOML parser in the project: the tables are flat). */
function consumerSetting(queue: string, key: string): number {
  const table = toml.split(/^\[\[/m).find((t) => t.startsWith("queues.consumers]]") && t.includes(`queue = "${queue}"`));
  const value = table?.match(new RegExp(`^${key}\\s*=\\s*(\\d+)`, "m"))?.[1];
  if (!value) throw new Error(`${key} of the ${queue} consumer not found in wrangler.toml`);
  return Number(value);
}

describe("the payout pace", () => {
  it("reads PAYOUT_TRANSFERS_PER_SECOND, and falls back to 16 a second with a reason for a bad value", () => {
    expect(payoutPace(undefined)).toEqual({ perSecond: 16, problem: null });
    expect(payoutPace("")).toEqual({ perSecond: 16, problem: null });
    expect(payoutPace("40")).toEqual({ perSecond: 40, problem: null });
    expect(payoutPace(" 12.5 ")).toEqual({ perSecond: 12.5, problem: null });
    expect(payoutPace(String(MAX_TRANSFERS_PER_SECOND)).perSecond).toBe(MAX_TRANSFERS_PER_SECOND);
    for (const bad of ["fast", "0", "-5", "0.5", "1e9", "1600", "NaN", "Infinity", "16/s"]) {
      const pace = payoutPace(bad);
      expect(pace.perSecond, bad).toBe(DEFAULT_TRANSFERS_PER_SECOND);
      expect(pace.problem, bad).toMatch(/PAYOUT_TRANSFERS_PER_SECOND=.* is not a number from 1 to 1000: paying at the default 16 per second/);
    }
  });

  it("makes a batch of n last n × concurrency / pace seconds, so the consumers together send the pace", () => {
    // The production figures: 10 messages, 2 consumers, 16 a second → 1.25 s a batch, 16 transfers a second.
    expect(minBatchMs(10, 16, 2)).toBe(1250);
    expect(transfersPerSecondAt(16, 10, 2)).toBe(16);
    // A partial batch waits in proportion (the queue hands out what it has after max_batch_timeout).
    expect(minBatchMs(3, 16, 2)).toBe(375);
    expect(minBatchMs(0, 16, 2)).toBe(0);
    // A raised account (say 80/s) and the bench's stand-in pace (200/s).
    expect(minBatchMs(10, 80, 2)).toBe(250);
    expect(minBatchMs(10, 200, 2)).toBe(100);
    expect(transfersPerSecondAt(200, 10, 2)).toBe(200);
    // Whatever n, C batches of n at once send at most R in any second: C × n / (minBatchMs / 1000) ≤ R.
    for (const n of [1, 2, 7, 10]) for (const r of [1, 5, 16, 25, 99, 1000]) expect((2 * n * 1000) / minBatchMs(n, r, 2)).toBeLessThanOrEqual(r);
    // 100,000 payouts at 16 a second: about 104 minutes.
    expect(Math.round(minutesFor(100_000, 16))).toBe(104);
  });

  it("agrees with wrangler.toml: the default pace, max_concurrency and max_batch_size within Stripe's 25 a second", () => {
    expect(toml).toMatch(new RegExp(`^PAYOUT_TRANSFERS_PER_SECOND = "${DEFAULT_TRANSFERS_PER_SECOND}"$`, "m"));
    expect(DEFAULT_TRANSFERS_PER_SECOND).toBeLessThan(STRIPE_ENDPOINT_LIMIT_PER_SECOND);
    expect(consumerSetting("shortbeat-payouts", "max_concurrency")).toBe(PAYOUT_CONSUMER_CONCURRENCY);
    expect(consumerSetting("shortbeat-payouts", "max_batch_size")).toBe(PAYOUT_BATCH_SIZE);
    // The burst at a round's start (every consumer's batch sent side by side) stays within the endpoint's limit.
    expect(PAYOUT_BATCH_SIZE * PAYOUT_CONSUMER_CONCURRENCY).toBeLessThanOrEqual(STRIPE_ENDPOINT_LIMIT_PER_SECOND);
  });
});
