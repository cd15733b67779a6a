import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import { ledgerEntries, revenueImports, revenueMonths, revenueReportProblems, revenueReports, revenueReportSums } from "~/db/schema";
import type { Actor } from "~/lib/permissions";
import { db } from "~/platform/db.server";
import { centsHalfUp, formatDec } from "./decimal";
import { matchImport } from "./import-match.server";
import { priceImport } from "./import-price";
import { dropWorkSlice, letOthersIn, problemsInsert, type WorkTable } from "./import-report-read.server";
import { stageImport } from "./import-stage.server";
import { pricedSummary } from "./preview-lines.server";
import { readPeriod, type SlashOrder, slashMonth } from "./period";
import { REPORT_PROBLEMS_KEPT } from "./report-messages";
import { CSV_MESSAGES, type RevenueFormat, type RevenueGroup, type RowProblem } from "./revenue-csv";
import { fromNano } from "./revenue-stream";
import type { ImportPreview } from "./types";

// The RevenueImportWorkflow's last step (issue 45 §1, docs/decisions/0334): once every range is
// read, the report's sums become the parsed groups the small-file import makes, and the same
// match → price → stage runs over them. A file whose fingerprint is already staged or live is
// recognised and not staged again. The preview is kept on the report for the admin's screen.
//
// Every D1 call of these last steps touches a bounded number of rows (docs/decisions/0344): the sums
// are read in pages, the entries written in short batches, and the report's work rows (5 million
// duplicate keys for a 5-million-row report) deleted in slices, each slice step idempotent, with the
// 1 ms pause of 0336 between calls — one DELETE of 5 million keys held D1, and the app, for minutes.

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

/** Problems a preview lists, as the small-file import does. */
const PROBLEMS_SHOWN = 500;

/** The order of the report's day/month dates, from what the range steps counted (period.ts slashOrderOf). */
function slashOrder(r: { slashDmy: number; slashMdy: number; slashScore: number }): SlashOrder | null {
  if (r.slashDmy && r.slashMdy) return null;
  if (r.slashDmy) return "dmy";
  if (r.slashMdy) return "mdy";
  return r.slashScore > 0 ? "dmy" : "mdy";
}

/** The admin who started the report: authorized then (admins only); the stage's audit row names them. */
function reportActor(userId: string): Actor {
  return { id: userId, email: "", isAdmin: true, approvalStatus: "approved", isBanned: false, isMusicPartner: false, hasActiveAgency: false };
}

export async function finishReport(reportId: string, slice = FINISH_SLICE): Promise<FinishResult> {
  const report = await db().select().from(revenueReports).where(eq(revenueReports.id, reportId)).get();
  if (!report) throw new Error(`revenue report ${reportId} not found`);
  if (report.status !== "reading") return { status: report.status, importId: report.importId };
  if (report.nextOffset < report.sizeBytes || !report.fingerprint) throw new Error(`revenue report ${reportId} is not read to its end`);
  const finish = (set: Partial<typeof revenueReports.$inferInsert>) =>
    db()
      .update(revenueReports)
      .set({ ...set, finishedAt: new Date().toISOString() })
      .where(and(eq(revenueReports.id, reportId), eq(revenueReports.status, "reading")));

  // The same file again: an earlier report with its fingerprint whose import is staged or live.
  const same = await db()
    .select({ id: revenueReports.id })
    .from(revenueReports)
    .innerJoin(revenueImports, eq(revenueImports.id, revenueReports.importId))
    .where(and(eq(revenueReports.fingerprint, report.fingerprint), ne(revenueReports.id, reportId), inArray(revenueImports.status, ["staged", "live"])))
    .get();
  if (same) {
    await finish({ status: "duplicate", duplicateOf: same.id });
    return { status: "duplicate", importId: null };
  }

  // The sums as the whole-file parse's groups: day/month dates read in the file's order.
  const sums = await reportSums(reportId, slice);
  const order = slashOrder(report);
  const label = report.format === "youtube" ? "date" : "month";
  const extra: RowProblem[] = [];
  let extraRows = 0;
  const groups = new Map<string, { channelId: string; creatorId: string; videoId: string; nano: bigint; rows: number; firstLine: number }>();
  for (const s of sums) {
    if (s.period !== "m") {
      const text = s.period.slice(2);
      const r = readPeriod(text);
      const month = r && "a" in r && order ? slashMonth(r, order) : null;
      if (month !== report.month) {
        const reason = !order ? CSV_MESSAGES.ambiguousDate(text) : month ? CSV_MESSAGES.otherMonth(label, text, report.month) : CSV_MESSAGES.badPeriod(label);
        extra.push({ line: s.firstLine, reason });
        extraRows += s.rows;
        continue;
      }
    }
    const key = `${s.channelId}\u0000${s.creatorId}\u0000${s.videoId}`;
    const g = groups.get(key);
    if (g) {
      g.nano += BigInt(s.amountNano);
      g.rows += s.rows;
      g.firstLine = Math.min(g.firstLine, s.firstLine);
    } else groups.set(key, { ...s, nano: BigInt(s.amountNano) });
  }
  const list = [...groups.values()].sort((a, b) => a.firstLine - b.firstLine);
  const totalNano = list.reduce((t, g) => t + g.nano, 0n);
  const parsedGroups: RevenueGroup[] = list.map((g) => ({
    channelId: g.channelId || null,
    creatorId: g.creatorId || null,
    videoId: g.videoId || null,
    amount: fromNano(g.nano),
    lines: [g.firstLine],
    rows: g.rows,
  }));
  const format = (report.format ?? "shortbeat") as RevenueFormat;
  const parsed = { format, dataRows: report.rowsRead, groups: parsedGroups, problems: [], skipped: [], total: fromNano(totalNano) };
  const match = await matchImport(parsed, report.month);
  const unmatchedRows = list.reduce((t, g) => t + g.rows, 0) - match.matched;
  const problemCount = report.problemCount + extraRows + unmatchedRows;
  const newProblems = [...extra, ...match.problems].map((p) => ({ ...p, skipped: 0 }));
  const room = Math.max(0, REPORT_PROBLEMS_KEPT - report.problemCount - report.skippedCount);
  const toKeep = newProblems.slice(0, room);
  for (let i = 0; i < toKeep.length; i += slice) {
    await letOthersIn();
    await db().batch([problemsInsert(reportId, toKeep.slice(i, i + slice))]);
  }

  const [monthRow, kept] = await Promise.all([
    db().select().from(revenueMonths).where(eq(revenueMonths.month, report.month)).get(),
    db()
      .select({ line: revenueReportProblems.line, reason: revenueReportProblems.reason, skipped: revenueReportProblems.skipped })
      .from(revenueReportProblems)
      .where(eq(revenueReportProblems.reportId, reportId))
      .orderBy(asc(revenueReportProblems.line))
      .limit(PROBLEMS_SHOWN * 2)
      .all(),
  ]);
  const base: ImportPreview = {
    month: report.month,
    fileName: report.fileName,
    format,
    rowCount: report.rowsRead,
    matched: problemCount ? 0 : match.matched,
    problems: kept
      .filter((p) => !p.skipped)
      .slice(0, PROBLEMS_SHOWN)
      .map(({ line, reason }) => ({ line, reason })),
    problemCount,
    skipped: kept
      .filter((p) => p.skipped)
      .slice(0, PROBLEMS_SHOWN)
      .map(({ line, reason }) => ({ line, reason })),
    importId: null,
    replaces: monthRow?.liveImportId ?? "",
    entryCount: 0,
    fileTotal: formatDec(parsed.total),
    fileTotalCents: Number(centsHalfUp(parsed.total)),
    remainder: "0.00",
    netCents: 0,
    amountCents: 0,
    shareBp: match.shares.shareBp,
    notCredited: 0,
    lines: [],
    lineCount: 0,
    mapping: null,
  };
  if (problemCount > 0 || !match.pricing) {
    await finish({ status: "problems", preview: JSON.stringify(base), problemCount });
    return { status: "problems", importId: null };
  }

  // Price, then stage: the small-file import's one write.
  const importId = crypto.randomUUID();
  const priced = priceImport({ month: report.month, importId, leaves: match.leaves, shares: match.shares, ...match.pricing });
  await stageImport(
    reportActor(report.createdBy ?? ""),
    undefined,
    { importId, month: report.month, fileName: report.fileName, format, rowCount: report.rowsRead, shareBp: match.shares.shareBp, priced },
    { pause: letOthersIn },
  );
  const preview: ImportPreview = { ...base, ...(await pricedSummary(priced, match, importId)) };
  await finish({ status: "staged", importId, preview: JSON.stringify(preview), rowsMatched: match.matched });
  return { status: "staged", importId };
}

/**
 * The report's sums in pages of `slice`, by their primary key (a row value after the last one read,
 * so each page is one index range), then in the order of their first line, as one query gave them.
 */
async function reportSums(reportId: string, slice: number) {
  const s = revenueReportSums;
  const all: (typeof s.$inferSelect)[] = [];
  let last: typeof s.$inferSelect | undefined;
  for (;;) {
    await letOthersIn();
    const page = await db()
      .select()
      .from(s)
      .where(
        and(
          eq(s.reportId, reportId),
          last
            ? sql`(${s.period}, ${s.channelId}, ${s.creatorId}, ${s.videoId}) > (${last.period}, ${last.channelId}, ${last.creatorId}, ${last.videoId})`
            : undefined,
        ),
      )
      .orderBy(asc(s.period), asc(s.channelId), asc(s.creatorId), asc(s.videoId))
      .limit(slice)
      .all();
    all.push(...page);
    last = page.at(-1);
    if (page.length < slice) break;
  }
  return all.sort((a, b) => a.firstLine - b.firstLine);
}

/** Runs one durable step: the Workflow's `step.do`, or (in tests) the work itself. */
export type StepRunner = <T extends Rpc.Serializable<T>>(name: string, work: () => Promise<T>) => Promise<T>;

/**
 * The steps after the last range, in order (0344): the duplicate keys go (only reading needed them),
 * the stage, then the sums, the problems of a report that shows none (failed, duplicate), and the
 * entries of the month's discarded imports (an earlier preview this stage replaced, or an earlier
 * attempt of this step) — each in slice steps of at most SLICES_PER_STEP deletes of `slice` rows.
 */
export async function finishSteps(reportId: string, run: StepRunner, slice = FINISH_SLICE, prefix = ""): Promise<FinishResult> {
  await dropSteps(run, `${prefix}drop keys`, () => dropSlices(reportId, "keys", slice));
  const result = await run(`${prefix}stage`, () => finishReport(reportId, slice));
  await dropSteps(run, `${prefix}drop sums`, () => dropSlices(reportId, "sums", slice));
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
