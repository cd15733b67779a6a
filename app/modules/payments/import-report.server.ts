import { and, asc, desc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { revenueImports, revenueMonths, revenueReportParts, revenueReportProblems, revenueReports } from "~/db/schema";
import { conflict, invalid, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { adminSessionLimit, alongsideSession, sessionUserOf } from "~/modules/accounts/accounts.server";
import { auditQuery } from "~/platform/audit.server";
import { builtOnce, db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { checkImportableMonth } from "./import-parse";
import { PAYMENT_MESSAGES as M } from "./messages";
import { MAX_REPORT_BYTES, REPORT_MESSAGES as R, REPORT_PART_BYTES } from "./report-messages";
import type { ImportPreview } from "./types";

// A revenue report of any size (issue 45 §1, docs/decisions/0334): the admin's browser sends the
// file in equal parts straight into an R2 multipart upload under imports/<id>.csv (as clipping
// sources do, docs/decisions/0153: the same name, size and month resume it), then `complete` starts
// the RevenueImportWorkflow, which reads it in ranges. Admins only, at every call.

export type ReportUploadState = { reportId: string; partBytes: number; partCount: number; uploaded: number[] };

const partCountOf = (size: number) => Math.ceil(size / REPORT_PART_BYTES);
const partSize = (size: number, n: number) => (n < partCountOf(size) ? REPORT_PART_BYTES : size - (partCountOf(size) - 1) * REPORT_PART_BYTES);

async function checkMonthOpen(month: string, now = new Date()): Promise<void> {
  checkImportableMonth(month, now);
  const row = await db().select({ finalizedAt: revenueMonths.finalizedAt }).from(revenueMonths).where(eq(revenueMonths.month, month)).get();
  if (row?.finalizedAt) throw conflict(M.finalized(month), { title: "Month finalized" });
}

async function uploadedParts(reportId: string): Promise<number[]> {
  const rows = await db().select({ n: revenueReportParts.partNumber }).from(revenueReportParts).where(eq(revenueReportParts.reportId, reportId));
  return rows.map((r) => r.n).sort((a, b) => a - b);
}

async function uploadingReport(reportId: string) {
  const row = await db().select().from(revenueReports).where(eq(revenueReports.id, reportId)).get();
  if (!row) throw notFound(R.notFound);
  if (row.status !== "uploading" || !row.uploadId) throw conflict(R.notUploading);
  return row;
}

export async function startReportUpload(actor: Actor, input: { month: string; name: string; size: number; chunk: File }): Promise<ReportUploadState> {
  authorize(actor, "payments", "manage");
  await checkMonthOpen(input.month);
  if (input.size > MAX_REPORT_BYTES) throw invalid(R.tooLarge, { fieldErrors: { file: R.tooLarge } });
  const name = input.name.slice(0, 200);
  if (!/\.(csv|txt|tsv)$/i.test(name)) throw invalid(R.notCsv, { fieldErrors: { file: R.notCsv } });
  if (input.chunk.size !== partSize(input.size, 1)) throw invalid(R.badPart, { fieldErrors: { file: R.badPart } });
  const head = new Uint8Array(await input.chunk.slice(0, 64 * 1024).arrayBuffer());
  if (head.includes(0)) throw invalid(R.notCsv, { fieldErrors: { file: R.notCsv } });

  // The same file again (name, size and month) resumes its upload.
  const open = await db()
    .select()
    .from(revenueReports)
    .where(
      and(
        eq(revenueReports.createdBy, actor.id),
        eq(revenueReports.status, "uploading"),
        eq(revenueReports.fileName, name),
        eq(revenueReports.sizeBytes, input.size),
        eq(revenueReports.month, input.month),
      ),
    )
    .orderBy(desc(revenueReports.createdAt))
    .get();
  if (open) return { reportId: open.id, partBytes: open.partBytes, partCount: open.partCount, uploaded: await uploadedParts(open.id) };

  const id = crypto.randomUUID();
  const objectKey = `imports/${id}.csv`;
  // https://developers.cloudflare.com/r2/api/workers/workers-multipart-usage/
  const mpu = await env.MEDIA.createMultipartUpload(objectKey, {
    httpMetadata: { contentType: "text/csv; charset=utf-8" },
    customMetadata: { month: input.month },
  });
  await db()
    .insert(revenueReports)
    .values({
      id,
      month: input.month,
      fileName: name,
      objectKey,
      sizeBytes: input.size,
      partBytes: REPORT_PART_BYTES,
      partCount: partCountOf(input.size),
      uploadId: mpu.uploadId,
      createdBy: actor.id,
    });
  const part = await mpu.uploadPart(1, input.chunk);
  await db().insert(revenueReportParts).values({ reportId: id, partNumber: 1, etag: part.etag });
  return { reportId: id, partBytes: REPORT_PART_BYTES, partCount: partCountOf(input.size), uploaded: [1] };
}

export async function uploadReportPart(actor: Actor, input: { reportId: string; partNumber: number; chunk: File }): Promise<ReportUploadState> {
  authorize(actor, "payments", "manage");
  const row = await uploadingReport(input.reportId);
  if (input.partNumber < 1 || input.partNumber > row.partCount || input.chunk.size !== partSize(row.sizeBytes, input.partNumber)) {
    throw invalid(R.badPart, { fieldErrors: { file: R.badPart } });
  }
  const part = await env.MEDIA.resumeMultipartUpload(row.objectKey, row.uploadId ?? "").uploadPart(input.partNumber, input.chunk);
  await db()
    .insert(revenueReportParts)
    .values({ reportId: row.id, partNumber: input.partNumber, etag: part.etag })
    .onConflictDoUpdate({ target: [revenueReportParts.reportId, revenueReportParts.partNumber], set: { etag: part.etag } });
  return { reportId: row.id, partBytes: row.partBytes, partCount: row.partCount, uploaded: await uploadedParts(row.id) };
}

/** Every part arrived: R2 completes the object, the report is 'reading' and its Workflow starts. */
export async function completeReportUpload(actor: Actor, request: Request, reportId: string): Promise<{ reportId: string }> {
  authorize(actor, "payments", "manage");
  const row = await uploadingReport(reportId);
  const parts = await db().select().from(revenueReportParts).where(eq(revenueReportParts.reportId, reportId)).orderBy(asc(revenueReportParts.partNumber));
  if (parts.length !== row.partCount) throw conflict(R.partsMissing, { details: { uploaded: parts.map((p) => p.partNumber).join(",") } });
  const claimed = await db()
    .update(revenueReports)
    .set({ status: "reading", uploadId: null })
    .where(and(eq(revenueReports.id, reportId), eq(revenueReports.status, "uploading"), eq(revenueReports.uploadId, row.uploadId ?? "")))
    .returning({ id: revenueReports.id });
  if (claimed.length === 0) throw conflict(R.notUploading);
  await env.MEDIA.resumeMultipartUpload(row.objectKey, row.uploadId ?? "").complete(parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag })));
  await db().batch([
    db().delete(revenueReportParts).where(eq(revenueReportParts.reportId, reportId)),
    auditQuery({
      eventType: "revenue_report_uploaded",
      severity: "low",
      userId: actor.id,
      request,
      details: { report_id: reportId, month: row.month, size: row.sizeBytes },
    }),
  ]);
  await startWorkflow(reportId);
  return { reportId };
}

export async function abortReportUpload(actor: Actor, reportId: string): Promise<void> {
  authorize(actor, "payments", "manage");
  const row = await uploadingReport(reportId);
  await env.MEDIA.resumeMultipartUpload(row.objectKey, row.uploadId ?? "")
    .abort()
    .catch(() => {});
  await db().delete(revenueReports).where(eq(revenueReports.id, reportId));
}

/** One Workflow instance per report, its id the report's: starting it twice is refused by Workflows itself. */
async function startWorkflow(reportId: string): Promise<void> {
  // https://developers.cloudflare.com/workflows/build/workers-api/#create
  await env.REVENUE_IMPORT.create({ id: reportId, params: { reportId } });
}

/**
 * Imports a report already in the MEDIA bucket (the bench script's object, or a test's): the same
 * checks as an upload, then the Workflow. Returns the report id.
 */
export async function importReportObject(actor: Actor, input: { month: string; objectKey: string; fileName?: string }): Promise<string> {
  authorize(actor, "payments", "manage");
  await checkMonthOpen(input.month);
  const head = await env.MEDIA.head(input.objectKey);
  if (!head) throw notFound(R.notFound);
  const id = crypto.randomUUID();
  await db()
    .insert(revenueReports)
    .values({
      id,
      month: input.month,
      fileName: (input.fileName ?? input.objectKey.split("/").pop() ?? "report.csv").slice(0, 200),
      objectKey: input.objectKey,
      sizeBytes: head.size,
      partBytes: REPORT_PART_BYTES,
      partCount: partCountOf(head.size),
      status: "reading",
      createdBy: actor.id,
    });
  await startWorkflow(id);
  return id;
}

export type ReportView = {
  id: string;
  month: string;
  fileName: string;
  sizeBytes: number;
  status: (typeof revenueReports.$inferSelect)["status"];
  readBytes: number;
  rowsRead: number;
  rowsMatched: number;
  problemCount: number;
  error: string | null;
  duplicateOf: { month: string; fileName: string; createdAt: string } | null;
  preview: ImportPreview | null;
};

/**
 * The latest report of the session's user made in the last day, with its import's status and the
 * report it duplicates (left joins): one statement, built once per isolate (decision 0352). Each
 * joined column named apart: in a D1 batch rows are read by column name. Only for an admin's session
 * (adminSessionLimit, decision 0356).
 */
const latestReportOfSession = builtOnce((slot) => {
  const original = alias(revenueReports, "original_report");
  return db()
    .select({
      id: revenueReports.id,
      month: revenueReports.month,
      fileName: revenueReports.fileName,
      sizeBytes: revenueReports.sizeBytes,
      status: revenueReports.status,
      nextOffset: revenueReports.nextOffset,
      rowsRead: revenueReports.rowsRead,
      rowsMatched: revenueReports.rowsMatched,
      problemCount: revenueReports.problemCount,
      error: revenueReports.error,
      preview: revenueReports.preview,
      importId: revenueReports.importId,
      duplicateOf: revenueReports.duplicateOf,
      importStatus: sql<string | null>`${revenueImports.status}`.as("import_status"),
      originalMonth: sql<string | null>`${original.month}`.as("original_month"),
      originalFileName: sql<string | null>`${original.fileName}`.as("original_file_name"),
      originalCreatedAt: sql<string | null>`${original.createdAt}`.as("original_created_at"),
    })
    .from(revenueReports)
    .leftJoin(revenueImports, eq(revenueImports.id, revenueReports.importId))
    .leftJoin(original, eq(original.id, revenueReports.duplicateOf))
    .where(and(eq(revenueReports.createdBy, sessionUserOf(slot)), sql`${revenueReports.createdAt} > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 day')`))
    .orderBy(desc(revenueReports.createdAt))
    .limit(adminSessionLimit(slot, 1));
});

/**
 * The admin's latest report (shown until its preview is committed or discarded, or a day has passed),
 * read in the session lookup's batch (one round trip for /admin/payments, decision 0352): call before
 * the guard, then give the guard's actor (whose session it is).
 */
export function startLatestReport(args: Parameters<typeof alongsideSession>[0]): (actor: Actor) => Promise<ReportView | null> {
  const rows = alongsideSession(args, latestReportOfSession);
  return async (actor) => {
    authorize(actor, "payments", "manage");
    const [row] = await rows;
    if (!row || row.status === "uploading") return null;
    // A staged preview the admin has since committed or discarded is done with.
    if (row.status === "staged" && row.importId && row.importStatus !== "staged") return null;
    const original =
      row.duplicateOf && row.originalMonth !== null && row.originalFileName !== null && row.originalCreatedAt !== null
        ? { month: row.originalMonth, fileName: row.originalFileName, createdAt: row.originalCreatedAt }
        : null;
    return viewOf(row, original);
  };
}

export async function reportById(actor: Actor, reportId: string): Promise<ReportView> {
  authorize(actor, "payments", "manage");
  const row = await db().select().from(revenueReports).where(eq(revenueReports.id, reportId)).get();
  if (!row) throw notFound(R.notFound);
  return reportView(row);
}

async function reportView(row: typeof revenueReports.$inferSelect): Promise<ReportView> {
  const original = row.duplicateOf
    ? await db()
        .select({ month: revenueReports.month, fileName: revenueReports.fileName, createdAt: revenueReports.createdAt })
        .from(revenueReports)
        .where(eq(revenueReports.id, row.duplicateOf))
        .get()
    : null;
  return viewOf(row, original ?? null);
}

/** What the admin's page shows of a report row, with the report it duplicates (if any). */
function viewOf(
  row: Pick<
    typeof revenueReports.$inferSelect,
    "id" | "month" | "fileName" | "sizeBytes" | "status" | "nextOffset" | "rowsRead" | "rowsMatched" | "problemCount" | "error" | "preview"
  >,
  duplicateOf: ReportView["duplicateOf"],
): ReportView {
  return {
    id: row.id,
    month: row.month,
    fileName: row.fileName,
    sizeBytes: row.sizeBytes,
    status: row.status,
    readBytes: row.nextOffset,
    rowsRead: row.rowsRead,
    rowsMatched: row.rowsMatched,
    problemCount: row.problemCount,
    error: row.error,
    duplicateOf,
    preview: row.preview ? (JSON.parse(row.preview) as ImportPreview) : null,
  };
}

/** The report's problems kept (REPORT_PROBLEMS_KEPT), by line: the admin's download. */
export async function reportProblems(actor: Actor, reportId: string): Promise<{ line: number; reason: string; skipped: number }[]> {
  authorize(actor, "payments", "manage");
  return db()
    .select({ line: revenueReportProblems.line, reason: revenueReportProblems.reason, skipped: revenueReportProblems.skipped })
    .from(revenueReportProblems)
    .where(eq(revenueReportProblems.reportId, reportId))
    .orderBy(asc(revenueReportProblems.line))
    .all();
}
