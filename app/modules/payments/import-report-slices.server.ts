import { and, eq } from "drizzle-orm";
import { revenueImports, revenueReports } from "~/db/schema";
import { channelOwnersByChannelIds } from "~/modules/channels/channels.server";
import { auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { formatDec, subDec } from "./decimal";
import { letOthersIn } from "./import-report-read.server";
import { finishQuery, reportRow, STAGE_SIZES, type StagedResult, type StageSizes, type StageStepRunner, topLines } from "./import-slices-common.server";
import { beginStage, type MatchStep, type MatchTotals, matchStep, previewBase, problemsStep, type SumKey } from "./import-slices-match.server";
import {
  type ImportStep,
  importStep,
  type PageStep,
  type PricedCounters,
  type PriceStep,
  clipsStep,
  priceStep,
  referralEntriesStep,
  referralStep,
} from "./import-slices-price.server";
import { monthCents, type PeopleStep, peopleStep, type RoundStep, roundStep } from "./import-slices-round.server";
import { discardedOnlyQuery } from "./import-stage.server";
import { previewLines } from "./preview-lines.server";
import { fromNano } from "./revenue-stream";
import type { ImportPreview } from "./types";

// A revenue report's stage in bounded steps (issue 45 §1, docs/decisions/0345, 0350). Where the one
// `stage` step of 0344 read every sum of the report, matched, priced and staged the month in memory
// (248 MiB of V8 heap at 100,000 creators), each step here holds one page of rows or one slice of
// people, and passes on only cursors and counters; what crosses people goes through D1 work tables:
//
//   match i     pages of sums → one leaf row per sum (its person, or the problem it is)
//   problems    the other-month sums and the unmatched groups → the report's problems, by line
//   people i    pages of leaves by person → each person's exact sum, its cents rounded down and remainder
//   round i     the month's left-over cents to the largest remainders (ties by id): roundMonth's share
//   import      the import row (staged, its totals written by the summary)
//   price i     slices of ≤ 2,000 people (and ≤ SLICE_ROWS leaves) → their music entries, per-video
//               lines and their cents of each clip (a tally)
//   clips i     pages of clips → the clip split's entries from the clip's cents summed over slices
//   referral i  pages of earning people → each referrer's net from them (a tally); then
//   referral entries i  pages of referrers → the referral entries
//   summary     the import's totals and the report's preview, the report staged
//
// Every write is idempotent: leaf and people rows by key (INSERT OR IGNORE / REPLACE), entries by ids
// derived from (import, kind, person, source), tallies by (key, part of the step that wrote it); so a
// step run again (its answer lost, a retry) writes nothing twice. The 1 ms pause of 0336 before each
// D1 call lets the app's requests in on the thread the steps share locally.

/**
 * Step `stage summary`: the import's totals from the steps' counters (the exact sum and the single
 * rounding's remainder from the people step's nano sum), its audit event, the preview (its top lines
 * with their people), and the report staged. An import set aside meanwhile (another preview of this
 * admin's) fails the report instead.
 */
export async function summaryStep(
  reportId: string,
  step: ImportStep,
  totals: MatchTotals & { nano: string; totalCents: string },
  priced: PricedCounters,
  referral: PricedCounters,
): Promise<StagedResult> {
  const report = await reportRow(reportId);
  if (report.status !== "reading") return { status: report.status, importId: report.status === "staged" ? report.importId : null };
  const exact = fromNano(BigInt(totals.nano));
  const remainder = subDec(exact, { n: BigInt(totals.totalCents), s: 2 });
  const entryCount = priced.entries + referral.entries;
  await letOthersIn();
  const [updated] = await db().batch([
    db()
      .update(revenueImports)
      .set({ entryCount, netCents: priced.netCents, amountCents: priced.amountCents, exactTotal: formatDec(exact), roundingRemainder: formatDec(remainder) })
      .where(and(eq(revenueImports.id, step.importId), eq(revenueImports.status, "staged")))
      .returning({ id: revenueImports.id }),
  ]);
  if (updated.length === 0) {
    await db().batch([finishQuery(reportId, { status: "failed", error: "The preview was replaced while it was being staged. Upload the report again." })]);
    return { status: "failed", importId: null };
  }
  const top = topLines(priced.top, referral.top);
  const channels = await channelOwnersByChannelIds(top.flatMap((f) => (f.sourceKind === "music" && f.sourceId ? [f.sourceId] : [])));
  const base = await previewBase(report, totals, 0);
  const preview: ImportPreview = {
    ...base,
    matched: totals.matched,
    importId: step.importId,
    notCredited: priced.notCredited,
    entryCount,
    remainder: formatDec(remainder),
    netCents: priced.netCents,
    amountCents: priced.amountCents,
    lines: await previewLines(top, channels),
    lineCount: priced.lineCount + referral.lineCount,
  };
  await letOthersIn();
  await db().batch([
    auditQuery({
      eventType: "revenue_import_staged",
      severity: "low",
      userId: report.createdBy,
      details: {
        import_id: step.importId,
        month: report.month,
        format: preview.format,
        rows: report.rowsRead,
        entries: entryCount,
        net_cents: priced.netCents,
        exact_total: formatDec(exact),
      },
    }),
    finishQuery(reportId, { status: "staged", importId: step.importId, preview: JSON.stringify(preview), rowsMatched: totals.matched }),
  ]);
  return { status: "staged", importId: step.importId };
}

/** Counters of several steps added up (the run's loop keeps only these between steps). */
export function addCounters(a: PricedCounters, b: PricedCounters): PricedCounters {
  return {
    entries: a.entries + b.entries,
    netCents: a.netCents + b.netCents,
    amountCents: a.amountCents + b.amountCents,
    notCredited: a.notCredited + b.notCredited,
    lineCount: a.lineCount + b.lineCount,
    maxShareBp: Math.max(a.maxShareBp, b.maxShareBp),
    top: topLines(a.top, b.top),
  };
}
export const NO_COUNTERS: PricedCounters = { entries: 0, netCents: 0, amountCents: 0, notCredited: 0, lineCount: 0, maxShareBp: 0, top: [] };

/**
 * The stage's steps in order (the Workflow's loop; tests run it with their own runner and sizes):
 * only cursors and counters pass between steps, so a replayed Workflow rebuilds them from the
 * steps' stored results.
 */
export async function stageInSteps(reportId: string, outer: StageStepRunner, sizes: StageSizes = STAGE_SIZES, prefix = ""): Promise<StagedResult> {
  // Each step first says which it is on the report (one short update): the admin's progress and the bench's step windows.
  const run: StageStepRunner = (name, work) =>
    outer(name, async () => {
      await db()
        .update(revenueReports)
        .set({ stageStep: name })
        .where(and(eq(revenueReports.id, reportId), eq(revenueReports.status, "reading")));
      return work();
    });
  const early = await run(`${prefix}stage begin`, () => beginStage(reportId));
  if (early) return early;
  const match: MatchTotals = { matched: 0, otherRows: 0, unmatchedRows: 0, monthNano: "0" };
  let monthNano = 0n;
  let sumAfter: SumKey | null = null;
  for (let i = 0; ; i++) {
    const from: SumKey | null = sumAfter;
    const r: MatchStep = await run(`${prefix}stage match ${i}`, () => matchStep(reportId, from, sizes.page));
    match.matched += r.matched;
    match.otherRows += r.otherRows;
    match.unmatchedRows += r.unmatchedRows;
    monthNano += BigInt(r.monthNano);
    sumAfter = r.after;
    if (r.done) break;
  }
  match.monthNano = monthNano.toString();
  const refused = await run(`${prefix}stage problems`, () => problemsStep(reportId, match));
  if (refused) return refused;

  let nano = 0n;
  let floors = 0n;
  let personAfter: string | null = null;
  for (let i = 0; ; i++) {
    const from: string | null = personAfter;
    const r: PeopleStep = await run(`${prefix}stage people ${i}`, () => peopleStep(reportId, from, sizes.page));
    nano += BigInt(r.nano);
    floors += BigInt(r.floors);
    personAfter = r.after;
    if (r.done) break;
  }
  const { totalCents, left } = monthCents(nano, floors);
  let remAfter: string | null = null;
  for (let i = 0, bumped = 0; bumped < left; i++) {
    const from: string | null = remAfter;
    const r: RoundStep = await run(`${prefix}stage round ${i}`, () => roundStep(reportId, from, left - bumped, sizes.page));
    if (r.bumped === 0) throw new Error(`revenue report ${reportId}: ${left - bumped} cents left with no one to give them to`);
    bumped += r.bumped;
    remAfter = r.after;
  }

  const imported = await run(`${prefix}stage import`, () => importStep(reportId));
  let priced = NO_COUNTERS;
  let after: string | null = null;
  for (let i = 0; ; i++) {
    const from: string | null = after;
    const r: PriceStep = await run(`${prefix}stage price ${i}`, () => priceStep(reportId, imported, from, sizes));
    priced = addCounters(priced, r);
    after = r.after;
    if (r.done) break;
  }
  after = null;
  for (let i = 0; ; i++) {
    const from: string | null = after;
    const r: PageStep = await run(`${prefix}stage clips ${i}`, () => clipsStep(reportId, imported, from, sizes.page));
    priced = addCounters(priced, r);
    after = r.after;
    if (r.done) break;
  }
  let referral = NO_COUNTERS;
  if (imported.settingBp > 0) {
    after = null;
    for (let i = 0; ; i++) {
      const from: string | null = after;
      const r: { after: string | null; done: boolean } = await run(`${prefix}stage referral ${i}`, () => referralStep(reportId, imported, from, sizes.page));
      after = r.after;
      if (r.done) break;
    }
    after = null;
    const maxShareBp = priced.maxShareBp;
    for (let i = 0; ; i++) {
      const from: string | null = after;
      const r: PageStep = await run(`${prefix}stage referral entries ${i}`, () => referralEntriesStep(reportId, imported, maxShareBp, from, sizes.page));
      referral = addCounters(referral, r);
      after = r.after;
      if (r.done) break;
    }
  }
  const totals = { ...match, nano: nano.toString(), totalCents: totalCents.toString() };
  return run(`${prefix}stage summary`, () => summaryStep(reportId, imported, totals, priced, referral));
}

/** The import a stage that did not finish had begun (the report's import id while still not staged): set aside, its entries left for the slice steps. */
export async function setAsideUnfinished(reportId: string): Promise<void> {
  const report = await db()
    .select({ importId: revenueReports.importId, status: revenueReports.status })
    .from(revenueReports)
    .where(eq(revenueReports.id, reportId))
    .get();
  if (!report?.importId || report.status === "staged") return;
  await db().batch([discardedOnlyQuery(eq(revenueImports.id, report.importId))]);
}
