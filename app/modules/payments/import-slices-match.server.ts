import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import {
  LEAF_MATCHED,
  LEAF_OTHER_MONTH,
  LEAF_UNMATCHED,
  revenueImports,
  revenueMonths,
  revenueReportLeaves,
  revenueReportProblems,
  revenueReports,
  revenueReportSums,
} from "~/db/schema";
import { peopleByCreatorIds } from "~/modules/accounts/accounts.server";
import { channelOwnersByChannelIds } from "~/modules/channels/channels.server";
import { db } from "~/platform/db.server";
import { centsHalfUp, formatDec } from "./decimal";
import { letOthersIn, problemsInsert } from "./import-report-read.server";
import { finishQuery, PAGES_PER_STEP, ROWS_PER_INSERT, type ReportRow, reportRow, type StagedResult, slashOrder } from "./import-slices-common.server";
import { PAYMENT_MESSAGES as M } from "./messages";
import { readPeriod, slashMonth } from "./period";
import { REPORT_PROBLEMS_KEPT } from "./report-messages";
import { CSV_MESSAGES, type RevenueFormat } from "./revenue-csv";
import { fromNano } from "./revenue-stream";
import { creatorShareBpAt } from "./share.server";
import type { ImportPreview } from "./types";

// A revenue report's stage, its first steps (issue 45 §1, docs/decisions/0350): `stage begin`, the
// `stage match i` pages of sums into leaves, `stage problems`, and the preview's base the summary
// also starts from.

/** Problems a preview lists, as the small-file import does. */
const PROBLEMS_SHOWN = 500;

// ---------------------------------------------------------------------------------------------
// The steps
// ---------------------------------------------------------------------------------------------

/** Step `stage begin`: a report not reading any more is left as it is; the same file staged or live already is recognised. */
export async function beginStage(reportId: string): Promise<StagedResult | null> {
  const report = await reportRow(reportId);
  if (report.status !== "reading") return { status: report.status, importId: report.status === "staged" ? report.importId : null };
  if (report.nextOffset < report.sizeBytes || !report.fingerprint) throw new Error(`revenue report ${reportId} is not read to its end`);
  const same = await db()
    .select({ id: revenueReports.id })
    .from(revenueReports)
    .innerJoin(revenueImports, eq(revenueImports.id, revenueReports.importId))
    .where(and(eq(revenueReports.fingerprint, report.fingerprint), ne(revenueReports.id, reportId), inArray(revenueImports.status, ["staged", "live"])))
    .get();
  if (same) {
    await finishQuery(reportId, { status: "duplicate", duplicateOf: same.id });
    return { status: "duplicate", importId: null };
  }
  return null;
}

export type SumKey = { period: string; channelId: string; creatorId: string; videoId: string };
export type MatchStep = { after: SumKey | null; done: boolean; matched: number; otherRows: number; unmatchedRows: number; monthNano: string };

/**
 * Step `stage match i`: up to PAGES_PER_STEP pages of the report's sums after `after` (their primary
 * key's order, one index range a page): each sum's month checked, its channel and creator matched by
 * index lookups of the page's ids, and one leaf row a sum written (INSERT OR IGNORE).
 */
export async function matchStep(reportId: string, after: SumKey | null, page: number): Promise<MatchStep> {
  const report = await reportRow(reportId);
  const order = slashOrder(report);
  const label = report.format === "youtube" ? "date" : "month";
  const s = revenueReportSums;
  const out: MatchStep = { after, done: false, matched: 0, otherRows: 0, unmatchedRows: 0, monthNano: "0" };
  let monthNano = 0n;
  for (let p = 0; p < PAGES_PER_STEP; p++) {
    await letOthersIn();
    const last = out.after;
    const sums = await db()
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
      .limit(page)
      .all();
    await letOthersIn();
    const [channels, creators] = await Promise.all([
      channelOwnersByChannelIds(sums.flatMap((x) => (x.channelId ? [x.channelId] : []))),
      peopleByCreatorIds([...new Set(sums.flatMap((x) => (x.creatorId ? [x.creatorId] : [])))]),
    ]);
    const rows: (typeof revenueReportLeaves.$inferInsert)[] = [];
    for (const x of sums) {
      const leaf = {
        reportId,
        period: x.period,
        channelId: x.channelId,
        creatorId: x.creatorId,
        videoId: x.videoId,
        amountNano: x.amountNano,
        rows: x.rows,
        firstLine: x.firstLine,
      };
      // Another month (or a day/month date whose order is ambiguous): a problem of its own line (finishReport's check).
      if (x.period !== "m") {
        const text = x.period.slice(2);
        const r = readPeriod(text);
        const month = r && "a" in r && order ? slashMonth(r, order) : null;
        if (month !== report.month) {
          const reason = !order ? CSV_MESSAGES.ambiguousDate(text) : month ? CSV_MESSAGES.otherMonth(label, text, report.month) : CSV_MESSAGES.badPeriod(label);
          rows.push({ ...leaf, kind: LEAF_OTHER_MONTH, userId: "", problem: reason });
          out.otherRows += x.rows;
          continue;
        }
      }
      monthNano += BigInt(x.amountNano);
      // matchImport's rule, per sum (a group's sums share channel and creator, so they all match alike).
      const channel = x.channelId ? channels.get(x.channelId) : undefined;
      const creator = x.creatorId ? creators.get(x.creatorId) : undefined;
      const problem =
        x.channelId && !channel
          ? M.unknownChannel(x.channelId)
          : x.creatorId && !creator
            ? M.unknownCreator(x.creatorId)
            : channel && creator && channel.userId !== creator.id
              ? M.mismatch(x.channelId, x.creatorId)
              : null;
      if (problem) {
        rows.push({ ...leaf, kind: LEAF_UNMATCHED, userId: "", problem });
        out.unmatchedRows += x.rows;
      } else {
        rows.push({ ...leaf, kind: LEAF_MATCHED, userId: channel?.userId ?? creator?.id ?? "", problem: null });
        out.matched += x.rows;
      }
    }
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await letOthersIn();
      await db().batch([leavesInsert(rows.slice(i, i + ROWS_PER_INSERT))]);
    }
    const end = sums.at(-1);
    if (end) out.after = { period: end.period, channelId: end.channelId, creatorId: end.creatorId, videoId: end.videoId };
    if (sums.length < page) {
      out.done = true;
      break;
    }
  }
  out.monthNano = monthNano.toString();
  return out;
}

const LEAF_FIELDS = ["period", "channelId", "creatorId", "videoId", "kind", "userId", "problem", "amountNano", "rows", "firstLine"] as const;

/** Leaf rows in one INSERT OR IGNORE (one JSON parameter). */
function leavesInsert(rows: (typeof revenueReportLeaves.$inferInsert)[]) {
  const reportId = rows[0]?.reportId ?? "";
  const json = JSON.stringify(rows.map((r) => LEAF_FIELDS.map((f) => r[f] ?? null)));
  const col = (i: number) => sql.raw(`json_extract(value, '$[${i}]')`);
  return db()
    .insert(revenueReportLeaves)
    .select(
      sql`select ${reportId}, ${sql.join(
        LEAF_FIELDS.map((_, i) => col(i)),
        sql`, `,
      )} from json_each(${json}) where true`,
    )
    .onConflictDoNothing();
}

export type MatchTotals = { matched: number; otherRows: number; unmatchedRows: number; monthNano: string };

/**
 * Step `stage problems`: the other-month sums (by line) and then the unmatched groups (channel,
 * creator, video; at their first line) written as the report's problems, as finishReport listed them,
 * up to the room left; a report with any problem ends here as `problems` with its preview.
 */
export async function problemsStep(reportId: string, totals: MatchTotals): Promise<StagedResult | null> {
  const report = await reportRow(reportId);
  const problemCount = report.problemCount + totals.otherRows + totals.unmatchedRows;
  if (problemCount === 0) return null;
  const l = revenueReportLeaves;
  let room = Math.max(0, REPORT_PROBLEMS_KEPT - report.problemCount - report.skippedCount);
  if (room > 0 && totals.otherRows > 0) {
    await letOthersIn();
    const other = await db()
      .select({ line: l.firstLine, reason: l.problem })
      .from(l)
      .where(and(eq(l.reportId, reportId), eq(l.kind, LEAF_OTHER_MONTH), eq(l.userId, "")))
      .orderBy(asc(l.firstLine))
      .limit(room)
      .all();
    await writeProblems(
      reportId,
      other.map((p) => ({ line: p.line, reason: p.reason ?? "", skipped: 0 })),
    );
    room -= other.length;
  }
  if (room > 0 && totals.unmatchedRows > 0) {
    await letOthersIn();
    const unmatched = await db()
      .select({ line: sql<number>`min(${l.firstLine})`, reason: sql<string>`max(${l.problem})` })
      .from(l)
      .where(and(eq(l.reportId, reportId), eq(l.kind, LEAF_UNMATCHED), eq(l.userId, "")))
      .groupBy(l.channelId, l.creatorId, l.videoId)
      .orderBy(sql`min(${l.firstLine})`)
      .limit(room)
      .all();
    await writeProblems(
      reportId,
      unmatched.map((p) => ({ ...p, skipped: 0 })),
    );
  }
  const base = await previewBase(report, totals, problemCount);
  await db().batch([finishQuery(reportId, { status: "problems", preview: JSON.stringify({ ...base, matched: 0 }), problemCount })]);
  return { status: "problems", importId: null };
}

async function writeProblems(reportId: string, problems: { line: number; reason: string; skipped: number }[]): Promise<void> {
  for (let i = 0; i < problems.length; i += ROWS_PER_INSERT) {
    await letOthersIn();
    await db().batch([problemsInsert(reportId, problems.slice(i, i + ROWS_PER_INSERT))]);
  }
}

/** What the preview says before pricing (finishReport's `base`): the file's counts, its problems kept, its total. */
export async function previewBase(report: ReportRow, totals: MatchTotals, problemCount: number): Promise<ImportPreview> {
  await letOthersIn();
  const [monthRow, kept, shareBp] = await Promise.all([
    db().select().from(revenueMonths).where(eq(revenueMonths.month, report.month)).get(),
    db()
      .select({ line: revenueReportProblems.line, reason: revenueReportProblems.reason, skipped: revenueReportProblems.skipped })
      .from(revenueReportProblems)
      .where(eq(revenueReportProblems.reportId, report.id))
      .orderBy(asc(revenueReportProblems.line))
      .limit(PROBLEMS_SHOWN * 2)
      .all(),
    creatorShareBpAt(report.month),
  ]);
  const fileTotal = fromNano(BigInt(totals.monthNano));
  return {
    month: report.month,
    fileName: report.fileName,
    format: (report.format ?? "shortbeat") as RevenueFormat,
    rowCount: report.rowsRead,
    matched: totals.matched,
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
    fileTotal: formatDec(fileTotal),
    fileTotalCents: Number(centsHalfUp(fileTotal)),
    remainder: "0.00",
    netCents: 0,
    amountCents: 0,
    shareBp,
    notCredited: 0,
    lines: [],
    lineCount: 0,
    mapping: null,
  };
}
