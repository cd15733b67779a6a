import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import { withD1Session } from "../app/platform/db.server";
import { failReport, finishReport, readReportRange } from "../app/modules/payments/payments.server";

// A month's revenue report of any size (issue 45 §1, docs/decisions/0334), read from R2 by durable
// steps: one step per 2 MiB range (0336), each returning only its offsets and counts, then one step that
// matches, prices and stages the sums. A failed step is retried where it stopped: every range step
// is guarded on the report's next_offset, so a retry never adds a range twice.
// https://developers.cloudflare.com/workflows/build/workers-api/ (WorkflowEntrypoint, step.do and its retries)
// https://developers.cloudflare.com/workflows/reference/limits/ (1 MiB per step result, 10,000 steps by default)

export type RevenueImportParams = { reportId: string };

const RANGE_RETRIES = { retries: { limit: 5, delay: "2 seconds", backoff: "exponential" }, timeout: "5 minutes" } as const;

export class RevenueImportWorkflow extends WorkflowEntrypoint<Env, RevenueImportParams> {
  async run(event: WorkflowEvent<RevenueImportParams>, step: WorkflowStep) {
    const { reportId } = event.payload;
    const onPrimary = <T>(work: () => Promise<T>) => withD1Session("first-primary", work);
    try {
      // 1 GB in 2 MiB ranges is 512 steps: far inside the 10,000 a Workflow may take.
      for (let i = 0; ; i++) {
        const range = await step.do(`range ${i}`, RANGE_RETRIES, () => onPrimary(() => readReportRange(reportId)));
        if (range.done) break;
      }
      return await step.do("stage", RANGE_RETRIES, () => onPrimary(() => finishReport(reportId)));
    } catch (error) {
      // Retries spent: the admin is told, and the sums go.
      await step.do("fail", () => onPrimary(() => failReport(reportId, "The report could not be read to its end. Upload it again.")));
      throw error;
    }
  }
}
