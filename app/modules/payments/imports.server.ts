import { and, desc, eq, getTableColumns, inArray, isNull, ne, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { ledgerEntries, ledgerVideoLines, revenueColumnMappings, revenueImports, revenueMonths } from "~/db/schema";
import { conflict, invalid, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { peopleByCreatorIds } from "~/modules/accounts/accounts.server";
import { channelOwnersByChannelIds } from "~/modules/channels/channels.server";
import { auditQuery } from "~/platform/audit.server";
import { clipSplitPlan } from "./clip-split.server";
import { type LineFact, previewLines } from "./preview-lines.server";
import type { BodyLimit } from "~/platform/body.server";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { PAYMENT_MESSAGES as M } from "./messages";
import { centsHalfUp, formatDec } from "./decimal";
import {
  COLUMN_NAME_MAX,
  CSV_MESSAGES,
  type ColumnMapping,
  detectFormat,
  headerKey,
  MAPPING_ROLES,
  MAX_IMPORT_BYTES,
  parseRevenue,
  readHead,
  type RevenueFormat,
  type RowProblem,
  suggestMapping,
} from "./revenue-csv";
import { type Leaf, roundMonth, shareByWeights } from "./revenue-totals";
import { agreementEnds } from "./agreement.server";
import { daysInMonth, earnedPart, lastFullMonth, monthOf } from "./calendar";
import { creatorShareBpAt, revisedSharesAt } from "./share.server";
import { referralBonusEntries } from "./referral-bonus.server";
import { split } from "~/lib/split";
import type { ImportPreview, MappingStep } from "./types";

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

type VideoLine = typeof ledgerVideoLines.$inferInsert;

/** The per-video lines of staged entries, 1,000 per INSERT in one bound JSON parameter (as the entries). */
function videoLineInsertQuery(rows: VideoLine[]) {
  const json = JSON.stringify(rows.map((l) => [l.entryId, l.videoId, l.netCents, l.amountCents]));
  return db()
    .insert(ledgerVideoLines)
    .select(
      sql`select json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]') from json_each(${json})`,
    );
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
  if (!/\.(csv|txt|tsv)$/i.test(name) && !/csv|text\/plain|tab-separated/.test(file.type)) throw invalid(M.notCsv, { fieldErrors: { file: M.notCsv } });
  const text = await file.text();
  if (text.includes("\u0000")) throw invalid(M.notCsv, { fieldErrors: { file: M.notCsv } });
  return { name, text };
}

/**
 * A month can be imported once it is over: the current, unfinished month and later ones are
 * refused (the platform's figures for them are not final), before anything is read or written.
 */
function checkImportableMonth(month: string, now: Date): void {
  if (month >= monthOf(now)) {
    const message = M.monthNotOver(month, lastFullMonth(now));
    throw invalid(message, { fieldErrors: { month: message } });
  }
}

// ---- Files waiting for a column mapping (decision 0221) -------------------------------------------
// A file the app does not recognise is kept in the private bucket while the admin maps its columns
// (a form cannot send the same file twice without the browser's help); the daily job deletes any
// left over after a day.

const UPLOAD_PREFIX = "revenue-uploads/";
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

async function stashUpload(month: string, name: string, text: string, actor: Actor): Promise<string> {
  const id = crypto.randomUUID();
  await env.MEDIA.put(`${UPLOAD_PREFIX}${id}.csv`, text, {
    httpMetadata: { contentType: "text/csv; charset=utf-8" },
    customMetadata: { month, fileName: name, createdBy: actor.id },
  });
  return id;
}

async function stashedUpload(uploadId: string): Promise<{ name: string; text: string }> {
  const object = /^[0-9a-f-]{36}$/.test(uploadId) ? await env.MEDIA.get(`${UPLOAD_PREFIX}${uploadId}.csv`) : null;
  if (!object) throw invalid(M.uploadGone, { fieldErrors: { file: M.uploadGone } });
  return { name: object.customMetadata?.fileName ?? "revenue.csv", text: await object.text() };
}

/** Uploads waiting for a mapping longer than a day are deleted (the daily job). */
export async function deleteStaleUploads(now = new Date()): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await env.MEDIA.list({ prefix: UPLOAD_PREFIX, cursor, limit: 500 });
    const stale = page.objects.filter((o) => now.getTime() - o.uploaded.getTime() > UPLOAD_TTL_MS).map((o) => o.key);
    if (stale.length > 0) await env.MEDIA.delete(stale);
    deleted += stale.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return deleted;
}

async function hashHeader(columns: readonly string[]): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(headerKey(columns)));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function rememberedMapping(columns: readonly string[]): Promise<ColumnMapping | null> {
  const row = await db()
    .select({ mapping: revenueColumnMappings.mapping })
    .from(revenueColumnMappings)
    .where(eq(revenueColumnMappings.headerHash, await hashHeader(columns)))
    .get();
  if (!row) return null;
  try {
    const m = JSON.parse(row.mapping) as ColumnMapping;
    return MAPPING_ROLES.every((r) => Number.isInteger(m[r]) && m[r] >= -1 && m[r] < columns.length) ? m : null;
  } catch {
    return null;
  }
}

function rememberMappingQuery(columns: readonly string[], mapping: ColumnMapping, actor: Actor, hash: string) {
  const now = new Date().toISOString();
  return db()
    .insert(revenueColumnMappings)
    .values({ headerHash: hash, columns: JSON.stringify(columns), mapping: JSON.stringify(mapping), updatedBy: actor.id, updatedAt: now })
    .onConflictDoUpdate({ target: revenueColumnMappings.headerHash, set: { mapping: JSON.stringify(mapping), updatedBy: actor.id, updatedAt: now } });
}

/** A mapping the file can be read with: month or date and amount named, and whose rows they are. */
function checkMapping(mapping: ColumnMapping, columns: readonly string[], person: string): void {
  const errors: Record<string, string> = {};
  for (const role of MAPPING_ROLES) if (mapping[role] >= columns.length || mapping[role] < -1) errors[role] = M.mappingColumnUnknown;
  if (mapping.period < 0) errors.period = M.mappingPeriodRequired;
  if (mapping.amount < 0) errors.amount = M.mappingAmountRequired;
  if (mapping.channel < 0 && mapping.creator < 0 && !person) errors.person = M.mappingPersonRequired;
  const used = MAPPING_ROLES.filter((r) => mapping[r] >= 0);
  for (const role of used) if (used.some((other) => other !== role && mapping[other] === mapping[role])) errors[role] = M.mappingColumnTwice;
  const first = Object.values(errors)[0];
  if (first) throw invalid(first, { fieldErrors: errors });
}

/** The fixed person of a one-person file: a channel id or a creator id that exists. */
async function fixedPersonOf(person: string): Promise<{ channelId: string | null; creatorId: string | null } | null> {
  const value = person.trim();
  if (!value) return null;
  const [channels, creators] = await Promise.all([channelOwnersByChannelIds([value]), peopleByCreatorIds([value])]);
  if (channels.has(value)) return { channelId: value, creatorId: null };
  if (creators.has(value.toUpperCase())) return { channelId: null, creatorId: value.toUpperCase() };
  throw invalid(M.personUnknown(value), { fieldErrors: { person: M.personUnknown(value) } });
}

export type PreviewInput =
  | { intent: "preview"; month: string; file: unknown }
  | { intent: "map"; month: string; uploadId: string; mapping: ColumnMapping; person: string }
  | { intent: "remap"; month: string; uploadId: string };

/** Either a preview, or the column-mapping step a file the app does not recognise goes through first. */
export type PreviewResult = { preview: ImportPreview; mappingStep?: undefined } | { mappingStep: MappingStep; preview?: undefined };

/** Problems listed in a preview (the count says how many there were in all). */
const PROBLEMS_SHOWN = 500;

/**
 * Checks, matches and (when clean) stages a month's revenue file: our own CSV, the YouTube
 * content-owner report, or any CSV through a column mapping (which this asks for first, unless the
 * same header was mapped before).
 */
export async function previewImport(actor: Actor, request: Request, input: PreviewInput, now = new Date()): Promise<PreviewResult> {
  authorize(actor, "payments", "manage");
  const { month } = input;
  checkImportableMonth(month, now);
  const existing = await monthRow(month);
  if (existing?.finalizedAt) throw conflict(M.finalized(month), { title: "Month finalized" });

  const { name, text } = input.intent === "preview" ? await fileText(input.file) : await stashedUpload(input.uploadId);
  const head = readHead(text);
  if (head.columns.every((c) => c === "") || head.sample.length === 0) throw invalid(CSV_MESSAGES.empty, { fieldErrors: { file: CSV_MESSAGES.empty } });
  // A column name is shown in the mapping step and remembered with the mapping: capped like a cell (issue 40 §10).
  const longName = head.columns.findIndex((c) => c.length > COLUMN_NAME_MAX);
  if (longName >= 0) throw invalid(CSV_MESSAGES.columnTooLong(longName + 1), { fieldErrors: { file: CSV_MESSAGES.columnTooLong(longName + 1) } });
  let format: RevenueFormat | null = detectFormat(head.columns);
  let mapping: ColumnMapping | null = null;
  let uploadId = input.intent === "preview" ? "" : input.uploadId;
  let person = "";
  let remembered = false;
  if (input.intent === "map") {
    checkMapping(input.mapping, head.columns, input.person.trim());
    format = "mapped";
    mapping = input.mapping;
    person = input.person.trim();
  } else if (input.intent === "remap" || !format) {
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
    format = "mapped";
    mapping = saved;
    remembered = true;
    uploadId ||= await stashUpload(month, name, text, actor);
  }
  const fixedPerson = format === "mapped" ? await fixedPersonOf(person) : null;
  const parsed = parseRevenue(text, { month, format, mapping, fixedPerson });
  if (parsed.dataRows === 0) throw invalid(CSV_MESSAGES.empty, { fieldErrors: { file: CSV_MESSAGES.empty } });
  if (input.intent === "map" && mapping) await rememberMappingQuery(head.columns, mapping, actor, await hashHeader(head.columns)).run();
  const problems: RowProblem[] = [...parsed.problems];

  // Match each group of rows (one channel, creator and video) to its person.
  const [channels, creators] = await Promise.all([
    channelOwnersByChannelIds([...new Set(parsed.groups.flatMap((g) => (g.channelId ? [g.channelId] : [])))]),
    peopleByCreatorIds([...new Set(parsed.groups.flatMap((g) => (g.creatorId ? [g.creatorId] : [])))]),
  ]);
  const leaves: Leaf[] = [];
  let matched = 0;
  for (const g of parsed.groups) {
    const channel = g.channelId ? channels.get(g.channelId) : undefined;
    const creator = g.creatorId ? creators.get(g.creatorId) : undefined;
    const refuse = (reason: string) => {
      for (const line of g.lines) problems.push({ line, reason });
    };
    if (g.channelId && !channel) refuse(M.unknownChannel(g.channelId));
    else if (g.creatorId && !creator) refuse(M.unknownCreator(g.creatorId));
    else if (channel && creator && channel.userId !== creator.id) refuse(M.mismatch(g.channelId ?? "", g.creatorId ?? ""));
    else {
      matched += g.lines.length;
      // The music share of a channel; a creator-level row (no channel) is the creator's own line.
      leaves.push({ userId: channel?.userId ?? creator?.id ?? "", sourceId: g.channelId ?? "", videoId: g.videoId ?? "", amount: g.amount });
    }
  }
  problems.sort((a, b) => a.line - b.line);
  // The share at the month: the standard share, or a person's accepted revised share in force
  // (docs/decisions/0129); an ended agreement earns nothing after its end date (0128).
  const [shareBp, revised, ends] = await Promise.all([creatorShareBpAt(month), revisedSharesAt(month), agreementEnds()]);
  const fileTotalCents = Number(centsHalfUp(parsed.total));
  const base: ImportPreview = {
    month,
    fileName: name,
    format,
    rowCount: parsed.dataRows,
    matched: problems.length ? 0 : matched,
    problems: problems.slice(0, PROBLEMS_SHOWN),
    problemCount: problems.length,
    skipped: parsed.skipped,
    importId: null,
    replaces: existing?.liveImportId ?? "",
    entryCount: 0,
    fileTotal: formatDec(parsed.total),
    fileTotalCents,
    remainder: "0.00",
    netCents: 0,
    amountCents: 0,
    shareBp,
    notCredited: 0,
    lines: [],
    lineCount: 0,
    mapping: mapping ? { uploadId, columns: head.columns, mapping, remembered, person } : null,
  };
  if (problems.length > 0) return { preview: base };

  // Rounded once: the month half up, shared down to each person, channel and video (decision 0220).
  const rounded = roundMonth(leaves);
  const importId = crypto.randomUUID();
  // Rows that name a clip's video are split between clipper and creator (docs/decisions/0150).
  const clipPlan = await clipSplitPlan(leaves.map((l, i) => ({ videoId: l.videoId || null, netCents: rounded.cents[i] })));
  const totals = new Map<string, { userId: string; sourceId: string; netCents: number; videos: Map<string, number> }>();
  leaves.forEach((leaf, i) => {
    const netCents = rounded.cents[i];
    if (clipPlan.claim({ videoId: leaf.videoId || null, netCents }, leaf.userId)) return;
    const key = `${leaf.userId}\u0000${leaf.sourceId}`;
    const t = totals.get(key) ?? { userId: leaf.userId, sourceId: leaf.sourceId, netCents: 0, videos: new Map<string, number>() };
    t.netCents += netCents;
    t.videos.set(leaf.videoId, (t.videos.get(leaf.videoId) ?? 0) + netCents);
    totals.set(key, t);
  });

  let notCredited = 0;
  const ended: LineFact[] = [];
  const videoLines: VideoLine[] = [];
  const entries: Entry[] = [...totals.values()].flatMap((t): Entry[] => {
    const earned = earnedPart(t.netCents, month, ends.get(t.userId) ?? null);
    if (earned.days === 0) {
      notCredited += 1;
      ended.push({ userId: t.userId, sourceKind: "music", sourceId: t.sourceId, netCents: t.netCents, amountCents: 0, credited: false });
      return [];
    }
    const bp = revised.get(t.userId) ?? shareBp;
    const id = crypto.randomUUID();
    const amountCents = split(earned.netCents, bp).share;
    // Per-video lines when the rows named videos: the line's net and amount shared to the cent.
    const videos = [...t.videos.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (videos.some(([v]) => v !== "")) {
      const nets = shareByWeights(
        earned.netCents,
        videos.map(([, c]) => c),
      );
      const amounts = shareByWeights(amountCents, nets);
      videos.forEach(([videoId], k) => {
        videoLines.push({ entryId: id, videoId, netCents: nets[k], amountCents: amounts[k] });
      });
    }
    return [
      {
        id,
        userId: t.userId,
        month,
        sourceKind: "music",
        sourceId: t.sourceId,
        netCents: earned.netCents,
        shareBp: bp,
        amountCents,
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
    // This admin's earlier previews of the month go: the new one replaces what they had on screen
    // (another admin's preview is theirs to commit or discard; docs/decisions/0327).
    ...discardStagedQueries(and(eq(revenueImports.month, month), eq(revenueImports.createdBy, actor.id))),
    db()
      .insert(revenueImports)
      .values({
        id: importId,
        month,
        status: "staged",
        fileName: name,
        rowCount: parsed.dataRows,
        entryCount: entries.length,
        netCents,
        amountCents,
        shareBp,
        createdBy: actor.id,
        format,
        exactTotal: formatDec(rounded.exact),
        roundingRemainder: formatDec(rounded.remainder),
      }),
    auditQuery({
      eventType: "revenue_import_staged",
      severity: "low",
      userId: actor.id,
      request,
      details: {
        import_id: importId,
        month,
        format,
        rows: parsed.dataRows,
        entries: entries.length,
        net_cents: netCents,
        exact_total: formatDec(rounded.exact),
      },
    }),
  ]);
  try {
    const inserts: BatchItem<"sqlite">[] = [];
    for (let i = 0; i < entries.length; i += ENTRY_ROWS_PER_INSERT) inserts.push(entryInsertQuery(entries.slice(i, i + ENTRY_ROWS_PER_INSERT)));
    for (let i = 0; i < videoLines.length; i += ENTRY_ROWS_PER_INSERT) inserts.push(videoLineInsertQuery(videoLines.slice(i, i + ENTRY_ROWS_PER_INSERT)));
    for (let i = 0; i < inserts.length; i += STATEMENTS_PER_BATCH) {
      const chunk = inserts.slice(i, i + STATEMENTS_PER_BATCH) as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];
      await db().batch(chunk);
    }
  } catch (error) {
    await discardStaged(importId);
    throw error;
  }

  const facts: LineFact[] = [
    ...entries.map((e) => ({
      userId: e.userId,
      sourceKind: e.sourceKind,
      sourceId: e.sourceId ?? "",
      note: e.note,
      netCents: e.netCents,
      amountCents: e.amountCents,
      credited: true,
    })),
    ...ended,
  ];
  return {
    preview: {
      ...base,
      matched,
      importId,
      notCredited,
      entryCount: entries.length,
      remainder: formatDec(rounded.remainder),
      netCents,
      amountCents,
      lines: await previewLines(facts, channels),
      lineCount: facts.length,
    },
  };
}

/**
 * Discards the staged imports `where` selects (besides 'staged'): their entries (with their video
 * lines, by cascade) first, while the imports still read 'staged', then the guarded status update.
 * For a caller's batch, so a commit racing with it either went live first (no longer staged: untouched)
 * or finds its import discarded.
 */
function discardStagedQueries(where: SQL | undefined) {
  const staged = and(eq(revenueImports.status, "staged"), where);
  return [
    db()
      .delete(ledgerEntries)
      .where(inArray(ledgerEntries.importId, db().select({ id: revenueImports.id }).from(revenueImports).where(staged))),
    db().update(revenueImports).set({ status: "discarded" }).where(staged),
  ] as const;
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
        format: revenueImports.format,
        exactTotal: revenueImports.exactTotal,
        roundingRemainder: revenueImports.roundingRemainder,
      })
      .from(revenueMonths)
      // Only months with revenue (a row left by an earlier version's discarded preview is not a month).
      .innerJoin(revenueImports, eq(revenueImports.id, revenueMonths.liveImportId))
      .orderBy(desc(revenueMonths.month))
      .limit(24),
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
      .limit(20),
  ]);
  return { months, imports };
}
