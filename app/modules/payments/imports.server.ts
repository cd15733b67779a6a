import { and, desc, eq, getTableColumns, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { ledgerEntries, revenueImports, revenueMonths } from "~/db/schema";
import { conflict, invalid, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { peopleByCreatorIds, peopleByIds } from "~/modules/accounts/accounts.server";
import { channelOwnersByChannelIds } from "~/modules/channels/channels.server";
import { auditQuery } from "~/platform/audit.server";
import { clipSplitPlan } from "./clip-split.server";
import type { BodyLimit } from "~/platform/body.server";
import { db } from "~/platform/db.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { PAYMENT_MESSAGES as M } from "./messages";
import { MAX_IMPORT_BYTES, parseRevenueCsv, type RowProblem } from "./revenue-csv";
import { agreementEnds } from "./agreement.server";
import { daysInMonth, earnedPart } from "./calendar";
import { creatorShareBpAt, revisedSharesAt } from "./share.server";
import { referralBonusEntries } from "./referral-bonus.server";
import { split } from "./split";
import type { ImportPreview } from "./types";

// The admin's revenue import (docs/decisions/0121-revenue-import.md):
//   preview  parse and check every row (papaparse), match channel/creator ids to people; with any
//            problem nothing is written and the report lists them by line. A clean file is staged:
//            its entries are written under a 'staged' import, invisible to every screen.
//   commit   one guarded update of revenue_months.live_import_id (still the import the preview saw,
//            month not finalized) switches it live; the replaced import's entries go in the same
//            batch. Of two commits for one month, one wins and the other is told (409).
//   funds received, then finalize (entries estimated → finalized; never edited afterwards).

/**
 * Entries per INSERT. The rows travel as ONE bound parameter (a JSON array read with json_each), so
 * a statement stays far under D1's 100 bound parameters and 10,000 entries are 10 statements, not
 * 1,000 (docs/decisions/0126-ledger-benchmark.md).
 */
export const ENTRY_ROWS_PER_INSERT = 1000;
/** Statements per D1 batch while staging. */
const STATEMENTS_PER_BATCH = 10;

type Entry = typeof ledgerEntries.$inferInsert;

/** Fields of an entry in the JSON rows, by position. */
const ENTRY_FIELDS = ["id", "userId", "month", "sourceKind", "sourceId", "netCents", "shareBp", "amountCents", "importId", "note"] as const;

/** One INSERT … SELECT … FROM json_each(?) for a chunk of entries: every column of ledger_entries in table order. */
function entryInsertQuery(rows: Entry[]) {
  const json = JSON.stringify(rows.map((e) => ENTRY_FIELDS.map((f) => e[f] ?? null)));
  const fixed: Partial<Record<keyof typeof ledgerEntries.$inferSelect, SQL>> = {
    status: sql`'estimated'`,
    payoutId: sql`null`,
    createdAt: ledgerEntries.createdAt.default as SQL,
  };
  const columns = Object.keys(getTableColumns(ledgerEntries)).map((k) => {
    const at = ENTRY_FIELDS.indexOf(k as (typeof ENTRY_FIELDS)[number]);
    return at >= 0 ? sql.raw(`json_extract(value, '$[${at}]')`) : (fixed[k as keyof typeof fixed] ?? sql`null`);
  });
  return db()
    .insert(ledgerEntries)
    .select(sql`select ${sql.join(columns, sql`, `)} from json_each(${json})`);
}

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

/** Reads the uploaded file, refusing what cannot be a revenue CSV. */
async function fileText(file: unknown): Promise<{ name: string; text: string }> {
  if (!(file instanceof File) || file.size === 0) throw invalid(M.fileRequired, { fieldErrors: { file: M.fileRequired } });
  if (file.size > MAX_IMPORT_BYTES) throw invalid(M.fileTooLarge, { fieldErrors: { file: M.fileTooLarge } });
  const name = file.name.slice(0, 200);
  if (!/\.csv$/i.test(name) && !/csv|text\/plain/.test(file.type)) throw invalid(M.notCsv, { fieldErrors: { file: M.notCsv } });
  const text = await file.text();
  if (text.includes("\u0000")) throw invalid(M.notCsv, { fieldErrors: { file: M.notCsv } });
  return { name, text };
}

/** Checks, matches and (when clean) stages a month's revenue file. */
export async function previewImport(actor: Actor, request: Request, input: { month: string; file: unknown }): Promise<ImportPreview> {
  authorize(actor, "payments", "manage");
  const { month } = input;
  const existing = await monthRow(month);
  if (existing?.finalizedAt) throw conflict(M.finalized(month), { title: "Month finalized" });
  const { name, text } = await fileText(input.file);
  const parsed = parseRevenueCsv(text, month);
  const problems: RowProblem[] = [...parsed.problems];

  // Match each row to its person.
  const [channels, creators] = await Promise.all([
    channelOwnersByChannelIds(parsed.rows.flatMap((r) => (r.channelId ? [r.channelId] : []))),
    peopleByCreatorIds(parsed.rows.flatMap((r) => (r.creatorId ? [r.creatorId] : []))),
  ]);
  const totals = new Map<string, { userId: string; sourceId: string; netCents: number }>();
  // Rows that name a clip's video are split between clipper and creator (docs/decisions/0150).
  const clipPlan = await clipSplitPlan(parsed.rows);
  let matched = 0;
  for (const row of parsed.rows) {
    const channel = row.channelId ? channels.get(row.channelId) : undefined;
    const creator = row.creatorId ? creators.get(row.creatorId) : undefined;
    if (row.channelId && !channel) {
      problems.push({ line: row.line, reason: M.unknownChannel(row.channelId) });
      continue;
    }
    if (row.creatorId && !creator) {
      problems.push({ line: row.line, reason: M.unknownCreator(row.creatorId) });
      continue;
    }
    if (channel && creator && channel.userId !== creator.id) {
      problems.push({ line: row.line, reason: M.mismatch(row.channelId ?? "", row.creatorId ?? "") });
      continue;
    }
    matched += 1;
    const userId = channel?.userId ?? creator?.id ?? "";
    if (clipPlan.claim(row, userId)) continue;
    // The music share of a channel; a creator-level row (no channel) is the creator's own line.
    const sourceId = row.channelId ?? "";
    const key = `${userId}\u0000${sourceId}`;
    const t = totals.get(key) ?? { userId, sourceId, netCents: 0 };
    t.netCents += row.netCents;
    totals.set(key, t);
  }
  problems.sort((a, b) => a.line - b.line);
  const rowCount = parsed.rows.length + parsed.problems.length;
  // The share at the month: the standard share, or a person's accepted revised share in force
  // (docs/decisions/0129); an ended agreement earns nothing after its end date (0128).
  const [shareBp, revised, ends] = await Promise.all([creatorShareBpAt(month), revisedSharesAt(month), agreementEnds()]);
  const base: ImportPreview = {
    month,
    fileName: name,
    rowCount,
    matched: problems.length ? 0 : matched,
    problems,
    importId: null,
    replaces: existing?.liveImportId ?? "",
    entryCount: 0,
    netCents: 0,
    amountCents: 0,
    shareBp,
    notCredited: 0,
    people: [],
  };
  if (problems.length > 0) return base;

  const importId = crypto.randomUUID();
  let notCredited = 0;
  const entries: Entry[] = [...totals.values()].flatMap((t): Entry[] => {
    const earned = earnedPart(t.netCents, month, ends.get(t.userId) ?? null);
    if (earned.days === 0) {
      notCredited += 1;
      return [];
    }
    const bp = revised.get(t.userId) ?? shareBp;
    return [
      {
        id: crypto.randomUUID(),
        userId: t.userId,
        month,
        sourceKind: "music",
        sourceId: t.sourceId,
        netCents: earned.netCents,
        shareBp: bp,
        amountCents: split(earned.netCents, bp).share,
        importId,
        // The month holds the agreement's end: the days up to it, pro rata.
        note: earned.days ? `${earned.days} of ${daysInMonth(month)} days, to the agreement's end on ${ends.get(t.userId)}` : null,
      },
    ];
  });
  entries.push(
    ...(await clipPlan.entries(
      month,
      (userId) => revised.get(userId) ?? shareBp,
      importId,
      (userId) => ends.get(userId) ?? null,
    )),
  );
  notCredited += clipPlan.notCredited();
  const netCents = entries.reduce((s, e) => s + e.netCents, 0);
  const amountCents = entries.reduce((s, e) => s + e.amountCents, 0);
  entries.push(...(await referralBonusEntries(entries, month, importId))); // issue 18: paid from the platform's side

  await db().batch([
    monthRowQuery(month),
    db().insert(revenueImports).values({
      id: importId,
      month,
      status: "staged",
      fileName: name,
      rowCount,
      entryCount: entries.length,
      netCents,
      amountCents,
      shareBp,
      createdBy: actor.id,
    }),
    auditQuery({
      eventType: "revenue_import_staged",
      severity: "low",
      userId: actor.id,
      request,
      details: { import_id: importId, month, rows: rowCount, entries: entries.length, net_cents: netCents },
    }),
  ]);
  try {
    const inserts: BatchItem<"sqlite">[] = [];
    for (let i = 0; i < entries.length; i += ENTRY_ROWS_PER_INSERT) inserts.push(entryInsertQuery(entries.slice(i, i + ENTRY_ROWS_PER_INSERT)));
    for (let i = 0; i < inserts.length; i += STATEMENTS_PER_BATCH) {
      const chunk = inserts.slice(i, i + STATEMENTS_PER_BATCH) as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];
      await db().batch(chunk);
    }
  } catch (error) {
    await discardStaged(importId);
    throw error;
  }

  const perUser = new Map<string, { netCents: number; amountCents: number }>();
  for (const e of entries) {
    const p = perUser.get(e.userId) ?? { netCents: 0, amountCents: 0 };
    p.netCents += e.netCents;
    p.amountCents += e.amountCents;
    perUser.set(e.userId, p);
  }
  const top = [...perUser.entries()].sort((a, b) => b[1].netCents - a[1].netCents).slice(0, 20);
  const names = await peopleByIds(top.map(([id]) => id));
  return {
    ...base,
    matched,
    importId,
    notCredited,
    entryCount: entries.length,
    netCents,
    amountCents,
    people: top.map(([id, p]) => ({ name: names.get(id)?.fullName ?? names.get(id)?.email ?? id, ...p })),
  };
}

/** A staged import's entries go and the import is marked discarded (a loser of a race, an abandoned preview). */
async function discardStaged(importId: string): Promise<boolean> {
  const [, done] = await db().batch([
    db().delete(ledgerEntries).where(eq(ledgerEntries.importId, importId)),
    db()
      .update(revenueImports)
      .set({ status: "discarded" })
      .where(and(eq(revenueImports.id, importId), eq(revenueImports.status, "staged")))
      .returning({ id: revenueImports.id }),
  ]);
  return done.length > 0;
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
  if (staged.status !== "staged") throw conflict(M.importGone);
  const { month } = staged;
  const expected = input.replaces || null;
  const now = new Date().toISOString();
  try {
    await db().batch([
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
    const current = await monthRow(month);
    const still = await db().select({ status: revenueImports.status }).from(revenueImports).where(eq(revenueImports.id, staged.id)).get();
    if (still?.status !== "staged") throw conflict(M.importGone);
    await discardStaged(staged.id);
    if (current?.finalizedAt) throw conflict(M.finalized(month), { title: "Month finalized" });
    throw conflict(M.changedSincePreview(month), { title: "Import not committed" });
  }
  return { month, entryCount: staged.entryCount };
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

/** The admin's view of the months and the latest imports. */
export async function revenueOverview(actor: Actor) {
  authorize(actor, "payments", "manage");
  const [months, imports] = await db().batch([
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
      })
      .from(revenueMonths)
      .leftJoin(revenueImports, eq(revenueImports.id, revenueMonths.liveImportId))
      .orderBy(desc(revenueMonths.month))
      .limit(24),
    db()
      .select({
        id: revenueImports.id,
        month: revenueImports.month,
        status: revenueImports.status,
        fileName: revenueImports.fileName,
        entryCount: revenueImports.entryCount,
        netCents: revenueImports.netCents,
        createdAt: revenueImports.createdAt,
      })
      .from(revenueImports)
      .where(inArray(revenueImports.status, ["staged", "live", "replaced"]))
      .orderBy(desc(revenueImports.createdAt))
      .limit(20),
  ]);
  return { months, imports };
}
