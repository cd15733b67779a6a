import { and, eq, inArray } from "drizzle-orm";
import { ledgerEntries, revenueImports, revenueReports } from "~/db/schema";
import { db } from "~/platform/db.server";
import { dropWorkSlice, letOthersIn, type WorkTable } from "./import-report-read.server";
import { setAsideUnfinished, stageInSteps } from "./import-report-slices.server";
import { STAGE_SIZES, type StageSizes } from "./import-slices-common.server";

// The RevenueImportWorkflow's last steps (issue 45 §1, docs/decisions/0334, 0344, 0350): once every
// range is read, the duplicate keys go, the stage runs in bounded steps (import-report-slices.server.ts:
// pages of sums, slices of people, the month rounded once, today's totals exactly), then the work rows
// go. A file whose fingerprint is already staged or live is recognised and not staged again.
//
// Every D1 call of these last steps touches a bounded number of rows (docs/decisions/0344): the work
// rows (5 million duplicate keys for a 5-million-row report) are deleted in slices, each slice step
// idempotent, with the 1 ms pause of 0336 between calls — one DELETE of 5 million keys held D1, and
// the app, for minutes.

/**
 * Rows one D1 call of the last steps deletes or reads at most (0344): 2,000, as D1 counts a slice's
 * delete four times over in rows read (the rowids found by the key's index, each row and its index
 * entry removed): 8,000, under the 10,000 rows a call may touch.
 */
export const FINISH_SLICE = 2000;
/** Slices (D1 calls) per slice step: a step deletes at most 50 × FINISH_SLICE = 100,000 rows, its result two numbers. */
const SLICES_PER_STEP = 50;
/**
 * Entries of discarded imports deleted per call: fewer than FINISH_SLICE, as each entry takes its
 * per-video lines with it (ON DELETE CASCADE; five a creator in the scale state).
 */
const ENTRY_SLICE_DIVISOR = 5;

export type FinishResult = { status: (typeof revenueReports.$inferSelect)["status"]; importId: string | null };

/** Runs one durable step: the Workflow's `step.do`, or (in tests) the work itself. */
export type StepRunner = <T extends Rpc.Serializable<T>>(name: string, work: () => Promise<T>) => Promise<T>;

/**
 * The steps after the last range, in order (0344): the duplicate keys go (only reading needed them),
 * the stage's steps (0350), then the sums and the stage's work rows, the problems of a report that shows none (failed, duplicate), and the
 * entries of the month's discarded imports (an earlier preview this stage replaced, or an earlier
 * attempt of this step) — each in slice steps of at most SLICES_PER_STEP deletes of `slice` rows.
 */
export async function finishSteps(
  reportId: string,
  run: StepRunner,
  slice = FINISH_SLICE,
  prefix = "",
  sizes: StageSizes = STAGE_SIZES,
): Promise<FinishResult> {
  await dropSteps(run, `${prefix}drop keys`, () => dropSlices(reportId, "keys", slice));
  // The stage in bounded steps over pages of sums and slices of people (0345, 0350).
  const result = await stageInSteps(reportId, run, sizes, prefix);
  // A stage that did not finish (retries spent): the import it had begun is set aside with the report.
  if (result.status === "failed") await run(`${prefix}set aside`, () => setAsideUnfinished(reportId).then(() => true));
  for (const table of ["sums", "leaves", "people", "tallies"] as const)
    await dropSteps(run, `${prefix}drop ${table}`, () => dropSlices(reportId, table, slice));
  if (result.status === "failed" || result.status === "duplicate")
    await dropSteps(run, `${prefix}drop problems`, () => dropSlices(reportId, "problems", slice));
  await dropSteps(run, `${prefix}drop discarded entries`, () => dropDiscardedEntries(reportId, Math.max(1, Math.floor(slice / ENTRY_SLICE_DIVISOR))));
  return result;
}

async function dropSteps(run: StepRunner, name: string, slices: () => Promise<{ deleted: number; more: boolean }>): Promise<void> {
  for (let i = 0; ; i++) {
    const r = await run(`${name} ${i}`, slices);
    if (!r.more) return;
  }
}

/** One slice step: up to SLICES_PER_STEP deletes of `slice` of the report's rows, the pause between. */
async function dropSlices(reportId: string, table: WorkTable, slice: number): Promise<{ deleted: number; more: boolean }> {
  let deleted = 0;
  for (let i = 0; i < SLICES_PER_STEP; i++) {
    await letOthersIn();
    const n = await dropWorkSlice(reportId, table, slice);
    deleted += n;
    if (n < slice) return { deleted, more: false };
  }
  return { deleted, more: true };
}

/**
 * One slice step over the entries of the report month's discarded imports (invisible to every
 * screen: countedEntries, decision 0132), `slice` entries a call. A staged import the stage set
 * aside is marked discarded in one short statement and its entries go here, not in one DELETE.
 */
async function dropDiscardedEntries(reportId: string, slice: number): Promise<{ deleted: number; more: boolean }> {
  const report = await db().select({ month: revenueReports.month }).from(revenueReports).where(eq(revenueReports.id, reportId)).get();
  if (!report) return { deleted: 0, more: false };
  const discarded = db()
    .select({ id: revenueImports.id })
    .from(revenueImports)
    .where(and(eq(revenueImports.month, report.month), eq(revenueImports.status, "discarded")));
  let deleted = 0;
  for (let i = 0; i < SLICES_PER_STEP; i++) {
    await letOthersIn();
    const result = await db()
      .delete(ledgerEntries)
      .where(
        inArray(ledgerEntries.id, db().select({ id: ledgerEntries.id }).from(ledgerEntries).where(inArray(ledgerEntries.importId, discarded)).limit(slice)),
      )
      .run();
    const n = result.meta.changes ?? 0;
    deleted += n;
    if (n < slice) return { deleted, more: false };
  }
  return { deleted, more: true };
}
