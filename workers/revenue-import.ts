import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import { withD1Session } from "../app/platform/db.server";
import { failReport, finishSteps, readReportRange } from "../app/modules/payments/payments.server";

// A month's revenue report of any size (issue 45 §1, docs/decisions/0334), read from R2 by durable
// steps: one step per 2 MiB range (0336), each returning only its offsets and counts, then the last
// steps (0344): the duplicate keys dropped in slice steps, one step that matches, prices and stages
// the sums, and the sums (and discarded entries) dropped in slice steps — every D1 call of them
// bounded. A failed step is retried where it stopped: every range step is guarded on the report's
// next_offset, so a retry never adds a range twice; a slice step deletes what is left, or nothing.
// https://developers.cloudflare.com/workflows/build/workers-api/ (WorkflowEntrypoint, step.do and its retries)
// https://developers.cloudflare.com/workflows/reference/limits/ (1 MiB per step result, 10,000 steps by default)

export type RevenueImportParams = { reportId: string };

const RANGE_RETRIES = { retries: { limit: 5, delay: "2 seconds", backoff: "exponential" }, timeout: "5 minutes" } as const;

export class RevenueImportWorkflow extends WorkflowEntrypoint<Env, RevenueImportParams> {
  async run(event: WorkflowEvent<RevenueImportParams>, step: WorkflowStep) {
    const { reportId } = event.payload;
    const onPrimary = <T>(work: () => Promise<T>) => withD1Session("first-primary", work);
    const run = <T extends Rpc.Serializable<T>>(name: string, work: () => Promise<T>) => step.do(name, RANGE_RETRIES, () => onPrimary(work));
    try {
      // 1 GB in 2 MiB ranges is 512 steps; 5 million keys in slice steps of 100,000 are 50 more:
      // far inside the 10,000 a Workflow may take.
      for (let i = 0; ; i++) {
        const range = await run(`range ${i}`, () => readReportRange(reportId));
        if (range.done) break;
      }
      return await finishSteps(reportId, run);
    } catch (error) {
      // Retries spent: the admin is told, and the work rows go (in slice steps, as above).
      await step.do("fail", () => onPrimary(() => failReport(reportId, "The report could not be read to its end. Upload it again.")));
      await finishSteps(reportId, run, undefined, "failed: ");
      throw error;
    }
  }
}
