import { and, asc, eq, inArray, ne } from "drizzle-orm";
import { revenueImports, revenueMonths, revenueReportProblems, revenueReports, revenueReportSums } from "~/db/schema";
import type { Actor } from "~/lib/permissions";
import { db } from "~/platform/db.server";
import { centsHalfUp, formatDec } from "./decimal";
import { matchImport } from "./import-match.server";
import { priceImport } from "./import-price";
import { dropWorkRows, problemsInsert } from "./import-report-read.server";
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

export async function finishReport(reportId: string): Promise<FinishResult> {
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
    await dropWorkRows(reportId);
    return { status: "duplicate", importId: null };
  }

  // The sums as the whole-file parse's groups: day/month dates read in the file's order.
  const sums = await db().select().from(revenueReportSums).where(eq(revenueReportSums.reportId, reportId)).orderBy(asc(revenueReportSums.firstLine)).all();
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
  if (newProblems.length > 0 && room > 0) await db().batch([problemsInsert(reportId, newProblems.slice(0, room))]);

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
    await dropWorkRows(reportId, true);
    return { status: "problems", importId: null };
  }

  // Price, then stage: the small-file import's one write.
  const importId = crypto.randomUUID();
  const priced = priceImport({ month: report.month, importId, leaves: match.leaves, shares: match.shares, ...match.pricing });
  await stageImport(reportActor(report.createdBy ?? ""), undefined, {
    importId,
    month: report.month,
    fileName: report.fileName,
    format,
    rowCount: report.rowsRead,
    shareBp: match.shares.shareBp,
    priced,
  });
  const preview: ImportPreview = { ...base, ...(await pricedSummary(priced, match, importId)) };
  await finish({ status: "staged", importId, preview: JSON.stringify(preview), rowsMatched: match.matched });
  await dropWorkRows(reportId, true);
  return { status: "staged", importId };
}
