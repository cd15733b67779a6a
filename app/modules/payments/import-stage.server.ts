import { and, eq, getTableColumns, inArray, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { ledgerEntries, ledgerVideoLines, revenueImports } from "~/db/schema";
import type { Actor } from "~/lib/permissions";
import { auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { formatDec } from "./decimal";
import type { Entry, PricedImport, VideoLine } from "./import-price";
import type { RevenueFormat } from "./revenue-csv";

// The revenue import's one write (docs/decisions/0121-revenue-import.md): a priced file's entries
// and per-video lines staged under a 'staged' import, invisible to every screen until committed;
// and the discarding of staged imports (a newer preview, a commit that replaced them, a failure).

/**
 * Entries per INSERT. The rows travel as ONE bound parameter (a JSON array read with json_each), so
 * a statement stays far under D1's 100 bound parameters and 10,000 entries are 10 statements, not
 * 1,000 (docs/decisions/0126-ledger-benchmark.md).
 */
export const ENTRY_ROWS_PER_INSERT = 1000;
/** Statements per D1 batch while staging. */
const STATEMENTS_PER_BATCH = 10;

/** Fields of an entry in the JSON rows, by position. */
const ENTRY_FIELDS = ["id", "userId", "month", "sourceKind", "sourceId", "netCents", "shareBp", "amountCents", "importId", "note"] as const;

/** One INSERT … SELECT … FROM json_each(?) for a chunk of entries: every column of ledger_entries in table order. */
export function entryInsertQuery(rows: Entry[], orIgnore = false) {
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
  const insert = db()
    .insert(ledgerEntries)
    .select(sql`select ${sql.join(columns, sql`, `)} from json_each(${json}) where true`);
  // orIgnore: a retried step of a report's stage writes the same deterministic ids again (0350).
  return orIgnore ? insert.onConflictDoNothing() : insert;
}

/** The per-video lines of staged entries, 1,000 per INSERT in one bound JSON parameter (as the entries). */
export function videoLineInsertQuery(rows: VideoLine[], orIgnore = false) {
  const json = JSON.stringify(rows.map((l) => [l.entryId, l.videoId, l.netCents, l.amountCents]));
  const insert = db()
    .insert(ledgerVideoLines)
    .select(
      sql`select json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]') from json_each(${json}) where true`,
    );
  return orIgnore ? insert.onConflictDoNothing() : insert;
}

export type StagedImport = {
  importId: string;
  month: string;
  fileName: string;
  format: RevenueFormat;
  /** Data rows of the file. */
  rowCount: number;
  shareBp: number;
  priced: PricedImport;
};

/**
 * Writes a priced import as 'staged': this admin's earlier previews of the month are discarded, the
 * import and its audit event written, then its entries and video lines in chunks. A failure part way
 * discards what was staged.
 */
export async function stageImport(actor: Actor, request: Request | undefined, s: StagedImport, sliced?: Sliced): Promise<void> {
  const { importId, month, format, priced } = s;
  const { entries, videoLines, rounded } = priced;
  // This admin's earlier previews of the month go: the new one replaces what they had on screen
  // (another admin's preview is theirs to commit or discard; docs/decisions/0327).
  const earlier = and(eq(revenueImports.month, month), eq(revenueImports.createdBy, actor.id));
  const setAside: BatchItem<"sqlite">[] = sliced ? [discardedOnlyQuery(earlier)] : [...discardStagedQueries(earlier)];
  await db().batch([
    ...(setAside as [BatchItem<"sqlite">]),
    db()
      .insert(revenueImports)
      .values({
        id: importId,
        month,
        status: "staged",
        fileName: s.fileName,
        rowCount: s.rowCount,
        entryCount: entries.length,
        netCents: priced.netCents,
        amountCents: priced.amountCents,
        shareBp: s.shareBp,
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
        rows: s.rowCount,
        entries: entries.length,
        net_cents: priced.netCents,
        exact_total: formatDec(rounded.exact),
      },
    }),
  ]);
  try {
    const inserts: BatchItem<"sqlite">[] = [];
    for (let i = 0; i < entries.length; i += ENTRY_ROWS_PER_INSERT) inserts.push(entryInsertQuery(entries.slice(i, i + ENTRY_ROWS_PER_INSERT)));
    for (let i = 0; i < videoLines.length; i += ENTRY_ROWS_PER_INSERT) inserts.push(videoLineInsertQuery(videoLines.slice(i, i + ENTRY_ROWS_PER_INSERT)));
    const perBatch = sliced ? SLICED_STATEMENTS_PER_BATCH : STATEMENTS_PER_BATCH;
    for (let i = 0; i < inserts.length; i += perBatch) {
      const chunk = inserts.slice(i, i + perBatch) as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];
      if (sliced) await sliced.pause();
      await db().batch(chunk);
    }
  } catch (error) {
    if (sliced) await db().batch([discardedOnlyQuery(eq(revenueImports.id, importId))]);
    else await discardStaged(importId);
    throw error;
  }
}

/**
 * Staging in slices (a revenue report's Workflow step, docs/decisions/0344): batches of at most
 * 5,000 rows with `pause` between them, and an earlier preview (or a failed attempt) only marked
 * discarded here — its entries are deleted afterwards in slice steps of their own, not in one DELETE.
 */
export type Sliced = { pause: () => Promise<void> };
const SLICED_STATEMENTS_PER_BATCH = 5;

/** The staged imports `where` selects marked discarded, their entries left for a slice step (invisible meanwhile: countedEntries). */
export function discardedOnlyQuery(where: SQL | undefined) {
  return db()
    .update(revenueImports)
    .set({ status: "discarded" })
    .where(and(eq(revenueImports.status, "staged"), where));
}

/**
 * Discards the staged imports `where` selects (besides 'staged'): their entries (with their video
 * lines, by cascade) first, while the imports still read 'staged', then the guarded status update.
 * For a caller's batch, so a commit racing with it either went live first (no longer staged: untouched)
 * or finds its import discarded.
 */
export function discardStagedQueries(where: SQL | undefined) {
  const staged = and(eq(revenueImports.status, "staged"), where);
  return [
    db()
      .delete(ledgerEntries)
      .where(inArray(ledgerEntries.importId, db().select({ id: revenueImports.id }).from(revenueImports).where(staged))),
    db().update(revenueImports).set({ status: "discarded" }).where(staged),
  ] as const;
}

/** A staged import's entries go and the import is marked discarded (a loser of a race, an abandoned preview). */
export async function discardStaged(importId: string): Promise<boolean> {
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
