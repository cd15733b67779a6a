import { and, eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { revenueReports } from "~/db/schema";
import { db } from "~/platform/db.server";
import type { Entry, VideoLine } from "./import-price";
import { letOthersIn } from "./import-report-read.server";
import { entryInsertQuery, videoLineInsertQuery } from "./import-stage.server";
import { type LineFact, PREVIEW_LINES_SHOWN } from "./preview-lines.server";
import type { SlashOrder } from "./period";

// What the steps of a revenue report's stage share (issue 45 §1, docs/decisions/0350; the stage's
// order in import-report-slices.server.ts): the page and slice sizes, the report row, the entries'
// deterministic ids and their writing, and the preview's top lines.

/** Sums (or leaves, people, clips, referrers) one D1 call reads at most. */
export const STAGE_PAGE = 2000;
/** Pages per step: a step of the stage reads at most PAGES_PER_STEP × its page, and returns counters. */
export const PAGES_PER_STEP = 5;
/** People priced in one step at most (0345). */
export const SLICE_PEOPLE = 2000;
/** Leaves (sums of the month) a price step reads at most, unless one person alone has more. */
export const SLICE_ROWS = 5000;
/** Rows per INSERT (one JSON parameter) and statements per batch, as 0344's sliced staging: 5,000 rows a call. */
export const ROWS_PER_INSERT = 1000;
const STATEMENTS_PER_BATCH = 5;

/** Sizes the tests make small (2 people a slice, 3 sums a page) to cross every boundary. */
export type StageSizes = { page: number; slicePeople: number; sliceRows: number };
export const STAGE_SIZES: StageSizes = { page: STAGE_PAGE, slicePeople: SLICE_PEOPLE, sliceRows: SLICE_ROWS };

/** Runs one durable step: the Workflow's `step.do`, or (in tests) the work itself. */
export type StageStepRunner = <T extends Rpc.Serializable<T>>(name: string, work: () => Promise<T>) => Promise<T>;

export type StagedResult = { status: (typeof revenueReports.$inferSelect)["status"]; importId: string | null };

export type ReportRow = typeof revenueReports.$inferSelect;

export async function reportRow(reportId: string): Promise<ReportRow> {
  const report = await db().select().from(revenueReports).where(eq(revenueReports.id, reportId)).get();
  if (!report) throw new Error(`revenue report ${reportId} not found`);
  return report;
}

export function finishQuery(reportId: string, set: Partial<typeof revenueReports.$inferInsert>) {
  return db()
    .update(revenueReports)
    .set({ ...set, finishedAt: new Date().toISOString() })
    .where(and(eq(revenueReports.id, reportId), eq(revenueReports.status, "reading")));
}

/** The order of the report's day/month dates, from what the range steps counted (period.ts slashOrderOf). */
export function slashOrder(r: { slashDmy: number; slashMdy: number; slashScore: number }): SlashOrder | null {
  if (r.slashDmy && r.slashMdy) return null;
  if (r.slashDmy) return "dmy";
  if (r.slashMdy) return "mdy";
  return r.slashScore > 0 ? "dmy" : "mdy";
}

/** A deterministic entry id: the same import, kind, person and source give the same id in any retry (UUID-shaped, from SHA-256). */
async function entryId(importId: string, kind: string, userId: string, sourceId: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${importId}\u0000${kind}\u0000${userId}\u0000${sourceId}`)));
  const hex = [...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Entries (and their video lines) given their deterministic ids, in place of the pricing's random ones. */
export async function withStableIds(importId: string, entries: Entry[], videoLines: VideoLine[] = []): Promise<void> {
  const renamed = new Map<string, string>();
  for (const e of entries) {
    const id = await entryId(importId, e.sourceKind, e.userId, e.sourceId ?? "");
    renamed.set(e.id, id);
    e.id = id;
  }
  for (const l of videoLines) l.entryId = renamed.get(l.entryId) ?? l.entryId;
}

/** Entries then their video lines, INSERT OR IGNORE, ROWS_PER_INSERT a statement, the pause before each batch. */
export async function writeEntries(entries: Entry[], videoLines: VideoLine[]): Promise<void> {
  const inserts: BatchItem<"sqlite">[] = [];
  for (let i = 0; i < entries.length; i += ROWS_PER_INSERT) inserts.push(entryInsertQuery(entries.slice(i, i + ROWS_PER_INSERT), true));
  for (let i = 0; i < videoLines.length; i += ROWS_PER_INSERT) inserts.push(videoLineInsertQuery(videoLines.slice(i, i + ROWS_PER_INSERT), true));
  for (let i = 0; i < inserts.length; i += STATEMENTS_PER_BATCH) {
    await letOthersIn();
    await db().batch(inserts.slice(i, i + STATEMENTS_PER_BATCH) as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  }
}

/** The preview's order (previewLines): net, then amount, largest first; ties by person and source so every run keeps the same. */
function byLine(a: LineFact, b: LineFact): number {
  return b.netCents - a.netCents || b.amountCents - a.amountCents || cmp(a.userId, b.userId) || cmp(a.sourceKind, b.sourceKind) || cmp(a.sourceId, b.sourceId);
}
export const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The lines a preview shows of `facts` and of those kept so far: at most PREVIEW_LINES_SHOWN. */
export function topLines(kept: readonly LineFact[], facts: readonly LineFact[]): LineFact[] {
  return [...kept, ...facts].sort(byLine).slice(0, PREVIEW_LINES_SHOWN);
}

export const creditedFact = (e: Entry): LineFact => ({
  userId: e.userId,
  sourceKind: e.sourceKind,
  sourceId: e.sourceId ?? "",
  note: e.note ?? null,
  netCents: e.netCents,
  amountCents: e.amountCents,
  credited: true,
});
