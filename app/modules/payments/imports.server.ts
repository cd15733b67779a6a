import { and, desc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { ledgerEntries, revenueImports, revenueMonths } from "~/db/schema";
import { conflict, invalid, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { adminSessionLimit, alongsideSession } from "~/modules/accounts/accounts.server";
import type { BodyLimit } from "~/platform/body.server";
import { auditQuery } from "~/platform/audit.server";
import { builtOnce, db } from "~/platform/db.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { centsHalfUp, formatDec } from "./decimal";
import { fixedPersonOf, matchImport } from "./import-match.server";
import { checkImportableMonth, checkMapping, importHead, parseImport } from "./import-parse";
import { priceImport } from "./import-price";
import { discardStaged, discardStagedQueries, stageImport } from "./import-stage.server";
import { fileText, rememberedMapping, rememberMapping, stashedUpload, stashUpload } from "./import-upload.server";
import { PAYMENT_MESSAGES as M } from "./messages";
import { pricedSummary } from "./preview-lines.server";
import { COLUMN_NAME_MAX, type ColumnMapping, detectFormat, MAX_IMPORT_BYTES, type RevenueFormat, suggestMapping } from "./revenue-csv";
import type { ImportPreview, MappingStep } from "./types";

export { ENTRY_ROWS_PER_INSERT } from "./import-stage.server";
export { deleteStaleUploads, UPLOAD_TTL_MS } from "./import-upload.server";

// The admin's revenue import (docs/decisions/0121-revenue-import.md):
//   preview  parse and check every row (papaparse), match channel/creator ids to people; with any
//            problem nothing is written and the report lists them by line. A clean file is priced and
//            staged: its entries are written under a 'staged' import, invisible to every screen.
//            The steps, one file each: import-parse.ts (pure) → import-match.server.ts (the one read)
//            → import-price.ts (pure) → import-stage.server.ts (the one write).
//   commit   one guarded update of revenue_months.live_import_id (still the import the preview saw,
//            month not finalized) switches it live; the replaced import's entries go in the same
//            batch. Of two commits for one month, one wins and the other is told (409).
//   funds received, then finalize (entries estimated → finalized; never edited afterwards).

function monthRowQuery(month: string) {
  return db().insert(revenueMonths).values({ month }).onConflictDoNothing();
}

async function monthRow(month: string) {
  return db().select().from(revenueMonths).where(eq(revenueMonths.month, month)).get();
}

/**
 * The body cap of the admin's payments action (readForm's limit): the largest revenue file plus the
 * form's fields. A bigger body is refused before it is read, with the file's own message.
 */
export function paymentsBodyLimit(): BodyLimit {
  return { maxBytes: MAX_IMPORT_BYTES + 64 * 1024, tooLarge: invalid(M.fileTooLarge, { fieldErrors: { file: M.fileTooLarge } }) };
}

export type PreviewInput =
  | { intent: "preview"; month: string; file: unknown }
  | { intent: "map"; month: string; uploadId: string; mapping: ColumnMapping; person: string }
  | { intent: "remap"; month: string; uploadId: string };

/** Either a preview, or the column-mapping step a file the app does not recognise goes through first. */
export type PreviewResult = { preview: ImportPreview; mappingStep?: undefined } | { mappingStep: MappingStep; preview?: undefined };

/** Problems listed in a preview (the count says how many there were in all). */
const PROBLEMS_SHOWN = 500;

/** How the file is read: its format, and for a mapped file the mapping (and a one-person file's person). */
type Reading = { format: RevenueFormat; mapping: ColumnMapping | null; uploadId: string; person: string; remembered: boolean };

/**
 * Checks, matches and (when clean) stages a month's revenue file: our own CSV, the YouTube
 * content-owner report, or any CSV through a column mapping (which this asks for first, unless the
 * same header was mapped before). guard → parse → match → price → stage → summary.
 */
export async function previewImport(actor: Actor, request: Request, input: PreviewInput, now = new Date()): Promise<PreviewResult> {
  authorize(actor, "payments", "manage");
  const { month } = input;
  checkImportableMonth(month, now);
  const existing = await monthRow(month);
  if (existing?.finalizedAt) throw conflict(M.finalized(month), { title: "Month finalized" });

  // Parse: the file, its format or column mapping, every row checked.
  const { name, text } = input.intent === "preview" ? await fileText(input.file) : await stashedUpload(input.uploadId);
  const head = importHead(text);
  const reading = await readingOf(input, head, name, text, actor);
  if ("mappingStep" in reading) return reading;
  const { format, mapping, uploadId, person, remembered } = reading;
  const fixedPerson = format === "mapped" ? await fixedPersonOf(person) : null;
  const parsed = parseImport(text, { month, format, mapping, fixedPerson });
  if (input.intent === "map" && mapping) await rememberMapping(head.columns, mapping, actor);

  // Match: the rows' people, the shares, and what pricing needs.
  const match = await matchImport(parsed, month);
  const { problems, shares } = match;
  const base: ImportPreview = {
    month,
    fileName: name,
    format,
    rowCount: parsed.dataRows,
    matched: problems.length ? 0 : match.matched,
    problems: problems.slice(0, PROBLEMS_SHOWN),
    problemCount: problems.length,
    skipped: parsed.skipped,
    importId: null,
    replaces: existing?.liveImportId ?? "",
    entryCount: 0,
    fileTotal: formatDec(parsed.total),
    fileTotalCents: Number(centsHalfUp(parsed.total)),
    remainder: "0.00",
    netCents: 0,
    amountCents: 0,
    shareBp: shares.shareBp,
    notCredited: 0,
    lines: [],
    lineCount: 0,
    mapping: mapping ? { uploadId, columns: head.columns, mapping, remembered, person } : null,
  };
  if (!match.pricing) return { preview: base };

  // Price, then stage: the one write.
  const importId = crypto.randomUUID();
  const priced = priceImport({ month, importId, leaves: match.leaves, shares, ...match.pricing });
  await stageImport(actor, request, { importId, month, fileName: name, format, rowCount: parsed.dataRows, shareBp: shares.shareBp, priced });

  // Summary: what was staged, the largest lines with their people.
  return { preview: { ...base, ...(await pricedSummary(priced, match, importId)) } };
}

/**
 * The format the file is read in: detected from its header, the admin's mapping, or a mapping
 * remembered for the same header. Otherwise the file is kept and the mapping step returned.
 */
async function readingOf(
  input: PreviewInput,
  head: { columns: string[]; sample: string[][] },
  name: string,
  text: string,
  actor: Actor,
): Promise<Reading | { mappingStep: MappingStep }> {
  const { month } = input;
  const format = detectFormat(head.columns);
  let uploadId = input.intent === "preview" ? "" : input.uploadId;
  if (input.intent === "map") {
    checkMapping(input.mapping, head.columns, input.person.trim());
    return { format: "mapped", mapping: input.mapping, uploadId, person: input.person.trim(), remembered: false };
  }
  if (input.intent === "preview" && format) return { format, mapping: null, uploadId, person: "", remembered: false };
  const saved = await rememberedMapping(head.columns);
  if (input.intent === "remap" || !saved || (saved.channel < 0 && saved.creator < 0)) {
    // The mapping step: the remembered mapping (a one-person file still needs its person) or a guess.
    uploadId ||= await stashUpload(month, name, text, actor);
    return {
      mappingStep: {
        uploadId,
        month,
        fileName: name,
        columns: head.columns,
        // A sample cell is shown, not checked: cut to what fits on the page (the rows are checked when read).
        sample: head.sample.slice(0, 3).map((r) => head.columns.map((_, i) => String(r[i] ?? "").slice(0, COLUMN_NAME_MAX))),
        mapping: saved ?? suggestMapping(head.columns),
        remembered: !!saved,
        detected: format,
      },
    };
  }
  uploadId ||= await stashUpload(month, name, text, actor);
  return { format: "mapped", mapping: saved, uploadId, person: "", remembered: true };
}

export async function discardImport(actor: Actor, request: Request, importId: string): Promise<void> {
  authorize(actor, "payments", "manage");
  const row = await db()
    .select({ month: revenueImports.month, status: revenueImports.status })
    .from(revenueImports)
    .where(eq(revenueImports.id, importId))
    .get();
  if (!row) throw notFound(M.importNotFound);
  if (row.status !== "staged" || !(await discardStaged(importId))) throw conflict(M.importGone);
  await db().batch([
    auditQuery({ eventType: "revenue_import_discarded", severity: "low", userId: actor.id, request, details: { import_id: importId, month: row.month } }),
  ]);
}

/** Switches a staged import live in one guarded statement; the import it replaces goes in the same batch. */
export async function commitImport(
  actor: Actor,
  request: Request,
  input: { importId: string; replaces: string },
): Promise<{ month: string; entryCount: number }> {
  authorize(actor, "payments", "manage");
  const staged = await db().select().from(revenueImports).where(eq(revenueImports.id, input.importId)).get();
  if (!staged) throw notFound(M.importNotFound);
  const { month } = staged;
  const expected = input.replaces || null;
  if (staged.status !== "staged") throw await notCommitted(staged.status, month, expected);
  const now = new Date().toISOString();
  try {
    await db().batch([
      // The month's row is written when its first import goes live (a discarded preview leaves none).
      monthRowQuery(month),
      db()
        .update(revenueMonths)
        .set({ liveImportId: staged.id })
        .where(
          and(
            eq(revenueMonths.month, month),
            expected === null ? isNull(revenueMonths.liveImportId) : eq(revenueMonths.liveImportId, expected),
            isNull(revenueMonths.finalizedAt),
            sql`exists (select 1 from ${revenueImports} where ${revenueImports.id} = ${staged.id} and ${revenueImports.status} = 'staged')`,
          ),
        ),
      precondition(previousStatementChanged(1)),
      db()
        .update(revenueImports)
        .set({ status: "replaced" })
        .where(and(eq(revenueImports.month, month), eq(revenueImports.status, "live"))),
      db().update(revenueImports).set({ status: "live", wentLiveAt: now }).where(eq(revenueImports.id, staged.id)),
      // The month's other previews were made against the import just replaced: they could only be
      // refused now, so they go (only this month's: another month's preview is untouched; decision 0327).
      ...discardStagedQueries(and(eq(revenueImports.month, month), ne(revenueImports.id, staged.id))),
      ...(expected
        ? [
            db()
              .delete(ledgerEntries)
              .where(and(eq(ledgerEntries.importId, expected), eq(ledgerEntries.status, "estimated"))),
          ]
        : []),
      auditQuery({
        eventType: "revenue_import_committed",
        severity: "medium",
        userId: actor.id,
        request,
        details: { import_id: staged.id, month, entries: staged.entryCount, net_cents: staged.netCents, amount_cents: staged.amountCents, replaced: expected },
      }),
    ]);
  } catch (error) {
    if (!isPreconditionFailure(error)) throw error;
    const still = await db().select({ status: revenueImports.status }).from(revenueImports).where(eq(revenueImports.id, staged.id)).get();
    // Still staged: this commit was refused, and its preview goes as a discarded one would.
    const status = still?.status ?? "discarded";
    if (status === "staged") await discardStaged(staged.id);
    throw await notCommitted(status === "staged" ? "discarded" : status, month, expected);
  }
  return { month, entryCount: staged.entryCount };
}

/**
 * Why a preview could not be committed. A discarded one whose month has since changed was set aside
 * by another import going live (or was refused by this commit): the admin is told that, not just "gone".
 */
async function notCommitted(status: (typeof revenueImports.$inferSelect)["status"], month: string, expected: string | null) {
  if (status !== "discarded") return conflict(M.importGone);
  const current = await monthRow(month);
  if (current?.finalizedAt) return conflict(M.finalized(month), { title: "Month finalized" });
  if ((current?.liveImportId ?? null) !== expected) return conflict(M.changedSincePreview(month), { title: "Import not committed" });
  return conflict(M.importGone);
}

export async function markFundsReceived(actor: Actor, request: Request, month: string): Promise<void> {
  authorize(actor, "payments", "manage");
  const row = await monthRow(month);
  if (!row?.liveImportId) throw conflict(M.nothingImported(month));
  if (row.fundsReceivedAt) throw conflict(M.fundsAlready(month));
  try {
    await db().batch([
      db()
        .update(revenueMonths)
        .set({ fundsReceivedAt: new Date().toISOString(), fundsReceivedBy: actor.id })
        .where(and(eq(revenueMonths.month, month), isNull(revenueMonths.fundsReceivedAt))),
      precondition(previousStatementChanged(1)),
      auditQuery({ eventType: "revenue_funds_received", severity: "medium", userId: actor.id, request, details: { month } }),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw conflict(M.fundsAlready(month));
    throw error;
  }
}

/** Estimated → finalized for the month's live entries, once the funds are received. */
export async function finalizeMonth(actor: Actor, request: Request, month: string): Promise<{ entries: number }> {
  authorize(actor, "payments", "manage");
  const row = await monthRow(month);
  if (!row?.liveImportId) throw conflict(M.nothingImported(month));
  if (row.finalizedAt) throw conflict(M.finalizedAlready(month));
  if (!row.fundsReceivedAt) throw conflict(M.fundsFirst(month));
  try {
    const [, , updated] = await db().batch([
      db()
        .update(revenueMonths)
        .set({ finalizedAt: new Date().toISOString(), finalizedBy: actor.id })
        .where(and(eq(revenueMonths.month, month), isNull(revenueMonths.finalizedAt), sql`${revenueMonths.fundsReceivedAt} is not null`)),
      precondition(previousStatementChanged(1)),
      db()
        .update(ledgerEntries)
        .set({ status: "finalized" })
        .where(
          and(
            eq(ledgerEntries.month, month),
            eq(ledgerEntries.status, "estimated"),
            sql`(${ledgerEntries.importId} is null or ${ledgerEntries.importId} = ${row.liveImportId})`,
            // Campaign entries are finalized by their campaign (settled + the brand's funds received), never by a music month.
            sql`${ledgerEntries.sourceKind} <> 'campaign'`,
          ),
        )
        .returning({ id: ledgerEntries.id }),
      auditQuery({ eventType: "revenue_month_finalized", severity: "high", userId: actor.id, request, details: { month, import_id: row.liveImportId } }),
    ]);
    return { entries: updated.length };
  } catch (error) {
    if (isPreconditionFailure(error)) throw conflict(M.finalizedAlready(month));
    throw error;
  }
}

type SessionArgs = Parameters<typeof alongsideSession>[0];

/** startRevenueOverview's statements, built once per isolate (db.server builtOnce, 0284; decision 0349), for an admin's session only (adminSessionLimit, 0356). */
const overview = {
  months: builtOnce((slot) =>
    db()
      .select({
        month: revenueMonths.month,
        liveImportId: revenueMonths.liveImportId,
        fundsReceivedAt: revenueMonths.fundsReceivedAt,
        finalizedAt: revenueMonths.finalizedAt,
        entryCount: revenueImports.entryCount,
        netCents: revenueImports.netCents,
        amountCents: revenueImports.amountCents,
        shareBp: revenueImports.shareBp,
        importedAt: revenueImports.wentLiveAt,
        format: revenueImports.format,
        exactTotal: revenueImports.exactTotal,
        roundingRemainder: revenueImports.roundingRemainder,
      })
      .from(revenueMonths)
      // Only months with revenue (a row left by an earlier version's discarded preview is not a month).
      .innerJoin(revenueImports, eq(revenueImports.id, revenueMonths.liveImportId))
      .orderBy(desc(revenueMonths.month))
      .limit(adminSessionLimit(slot, 24)),
  ),
  imports: builtOnce((slot) =>
    db()
      .select({
        id: revenueImports.id,
        month: revenueImports.month,
        status: revenueImports.status,
        fileName: revenueImports.fileName,
        format: revenueImports.format,
        entryCount: revenueImports.entryCount,
        netCents: revenueImports.netCents,
        createdAt: revenueImports.createdAt,
      })
      .from(revenueImports)
      .where(inArray(revenueImports.status, ["staged", "live", "replaced"]))
      .orderBy(desc(revenueImports.createdAt))
      .limit(adminSessionLimit(slot, 20)),
  ),
};

/**
 * The admin's view of the months and the latest imports, read in the session lookup's batch (one
 * round trip for /admin/payments, decision 0352): call before the guard, then give the guard's actor.
 */
export function startRevenueOverview(args: SessionArgs) {
  const months = alongsideSession(args, overview.months);
  const imports = alongsideSession(args, overview.imports);
  return async (actor: Actor) => {
    authorize(actor, "payments", "manage");
    return { months: await months, imports: await imports };
  };
}
