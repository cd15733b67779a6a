import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import { withD1Session } from "../app/platform/db.server";
import { auditStripeRefusal, enqueueChunk, gatherChunk, madeByRun, type PayoutDayParams, payoutRunPlanFor } from "../app/modules/payments/payments.server";

// The payout day as a Workflow (issue 45 §2, docs/decisions/0331). Every step is small and
// idempotent, and returns only a cursor and counts (a step's result is at most 1 MiB and is kept
// with the instance: https://developers.cloudflare.com/workflows/reference/limits/). A step that
// fails is retried by the engine; a step that completed is not run again when the instance resumes
// (https://developers.cloudflare.com/workflows/build/workers-api/#step). The payouts' ids carry the
// instance id, so an entry joins only a payout this instance made, and the unique (user, batch)
// index keeps a second instance (a retry, a rerun) from paying anyone twice.
//   plan     the run's payout date and minimum, fixed for the instance
//   gather   1,000 people per step by a user-id cursor (payout-run.server.ts)
//   enqueue  the run's pending, then processing, Stripe payouts onto PAYOUT_QUEUE, 2,000 per step
//   summary  the counts, and the audit row when Stripe people waited for want of the secrets

/** Retries of a step: D1 or the queue may be briefly unavailable (https://developers.cloudflare.com/workflows/build/sleeping-and-retrying/). */
const STEP = { retries: { limit: 5, delay: "10 seconds", backoff: "exponential" }, timeout: "5 minutes" } as const;

/** A step's work in its own D1 session on the primary, as the cron and the queue consumer do (decision 0232). */
const onPrimary = <T>(work: () => Promise<T>): Promise<T> => withD1Session("first-primary", () => work());

export type PayoutDaySummary = { batch: string; gathered: number; people: number; enqueued: number; payouts: number; totalCents: number };

export class PayoutDayWorkflow extends WorkflowEntrypoint<Env, PayoutDayParams> {
  async run(event: WorkflowEvent<PayoutDayParams>, step: WorkflowStep): Promise<PayoutDaySummary> {
    const { batch, gather } = event.payload;
    const token = event.instanceId;
    const plan = await step.do("plan", STEP, () => onPrimary(() => payoutRunPlanFor(batch)));

    let people = 0;
    let gathered = 0;
    let waitingForStripe = 0;
    if (gather) {
      for (let after: string | null = ""; after !== null; ) {
        const from: string = after;
        const chunk = await step.do(`gather after ${from || "start"}`, STEP, () =>
          onPrimary(() => gatherChunk(plan, token, from, event.payload.peoplePerChunk)),
        );
        people += chunk.people;
        gathered += chunk.gathered;
        waitingForStripe += chunk.waitingForStripe;
        after = chunk.next;
      }
    }

    let enqueued = 0;
    for (const status of ["pending", "processing"] as const) {
      for (let after: number | null = 0; after !== null; ) {
        const from: number = after;
        const chunk = await step.do(`enqueue ${status} after ${from}`, STEP, () =>
          onPrimary(() => enqueueChunk(batch, status, from, event.payload.payoutsPerEnqueue)),
        );
        enqueued += chunk.enqueued;
        after = chunk.next;
      }
    }

    const made = await step.do("summary", STEP, () =>
      onPrimary(async () => {
        if (waitingForStripe > 0) await auditStripeRefusal(batch, waitingForStripe);
        return madeByRun(token);
      }),
    );
    return { batch, gathered, people, enqueued, ...made };
  }
}
