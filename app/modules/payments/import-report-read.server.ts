import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import {
  revenueReportKeys,
  revenueReportLeaves,
  revenueReportPeople,
  revenueReportProblems,
  revenueReports,
  revenueReportSums,
  revenueReportTallies,
} from "~/db/schema";
import { DomainError } from "~/lib/errors";
import { channelOwnersByChannelIds } from "~/modules/channels/channels.server";
import { peopleByCreatorIds } from "~/modules/accounts/accounts.server";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { importHead } from "./import-parse";
import { rememberedMapping } from "./import-upload.server";
import { REPORT_MESSAGES as R, REPORT_PROBLEMS_KEPT } from "./report-messages";
import { type ColumnMapping, CSV_MESSAGES, detectFormat, type RevenueFormat, type RowProblem, rowContext } from "./revenue-csv";
import { keyHash, lastRecordEnd, readRange, type StreamRow, withoutLastBreak } from "./revenue-stream";

// One range step of the RevenueImportWorkflow (issue 45 §1, docs/decisions/0334, 0336): reads the
// bytes [next_offset, next_offset + range) of the report from R2 and parses the whole records in it.
// Its D1 work is several SHORT writes, so the app's own queries run between them (D1 runs one query
// at a time per database; one long transaction held every request of the app, 0336):
//  1. the range's duplicate keys, a few thousand per statement, each a no-op when repeated
//     (ON CONFLICT DO NOTHING on the key's primary key, the same line for the same bytes); the lookup
//     of earlier keys reads only lines before this range, so keys a failed attempt left are not
//     taken for duplicates of themselves;
//  2. LAST, one batch (a transaction): the report's update guarded on next_offset still being where
//     the step started (`precondition(changes() = 1)`), the sums' upsert and the problems.
// A retried step therefore either finds its last batch never ran (rewrites its keys: nothing, and
// adds the sums) or finds it ran (and only answers): amounts are never added twice. The step returns
// only offsets and counts.

/** Bytes one step reads: 2 MiB, ~13,000 YouTube rows, so its last batch is short (0336); 1 GB is 512 steps. */
export const RANGE_BYTES = 2 * 1024 * 1024;
/** Rows per INSERT of sums or keys: one JSON parameter each (decision 0126), far under D1's statement limits. */
const ROWS_PER_INSERT = 2000;
/** Keys looked up per query of earlier ranges' keys: each query short (0336). */
const KEYS_PER_LOOKUP = 4000;

/**
 * A pause of 1 ms between a step's writes (0336). Local workerd runs the app, the Workflow engine and
 * D1's SQLite on one thread, whose event loop reads its sockets only when no work is queued: a step's
 * back-to-back D1 calls kept it busy, and no request of the app was even accepted while the report
 * was read. A timer lets the loop go idle and take them. On Cloudflare it costs 1 ms of wall time.
 */
export const letOthersIn = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

export type RangeStepResult = { done: boolean; offset: number; rowsRead: number; problems: number };

type ReportRow = typeof revenueReports.$inferSelect;
type Split = { d: string; n: string };

async function reportRow(reportId: string): Promise<ReportRow | undefined> {
  return db().select().from(revenueReports).where(eq(revenueReports.id, reportId)).get();
}

/**
 * Marks the report failed with a message the admin reads (a file the app cannot read is not retried).
 * Its keys, sums and problems are dropped afterwards by the Workflow's slice steps (0344), not here:
 * a report that fails half-way holds millions of keys, and one DELETE of them held D1.
 */
export async function failReport(reportId: string, message: string): Promise<void> {
  await db()
    .update(revenueReports)
    .set({ status: "failed", error: message.slice(0, 500), finishedAt: new Date().toISOString() })
    .where(and(eq(revenueReports.id, reportId), eq(revenueReports.status, "reading")));
}

/** The work tables a report's slice steps empty (0344). */
export type WorkTable = "keys" | "sums" | "problems" | "leaves" | "people" | "tallies";
const workTables = {
  keys: revenueReportKeys,
  sums: revenueReportSums,
  problems: revenueReportProblems,
  // The stage's own work rows (0350).
  leaves: revenueReportLeaves,
  people: revenueReportPeople,
  tallies: revenueReportTallies,
} as const;

/**
 * Deletes at most `limit` rows of the report's `table` in ONE statement (by rowid, the first `limit`
 * of the report in its primary key's order), and says how many went. A repeat deletes the next ones,
 * or nothing: idempotent, so a retried slice step neither deletes twice nor touches another report.
 */
export async function dropWorkSlice(reportId: string, table: WorkTable, limit: number): Promise<number> {
  const t = workTables[table];
  const result = await db()
    .delete(t)
    .where(inArray(sql`rowid`, db().select({ rowid: sql`rowid` }).from(t).where(eq(t.reportId, reportId)).limit(limit)))
    .run();
  return result.meta.changes ?? 0;
}

async function sha256Hex(data: Uint8Array<ArrayBuffer> | string): Promise<string> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The format and mapping of the report's header, as the small-file import decides them; a message when it cannot be read. */
async function readingOfHeader(text: string): Promise<{ format: RevenueFormat; mapping: ColumnMapping | null; columns: string[]; split: Split } | string> {
  let head: ReturnType<typeof importHead>;
  try {
    head = importHead(text);
  } catch (error) {
    if (error instanceof DomainError) return error.message;
    throw error;
  }
  const format = detectFormat(head.columns);
  const n = text.includes("\r\n") ? "\r\n" : text.includes("\n") ? "\n" : "\r";
  const split = { d: head.delimiter, n };
  if (format) return { format, mapping: null, columns: head.columns, split };
  const saved = await rememberedMapping(head.columns);
  if (!saved) return R.needsMapping;
  if (saved.channel < 0 && saved.creator < 0) return R.needsPerson;
  return { format: "mapped", mapping: saved, columns: head.columns, split };
}

/** One range step. Idempotent: see the file's comment. */
export async function readReportRange(reportId: string, rangeBytes = RANGE_BYTES): Promise<RangeStepResult> {
  const report = await reportRow(reportId);
  if (!report) throw new Error(`revenue report ${reportId} not found`);
  const answer = (r: ReportRow): RangeStepResult => ({
    done: r.status !== "reading" || r.nextOffset >= r.sizeBytes,
    offset: r.nextOffset,
    rowsRead: r.rowsRead,
    problems: r.problemCount,
  });
  if (report.status !== "reading" || report.nextOffset >= report.sizeBytes) return answer(report);
  const offset = report.nextOffset;
  // A ranged read: https://developers.cloudflare.com/r2/api/workers/workers-api-reference/#ranged-reads
  const object = await env.MEDIA.get(report.objectKey, { range: { offset, length: rangeBytes } });
  if (!object) {
    await failReport(reportId, "The uploaded report is no longer in storage. Upload it again.");
    return answer({ ...report, status: "failed" });
  }
  const bytes = new Uint8Array(await object.arrayBuffer());
  const atEof = offset + bytes.length >= report.sizeBytes;

  // The first range: the header decides the format (or a remembered mapping), as today.
  let format = report.format as RevenueFormat | null;
  let mapping = report.mapping ? (JSON.parse(report.mapping) as ColumnMapping) : null;
  let columns = report.columns ? (JSON.parse(report.columns) as string[]) : null;
  let split = report.delimiter ? (JSON.parse(report.delimiter) as Split) : null;
  if (offset === 0) {
    const headText = new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.length, 256 * 1024)));
    if (headText.includes("\u0000")) {
      await failReport(reportId, R.notCsv);
      return answer({ ...report, status: "failed" });
    }
    const found = await readingOfHeader(headText.replace(/^\uFEFF/, ""));
    if (typeof found === "string") {
      await failReport(reportId, found);
      return answer({ ...report, status: "failed" });
    }
    ({ format, mapping, columns, split } = found);
  }
  if (!format || !columns || !split) throw new Error(`revenue report ${reportId}: no header read`);
  const end = atEof ? bytes.length : lastRecordEnd(bytes, split.d.charCodeAt(0), split.n === "\r" ? 0x0d : 0x0a);
  if (end <= 0) {
    await failReport(reportId, R.recordTooLong);
    return answer({ ...report, status: "failed" });
  }
  let text = new TextDecoder().decode(bytes.subarray(0, end));
  // The header record is line 1: papaparse reads it with the rest, and readRange leaves it out.
  if (offset === 0) text = text.replace(/^\uFEFF/, "");
  const ctx = rowContext(columns, split.d, { month: report.month, format, mapping });
  const reading = readRange(atEof ? text : withoutLastBreak(text), {
    ctx,
    delimiter: split.d,
    newline: split.n,
    month: report.month,
    linesBefore: report.linesBefore,
    periodLabel: ctx.reader.periodLabel,
    skipHeader: offset === 0,
  });

  // Duplicates: of an earlier range (the keys in D1), then of an earlier row of this range.
  const problems: RowProblem[] = [...reading.problems];
  const hashed = reading.rows.map((row) => ({ row, h: keyHash(row.dupKey) }));
  const earlier = await earlierKeys(
    reportId,
    report.linesBefore,
    hashed.map((x) => x.h),
  );
  const seen = new Map<string, number>();
  const kept: { row: StreamRow; h: [number, number] }[] = [];
  for (const x of hashed) {
    const k = `${x.h[0]}:${x.h[1]}`;
    const first = earlier.get(k) ?? seen.get(k);
    if (first !== undefined) {
      problems.push({ line: x.row.line, reason: CSV_MESSAGES.duplicate(first) });
      continue;
    }
    seen.set(k, x.row.line);
    kept.push(x);
  }

  // Sums per period, channel, creator and video.
  const sums = new Map<string, { row: StreamRow; nano: bigint; rows: number }>();
  for (const { row } of kept) {
    const key = `${row.period}\u0000${row.channelId}\u0000${row.creatorId}\u0000${row.videoId}`;
    const s = sums.get(key);
    if (s) {
      s.nano += row.nano;
      s.rows += 1;
    } else sums.set(key, { row, nano: row.nano, rows: 1 });
  }
  const matched = await matchedRows(kept.map((k) => k.row));

  const room = Math.max(0, REPORT_PROBLEMS_KEPT - report.problemCount - report.skippedCount);
  const toKeep = [...problems.map((p) => ({ ...p, skipped: 0 })), ...reading.skipped.map((p) => ({ ...p, skipped: 1 }))].slice(0, room);
  const chain = await sha256Hex(`${report.chain}${await sha256Hex(bytes.subarray(0, end))}`);
  const nextOffset = offset + end;
  const statements: BatchItem<"sqlite">[] = [
    db()
      .update(revenueReports)
      .set({
        nextOffset,
        linesBefore: report.linesBefore + reading.records,
        steps: sql`${revenueReports.steps} + 1`,
        rowsRead: sql`${revenueReports.rowsRead} + ${reading.dataRows}`,
        rowsMatched: sql`${revenueReports.rowsMatched} + ${matched}`,
        problemCount: sql`${revenueReports.problemCount} + ${problems.length}`,
        skippedCount: sql`${revenueReports.skippedCount} + ${reading.skipped.length}`,
        slashDmy: reading.slash.dmy ? 1 : report.slashDmy,
        slashMdy: reading.slash.mdy ? 1 : report.slashMdy,
        slashScore: sql`${revenueReports.slashScore} + ${reading.slash.score}`,
        chain,
        ...(atEof ? { fingerprint: chain } : {}),
        ...(offset === 0
          ? { format, mapping: mapping ? JSON.stringify(mapping) : null, columns: JSON.stringify(columns), delimiter: JSON.stringify(split) }
          : {}),
      })
      .where(and(eq(revenueReports.id, reportId), eq(revenueReports.status, "reading"), eq(revenueReports.nextOffset, offset))),
    precondition(previousStatementChanged(1)),
  ];
  const sumRows = [...sums.values()].map((s) => [s.row.period, s.row.channelId, s.row.creatorId, s.row.videoId, s.nano.toString(), s.rows, s.row.line]);
  for (let i = 0; i < sumRows.length; i += ROWS_PER_INSERT) statements.push(sumsUpsert(reportId, sumRows.slice(i, i + ROWS_PER_INSERT)));
  if (toKeep.length > 0) statements.push(problemsInsert(reportId, toKeep));
  // The keys first, each statement alone and short; a repeat of one is a no-op (see the file's comment).
  const keyRows = kept.map((k) => [k.h[0], k.h[1], k.row.line]);
  for (let i = 0; i < keyRows.length; i += ROWS_PER_INSERT) {
    await letOthersIn();
    await keysInsert(reportId, keyRows.slice(i, i + ROWS_PER_INSERT));
  }
  await letOthersIn();
  try {
    await db().batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (error) {
    // The guard did not hold: this range was read by an earlier attempt whose answer was lost.
    const now = await reportRow(reportId);
    if (isPreconditionFailure(error) && now && now.nextOffset !== offset) return answer(now);
    throw error;
  }
  const after = await reportRow(reportId);
  return answer(after ?? report);
}

/**
 * Lines of the keys an earlier range already holds: lines up to `linesBefore` only, so keys this
 * range's own failed attempt wrote (its lines are after) are not duplicates of themselves (0336).
 */
async function earlierKeys(reportId: string, linesBefore: number, hashes: [number, number][]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const unique = [...new Map(hashes.map((h) => [`${h[0]}:${h[1]}`, h])).values()];
  for (let i = 0; i < unique.length; i += KEYS_PER_LOOKUP) {
    await letOthersIn();
    const rows = await earlierKeysQuery(reportId, JSON.stringify(unique.slice(i, i + KEYS_PER_LOOKUP))).all();
    for (const r of rows) if (r.line <= linesBefore) found.set(`${r.h1}:${r.h2}`, r.line);
  }
  return found;
}

/**
 * The keys of `json` (`[[h1, h2], …]`) the report already holds. A CROSS JOIN, so that SQLite walks
 * the JSON array and looks each key up by the primary key (report_id, h1, h2): with an inner join its
 * planner put the keys table outside (every key of the report, scanned once per JSON element), so
 * the second range of a 9 MB file took minutes and a 5-million-row report would never have ended
 * (docs/decisions/0335). SQLite keeps the left table of a CROSS JOIN outside:
 * https://www.sqlite.org/optoverview.html#manual_control_of_query_plans_using_cross_join
 */
export function earlierKeysQuery(reportId: string, json: string) {
  return db()
    .select({ h1: revenueReportKeys.h1, h2: revenueReportKeys.h2, line: revenueReportKeys.line })
    .from(sql`json_each(${json}) as j`)
    .crossJoin(revenueReportKeys)
    .where(
      and(
        eq(revenueReportKeys.reportId, reportId),
        eq(revenueReportKeys.h1, sql`json_extract(j.value, '$[0]')`),
        eq(revenueReportKeys.h2, sql`json_extract(j.value, '$[1]')`),
      ),
    );
}

/** Live progress: rows whose channel id (or, without one, creator id) names someone. Final figures come from the match. */
async function matchedRows(rows: readonly StreamRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const channelIds = [...new Set(rows.flatMap((r) => (r.channelId ? [r.channelId] : [])))];
  const creatorIds = [...new Set(rows.flatMap((r) => (!r.channelId && r.creatorId ? [r.creatorId] : [])))];
  const [channels, creators] = await Promise.all([
    channelIds.length ? channelOwnersByChannelIds(channelIds) : new Map(),
    creatorIds.length ? peopleByCreatorIds(creatorIds) : new Map(),
  ]);
  return rows.filter((r) => (r.channelId ? channels.has(r.channelId) : creators.has(r.creatorId))).length;
}

const col = (i: number): SQL => sql.raw(`json_extract(value, '$[${i}]')`);

/** Adds a range's sums: INSERT … SELECT FROM json_each … ON CONFLICT adds the exact integers. */
function sumsUpsert(reportId: string, rows: unknown[][]) {
  const json = JSON.stringify(rows);
  return db()
    .insert(revenueReportSums)
    .select(
      sql`select ${reportId}, ${col(0)}, ${col(1)}, ${col(2)}, ${col(3)}, cast(${col(4)} as integer), ${col(5)}, ${col(6)} from json_each(${json}) where true`,
    )
    .onConflictDoUpdate({
      target: [revenueReportSums.reportId, revenueReportSums.period, revenueReportSums.channelId, revenueReportSums.creatorId, revenueReportSums.videoId],
      set: {
        amountNano: sql`${revenueReportSums.amountNano} + excluded.amount_nano`,
        rows: sql`${revenueReportSums.rows} + excluded.rows`,
        firstLine: sql`min(${revenueReportSums.firstLine}, excluded.first_line)`,
      },
    });
}

function keysInsert(reportId: string, rows: unknown[][]) {
  const json = JSON.stringify(rows);
  return db()
    .insert(revenueReportKeys)
    .select(sql`select ${reportId}, ${col(0)}, ${col(1)}, ${col(2)} from json_each(${json}) where true`)
    .onConflictDoNothing();
}

export function problemsInsert(reportId: string, problems: { line: number; reason: string; skipped: number }[]) {
  const json = JSON.stringify(problems.map((p) => [p.line, p.reason, p.skipped]));
  return db()
    .insert(revenueReportProblems)
    .select(sql`select ${reportId}, ${col(0)}, ${col(1)}, ${col(2)} from json_each(${json}) where true`)
    .onConflictDoNothing();
}
