import { and, asc, eq, gt, inArray, lte, ne, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import {
  LEAF_MATCHED,
  LEAF_OTHER_MONTH,
  LEAF_UNMATCHED,
  ledgerEntries,
  revenueImports,
  revenueMonths,
  revenueReportLeaves,
  revenueReportPeople,
  revenueReportProblems,
  revenueReports,
  revenueReportSums,
  revenueReportTallies,
} from "~/db/schema";
import { peopleByCreatorIds, peopleByIds } from "~/modules/accounts/accounts.server";
import { channelOwnersByChannelIds } from "~/modules/channels/channels.server";
import { clipsByVideoIds, splitChangesByLink } from "~/modules/clipping/clipping.server";
import { auditQuery } from "~/platform/audit.server";
import { db, inJsonList } from "~/platform/db.server";
import { getSettings } from "~/platform/settings.server";
import { agreementEndsOf } from "./agreement.server";
import { type ClipRow, clipSplitEntries } from "./clip-split";
import { centsHalfUp, formatDec, subDec } from "./decimal";
import { referredOf } from "./import-match.server";
import { type Entry, pricePeopleSlice, referralEntriesFromNets, referredNets, type VideoLine } from "./import-price";
import { letOthersIn, problemsInsert } from "./import-report-read.server";
import { discardedOnlyQuery, entryInsertQuery, videoLineInsertQuery } from "./import-stage.server";
import { PAYMENT_MESSAGES as M } from "./messages";
import { type LineFact, PREVIEW_LINES_SHOWN, previewLines } from "./preview-lines.server";
import { readPeriod, type SlashOrder, slashMonth } from "./period";
import { REPORT_PROBLEMS_KEPT } from "./report-messages";
import { CSV_MESSAGES, type RevenueFormat } from "./revenue-csv";
import { fromNano } from "./revenue-stream";
import type { Leaf } from "./revenue-totals";
import { creatorShareBpAt, revisedSharesOfQuery } from "./share.server";
import type { ImportPreview } from "./types";

// A revenue report's stage in bounded steps (issue 45 §1, docs/decisions/0345, 0350). Where the one
// `stage` step of 0344 read every sum of the report, matched, priced and staged the month in memory
// (248 MiB of V8 heap at 100,000 creators), each step here holds one page of rows or one slice of
// people, and passes on only cursors and counters; what crosses people goes through D1 work tables:
//
//   match i     pages of sums → one leaf row per sum (its person, or the problem it is)
//   problems    the other-month sums and the unmatched groups → the report's problems, by line
//   people i    pages of leaves by person → each person's exact sum, its cents rounded down and remainder
//   round i     the month's left-over cents to the largest remainders (ties by id): roundMonth's share
//   import      the import row (staged, its totals written by the summary)
//   price i     slices of ≤ 2,000 people (and ≤ SLICE_ROWS leaves) → their music entries, per-video
//               lines and their cents of each clip (a tally)
//   clips i     pages of clips → the clip split's entries from the clip's cents summed over slices
//   referral i  pages of earning people → each referrer's net from them (a tally); then
//   referral entries i  pages of referrers → the referral entries
//   summary     the import's totals and the report's preview, the report staged
//
// Every write is idempotent: leaf and people rows by key (INSERT OR IGNORE / REPLACE), entries by ids
// derived from (import, kind, person, source), tallies by (key, part of the step that wrote it); so a
// step run again (its answer lost, a retry) writes nothing twice. The 1 ms pause of 0336 before each
// D1 call lets the app's requests in on the thread the steps share locally.

/** Sums (or leaves, people, clips, referrers) one D1 call reads at most. */
export const STAGE_PAGE = 2000;
/** Pages per step: a step of the stage reads at most PAGES_PER_STEP × its page, and returns counters. */
const PAGES_PER_STEP = 5;
/** People priced in one step at most (0345). */
export const SLICE_PEOPLE = 2000;
/** Leaves (sums of the month) a price step reads at most, unless one person alone has more. */
export const SLICE_ROWS = 5000;
/** Rows per INSERT (one JSON parameter) and statements per batch, as 0344's sliced staging: 5,000 rows a call. */
const ROWS_PER_INSERT = 1000;
const STATEMENTS_PER_BATCH = 5;

/** Sizes the tests make small (2 people a slice, 3 sums a page) to cross every boundary. */
export type StageSizes = { page: number; slicePeople: number; sliceRows: number };
export const STAGE_SIZES: StageSizes = { page: STAGE_PAGE, slicePeople: SLICE_PEOPLE, sliceRows: SLICE_ROWS };

/** Runs one durable step: the Workflow's `step.do`, or (in tests) the work itself. */
export type StageStepRunner = <T extends Rpc.Serializable<T>>(name: string, work: () => Promise<T>) => Promise<T>;

export type StagedResult = { status: (typeof revenueReports.$inferSelect)["status"]; importId: string | null };

/** Problems a preview lists, as the small-file import does. */
const PROBLEMS_SHOWN = 500;
const NANO_SCALE = 9;
/** 10^7: a cent in nano. */
const NANO_PER_CENT = 10_000_000n;

type ReportRow = typeof revenueReports.$inferSelect;

async function reportRow(reportId: string): Promise<ReportRow> {
  const report = await db().select().from(revenueReports).where(eq(revenueReports.id, reportId)).get();
  if (!report) throw new Error(`revenue report ${reportId} not found`);
  return report;
}

function finishQuery(reportId: string, set: Partial<typeof revenueReports.$inferInsert>) {
  return db()
    .update(revenueReports)
    .set({ ...set, finishedAt: new Date().toISOString() })
    .where(and(eq(revenueReports.id, reportId), eq(revenueReports.status, "reading")));
}

/** The order of the report's day/month dates, from what the range steps counted (period.ts slashOrderOf). */
function slashOrder(r: { slashDmy: number; slashMdy: number; slashScore: number }): SlashOrder | null {
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
async function withStableIds(importId: string, entries: Entry[], videoLines: VideoLine[] = []): Promise<void> {
  const renamed = new Map<string, string>();
  for (const e of entries) {
    const id = await entryId(importId, e.sourceKind, e.userId, e.sourceId ?? "");
    renamed.set(e.id, id);
    e.id = id;
  }
  for (const l of videoLines) l.entryId = renamed.get(l.entryId) ?? l.entryId;
}

/** Entries then their video lines, INSERT OR IGNORE, ROWS_PER_INSERT a statement, the pause before each batch. */
async function writeEntries(entries: Entry[], videoLines: VideoLine[]): Promise<void> {
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
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The lines a preview shows of `facts` and of those kept so far: at most PREVIEW_LINES_SHOWN. */
export function topLines(kept: readonly LineFact[], facts: readonly LineFact[]): LineFact[] {
  return [...kept, ...facts].sort(byLine).slice(0, PREVIEW_LINES_SHOWN);
}

const creditedFact = (e: Entry): LineFact => ({
  userId: e.userId,
  sourceKind: e.sourceKind,
  sourceId: e.sourceId ?? "",
  note: e.note ?? null,
  netCents: e.netCents,
  amountCents: e.amountCents,
  credited: true,
});

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

type SumKey = { period: string; channelId: string; creatorId: string; videoId: string };
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
async function previewBase(report: ReportRow, totals: MatchTotals, problemCount: number): Promise<ImportPreview> {
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

export type PeopleStep = { after: string | null; done: boolean; people: number; nano: string; floors: string };

/**
 * Step `stage people i`: the matched leaves by person in pages → each person's exact sum (nano), its
 * cents rounded down and its sub-cent remainder (INSERT OR REPLACE). A page ends at a person's
 * boundary (the last person of a full page is read again in the next one), or is one person alone.
 */
export async function peopleStep(reportId: string, after: string | null, page: number): Promise<PeopleStep> {
  const l = revenueReportLeaves;
  const out: PeopleStep = { after, done: false, people: 0, nano: "0", floors: "0" };
  let nano = 0n;
  let floors = 0n;
  for (let p = 0; p < PAGES_PER_STEP; p++) {
    await letOthersIn();
    const from = out.after;
    const rows = await db()
      .select({ userId: l.userId, nano: sql<string>`cast(${l.amountNano} as text)` })
      .from(l)
      .where(and(eq(l.reportId, reportId), eq(l.kind, LEAF_MATCHED), from === null ? undefined : gt(l.userId, from)))
      .orderBy(asc(l.userId))
      .limit(page)
      .all();
    if (rows.length === 0) {
      out.done = true;
      break;
    }
    const people = new Map<string, { nano: bigint; leaves: number }>();
    const full = rows.length === page;
    const lastUser = rows[rows.length - 1]?.userId ?? "";
    if (full && rows[0]?.userId === lastUser) {
      // One person fills the page: their sum in one aggregate (their leaves, however many).
      await letOthersIn();
      const one = await db()
        .select({ nano: sql<string>`cast(sum(${l.amountNano}) as text)`, leaves: sql<number>`count(*)` })
        .from(l)
        .where(and(eq(l.reportId, reportId), eq(l.kind, LEAF_MATCHED), eq(l.userId, lastUser)))
        .get();
      people.set(lastUser, { nano: BigInt(one?.nano ?? "0"), leaves: one?.leaves ?? 0 });
    } else {
      for (const r of rows) {
        // A full page's last person may go on in the next page: read again there, whole.
        if (full && r.userId === lastUser) break;
        const person = people.get(r.userId) ?? { nano: 0n, leaves: 0 };
        person.nano += BigInt(r.nano);
        person.leaves += 1;
        people.set(r.userId, person);
      }
    }
    const list = [...people].map(([userId, v]) => ({ userId, nano: v.nano, floor: v.nano / NANO_PER_CENT, rem: v.nano % NANO_PER_CENT, leaves: v.leaves }));
    for (let i = 0; i < list.length; i += ROWS_PER_INSERT) {
      const json = JSON.stringify(
        list
          .slice(i, i + ROWS_PER_INSERT)
          .map((x) => [x.userId, x.nano.toString(), x.floor.toString(), Number(x.rem), x.leaves, rankKey(Number(x.rem), x.userId)]),
      );
      await letOthersIn();
      await db().run(
        sql`insert or replace into ${revenueReportPeople} (report_id, user_id, nano, floor_cents, rem, leaves, rank_key, bump)
            select ${reportId}, json_extract(value, '$[0]'), cast(json_extract(value, '$[1]') as integer), cast(json_extract(value, '$[2]') as integer),
                   json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]'), 0 from json_each(${json}) where true`,
      );
    }
    for (const x of list) {
      nano += x.nano;
      floors += x.floor;
    }
    out.people += list.length;
    out.after = list.at(-1)?.userId ?? out.after;
    if (!full) {
      out.done = true;
      break;
    }
  }
  out.nano = nano.toString();
  out.floors = floors.toString();
  return out;
}

/** The month's cents (its exact sum rounded half up once) and the cents left after every person's were rounded down. */
export function monthCents(nano: bigint, floors: bigint): { totalCents: bigint; left: number } {
  const totalCents = centsHalfUp({ n: nano, s: NANO_SCALE });
  return { totalCents, left: Number(totalCents - floors) };
}

/**
 * A person's place in the month's rounding as one text key: the largest remainder first, ties by user
 * id (apportion's order over people sorted by id) — (9,999,999 − rem) in seven digits, then the id.
 */
export function rankKey(rem: number, userId: string): string {
  return `${String(9_999_999 - rem).padStart(7, "0")}${userId}`;
}

export type RoundStep = { after: string | null; bumped: number };

/**
 * Step `stage round i`: the next people in rank order get one cent more, `left` in all, a page a
 * call down the rank index (one index range after the last key). `bump` is set, not added: a
 * retried step sets the same people again.
 */
export async function roundStep(reportId: string, after: string | null, left: number, page: number): Promise<RoundStep> {
  const t = revenueReportPeople;
  const out: RoundStep = { after, bumped: 0 };
  for (let p = 0; p < PAGES_PER_STEP && out.bumped < left; p++) {
    const from = out.after;
    await letOthersIn();
    const next = await db()
      .select({ userId: t.userId, rankKey: t.rankKey })
      .from(t)
      .where(and(eq(t.reportId, reportId), from === null ? undefined : gt(t.rankKey, from)))
      .orderBy(asc(t.rankKey))
      .limit(Math.min(page, left - out.bumped))
      .all();
    if (next.length === 0) break;
    await letOthersIn();
    await db()
      .update(t)
      .set({ bump: 1 })
      .where(
        and(
          eq(t.reportId, reportId),
          inJsonList(
            t.userId,
            next.map((n) => n.userId),
          ),
        ),
      );
    out.bumped += next.length;
    out.after = next[next.length - 1]?.rankKey ?? out.after;
  }
  return out;
}

export type ImportStep = { importId: string; shareBp: number; settingBp: number };

/**
 * Step `stage import`: the import row, staged, with its totals still zero (written by the summary),
 * this admin's earlier staged previews of the month set aside (their entries go in slice steps), and
 * the import's id kept on the report so a failed stage sets it aside too.
 */
export async function importStep(reportId: string): Promise<ImportStep> {
  const report = await reportRow(reportId);
  const importId = crypto.randomUUID();
  const [shareBp, settings] = await Promise.all([creatorShareBpAt(report.month), getSettings()]);
  const createdBy = report.createdBy ?? "";
  await letOthersIn();
  await db().batch([
    discardedOnlyQuery(and(eq(revenueImports.month, report.month), eq(revenueImports.createdBy, createdBy))),
    db()
      .insert(revenueImports)
      .values({
        id: importId,
        month: report.month,
        status: "staged",
        fileName: report.fileName,
        rowCount: report.rowsRead,
        entryCount: 0,
        netCents: 0,
        amountCents: 0,
        shareBp,
        createdBy: report.createdBy,
        format: (report.format ?? "shortbeat") as RevenueFormat,
      }),
    db()
      .update(revenueReports)
      .set({ importId })
      .where(and(eq(revenueReports.id, reportId), eq(revenueReports.status, "reading"))),
  ]);
  return { importId, shareBp, settingBp: settings.referralBonusBp };
}

/** Counters the price, clip and referral steps return; the summary adds them up. */
export type PricedCounters = {
  entries: number;
  netCents: number;
  amountCents: number;
  notCredited: number;
  /** Lines of the preview: entries and music lines not credited. */
  lineCount: number;
  maxShareBp: number;
  top: LineFact[];
};
export type PriceStep = PricedCounters & { after: string | null; done: boolean; people: number };

/**
 * Step `stage price i`: the next slice of people (≤ slicePeople, and ≤ sliceRows of their leaves
 * unless one person alone has more): their leaves summed per group (channel, creator, video) in one
 * GROUP BY over the slice's range of ids, in the file's order; each person's cents from the people
 * step's floor and bump; their shares' facts and the clips of their videos read for them alone;
 * priced by pricePeopleSlice; entries and video lines written with their deterministic ids; each
 * claimed clip's cents from this slice kept as a tally (the slice's first person is its part).
 */
export async function priceStep(reportId: string, step: ImportStep, after: string | null, sizes: StageSizes): Promise<PriceStep> {
  const report = await reportRow(reportId);
  const t = revenueReportPeople;
  await letOthersIn();
  const fetched = await db()
    .select({ userId: t.userId, floorCents: t.floorCents, bump: t.bump, leaves: t.leaves })
    .from(t)
    .where(and(eq(t.reportId, reportId), after === null ? undefined : gt(t.userId, after)))
    .orderBy(asc(t.userId))
    .limit(sizes.slicePeople)
    .all();
  const slice: typeof fetched = [];
  let rows = 0;
  for (const p of fetched) {
    if (slice.length > 0 && rows + p.leaves > sizes.sliceRows) break;
    slice.push(p);
    rows += p.leaves;
  }
  const empty: PriceStep = { after, done: true, people: 0, entries: 0, netCents: 0, amountCents: 0, notCredited: 0, lineCount: 0, maxShareBp: 0, top: [] };
  const lastUser = slice.at(-1)?.userId;
  if (lastUser === undefined) return empty;
  const l = revenueReportLeaves;
  await letOthersIn();
  const groups = await db()
    .select({
      userId: l.userId,
      channelId: l.channelId,
      videoId: l.videoId,
      nano: sql<string>`cast(sum(${l.amountNano}) as text)`,
      firstLine: sql<number>`min(${l.firstLine})`,
    })
    .from(l)
    .where(and(eq(l.reportId, reportId), eq(l.kind, LEAF_MATCHED), after === null ? undefined : gt(l.userId, after), lte(l.userId, lastUser)))
    .groupBy(l.userId, l.channelId, l.creatorId, l.videoId)
    .all();
  groups.sort((a, b) => a.firstLine - b.firstLine);
  const leaves: Leaf[] = groups.map((g) => ({ userId: g.userId, sourceId: g.channelId, videoId: g.videoId, amount: fromNano(BigInt(g.nano)) }));
  const userIds = slice.map((p) => p.userId);
  await letOthersIn();
  const [revisedRows, ends, clips] = await Promise.all([
    revisedSharesOfQuery(userIds, report.month).all(),
    agreementEndsOf(userIds),
    clipsByVideoIds(leaves.flatMap((x) => (x.videoId ? [x.videoId] : []))),
  ]);
  const priced = pricePeopleSlice({
    month: report.month,
    importId: step.importId,
    leaves,
    personCents: new Map(slice.map((p) => [p.userId, BigInt(p.floorCents + p.bump)])),
    shares: { shareBp: step.shareBp, revised: new Map(revisedRows.map((r) => [r.userId, r.shareBp])), ends },
    clips,
  });
  await withStableIds(step.importId, priced.entries, priced.videoLines);
  await writeEntries(priced.entries, priced.videoLines);
  if (priced.clipCents.size > 0) {
    const videoOf = new Map(clips.map((c) => [c.clipId, c.videoId]));
    await writeTallies(
      reportId,
      "c",
      slice[0]?.userId ?? "",
      [...priced.clipCents].map(([clipId, cents]) => ({ key: clipId, value: cents, note: videoOf.get(clipId) ?? "" })),
    );
  }
  return {
    after: lastUser,
    done: fetched.length < sizes.slicePeople && slice.length === fetched.length,
    people: slice.length,
    ...counters(priced.entries, priced.notCredited, priced.ended),
  };
}

function counters(entries: readonly Entry[], notCredited: number, ended: readonly LineFact[] = []): PricedCounters {
  return {
    entries: entries.length,
    netCents: entries.reduce((s, e) => s + e.netCents, 0),
    amountCents: entries.reduce((s, e) => s + e.amountCents, 0),
    notCredited,
    lineCount: entries.length + ended.length,
    maxShareBp: entries.reduce((m, e) => Math.max(m, e.shareBp), 0),
    top: topLines([], [...entries.map(creditedFact), ...ended]),
  };
}

/** Tally rows of one part (INSERT OR REPLACE: a retried step writes its part again, the same). */
async function writeTallies(reportId: string, kind: "c" | "r", part: string, rows: { key: string; value: number; note?: string }[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const json = JSON.stringify(rows.slice(i, i + ROWS_PER_INSERT).map((r) => [r.key, r.value, r.note ?? null]));
    await letOthersIn();
    await db().run(
      sql`insert or replace into ${revenueReportTallies} (report_id, kind, key, part, value, note)
          select ${reportId}, ${kind}, json_extract(value, '$[0]'), ${part}, json_extract(value, '$[1]'), json_extract(value, '$[2]') from json_each(${json}) where true`,
    );
  }
}

/** A page of a tally's keys after `after`, each with its parts summed. */
async function tallyPage(reportId: string, kind: "c" | "r", after: string | null, page: number) {
  const t = revenueReportTallies;
  await letOthersIn();
  return db()
    .select({ key: t.key, value: sql<number>`sum(${t.value})`, note: sql<string | null>`max(${t.note})` })
    .from(t)
    .where(and(eq(t.reportId, reportId), eq(t.kind, kind), after === null ? undefined : gt(t.key, after)))
    .groupBy(t.key)
    .orderBy(asc(t.key))
    .limit(page)
    .all();
}

export type PageStep = PricedCounters & { after: string | null; done: boolean };

/**
 * Step `stage clips i`: a page of claimed clips with their cents summed over the slices (creator and
 * clipper may have been priced in two), split as priceImport splits them (clipSplitEntries): the
 * clips' rows, their links' split changes, the clippers' names, the creators' shares and ends.
 */
export async function clipsStep(reportId: string, step: ImportStep, after: string | null, page: number): Promise<PageStep> {
  const report = await reportRow(reportId);
  const tallies = await tallyPage(reportId, "c", after, page);
  const netOf = new Map(tallies.map((x) => [x.key, x.value]));
  await letOthersIn();
  const found: ClipRow[] = await clipsByVideoIds(tallies.map((x) => x.note ?? ""));
  const claimed = found.filter((c) => netOf.has(c.clipId)).sort((a, b) => cmp(a.clipId, b.clipId));
  const creators = [...new Set(claimed.map((c) => c.creatorUserId))];
  await letOthersIn();
  const [changes, clipperNames, revisedRows, ends] = await Promise.all([
    splitChangesByLink(claimed.flatMap((c) => (c.linkId ? [c.linkId] : []))),
    peopleByIds(claimed.map((c) => c.clipperUserId)),
    revisedSharesOfQuery(creators, report.month).all(),
    agreementEndsOf(creators),
  ]);
  const revised = new Map(revisedRows.map((r) => [r.userId, r.shareBp]));
  const clipped = clipSplitEntries({
    month: report.month,
    importId: step.importId,
    claimed,
    netOf,
    facts: { changes, clipperNames },
    creatorShareBpOf: (userId) => revised.get(userId) ?? step.shareBp,
    endsOf: (userId) => ends.get(userId) ?? null,
    newId: () => crypto.randomUUID(),
  });
  await withStableIds(step.importId, clipped.entries);
  await writeEntries(clipped.entries, []);
  return { after: tallies.at(-1)?.key ?? after, done: tallies.length < page, ...counters(clipped.entries, clipped.notCredited) };
}

/**
 * Step `stage referral i`: a page of the import's earning people (their music and clip nets, GROUP BY
 * person over the import's entries, in its unique index's order) → who referred them → each
 * referrer's net from this page, a tally (the page's first person is its part).
 */
export async function referralStep(reportId: string, step: ImportStep, after: string | null, page: number): Promise<{ after: string | null; done: boolean }> {
  const report = await reportRow(reportId);
  const e = ledgerEntries;
  await letOthersIn();
  const nets = await db()
    .select({ userId: e.userId, net: sql<number>`sum(${e.netCents})` })
    .from(e)
    .where(and(eq(e.importId, step.importId), inArray(e.sourceKind, ["music", "clip"]), after === null ? undefined : gt(e.userId, after)))
    .groupBy(e.userId)
    .orderBy(asc(e.userId))
    .limit(page)
    .all();
  const first = nets[0]?.userId;
  if (first === undefined) return { after, done: true };
  await letOthersIn();
  const referred = await referredOf(nets.map((n) => n.userId));
  const byReferrer = referredNets(new Map(nets.map((n) => [n.userId, n.net])), report.month, { settingBp: step.settingBp, referred });
  await writeTallies(
    reportId,
    "r",
    first,
    [...byReferrer].map(([key, value]) => ({ key, value })),
  );
  return { after: nets.at(-1)?.userId ?? after, done: nets.length < page };
}

/** Step `stage referral entries i`: a page of referrers with their nets summed over the pages → their referral entries. */
export async function referralEntriesStep(reportId: string, step: ImportStep, maxShareBp: number, after: string | null, page: number): Promise<PageStep> {
  const report = await reportRow(reportId);
  const tallies = await tallyPage(reportId, "r", after, page);
  const entries = referralEntriesFromNets(new Map(tallies.map((x) => [x.key, x.value])), maxShareBp, step.settingBp, report.month, step.importId, () =>
    crypto.randomUUID(),
  );
  await withStableIds(step.importId, entries);
  await writeEntries(entries, []);
  // The referral bonus is the platform's: not in the import's net and amount (priceImport).
  const c = counters(entries, 0);
  return { after: tallies.at(-1)?.key ?? after, done: tallies.length < page, ...c, netCents: 0, amountCents: 0, maxShareBp: 0 };
}

/**
 * Step `stage summary`: the import's totals from the steps' counters (the exact sum and the single
 * rounding's remainder from the people step's nano sum), its audit event, the preview (its top lines
 * with their people), and the report staged. An import set aside meanwhile (another preview of this
 * admin's) fails the report instead.
 */
export async function summaryStep(
  reportId: string,
  step: ImportStep,
  totals: MatchTotals & { nano: string; totalCents: string },
  priced: PricedCounters,
  referral: PricedCounters,
): Promise<StagedResult> {
  const report = await reportRow(reportId);
  if (report.status !== "reading") return { status: report.status, importId: report.status === "staged" ? report.importId : null };
  const exact = fromNano(BigInt(totals.nano));
  const remainder = subDec(exact, { n: BigInt(totals.totalCents), s: 2 });
  const entryCount = priced.entries + referral.entries;
  await letOthersIn();
  const [updated] = await db().batch([
    db()
      .update(revenueImports)
      .set({ entryCount, netCents: priced.netCents, amountCents: priced.amountCents, exactTotal: formatDec(exact), roundingRemainder: formatDec(remainder) })
      .where(and(eq(revenueImports.id, step.importId), eq(revenueImports.status, "staged")))
      .returning({ id: revenueImports.id }),
  ]);
  if (updated.length === 0) {
    await db().batch([finishQuery(reportId, { status: "failed", error: "The preview was replaced while it was being staged. Upload the report again." })]);
    return { status: "failed", importId: null };
  }
  const top = topLines(priced.top, referral.top);
  const channels = await channelOwnersByChannelIds(top.flatMap((f) => (f.sourceKind === "music" && f.sourceId ? [f.sourceId] : [])));
  const base = await previewBase(report, totals, 0);
  const preview: ImportPreview = {
    ...base,
    matched: totals.matched,
    importId: step.importId,
    notCredited: priced.notCredited,
    entryCount,
    remainder: formatDec(remainder),
    netCents: priced.netCents,
    amountCents: priced.amountCents,
    lines: await previewLines(top, channels),
    lineCount: priced.lineCount + referral.lineCount,
  };
  await letOthersIn();
  await db().batch([
    auditQuery({
      eventType: "revenue_import_staged",
      severity: "low",
      userId: report.createdBy,
      details: {
        import_id: step.importId,
        month: report.month,
        format: preview.format,
        rows: report.rowsRead,
        entries: entryCount,
        net_cents: priced.netCents,
        exact_total: formatDec(exact),
      },
    }),
    finishQuery(reportId, { status: "staged", importId: step.importId, preview: JSON.stringify(preview), rowsMatched: totals.matched }),
  ]);
  return { status: "staged", importId: step.importId };
}

/** Counters of several steps added up (the run's loop keeps only these between steps). */
export function addCounters(a: PricedCounters, b: PricedCounters): PricedCounters {
  return {
    entries: a.entries + b.entries,
    netCents: a.netCents + b.netCents,
    amountCents: a.amountCents + b.amountCents,
    notCredited: a.notCredited + b.notCredited,
    lineCount: a.lineCount + b.lineCount,
    maxShareBp: Math.max(a.maxShareBp, b.maxShareBp),
    top: topLines(a.top, b.top),
  };
}
export const NO_COUNTERS: PricedCounters = { entries: 0, netCents: 0, amountCents: 0, notCredited: 0, lineCount: 0, maxShareBp: 0, top: [] };

/**
 * The stage's steps in order (the Workflow's loop; tests run it with their own runner and sizes):
 * only cursors and counters pass between steps, so a replayed Workflow rebuilds them from the
 * steps' stored results.
 */
export async function stageInSteps(reportId: string, outer: StageStepRunner, sizes: StageSizes = STAGE_SIZES, prefix = ""): Promise<StagedResult> {
  // Each step first says which it is on the report (one short update): the admin's progress and the bench's step windows.
  const run: StageStepRunner = (name, work) =>
    outer(name, async () => {
      await db()
        .update(revenueReports)
        .set({ stageStep: name })
        .where(and(eq(revenueReports.id, reportId), eq(revenueReports.status, "reading")));
      return work();
    });
  const early = await run(`${prefix}stage begin`, () => beginStage(reportId));
  if (early) return early;
  const match: MatchTotals = { matched: 0, otherRows: 0, unmatchedRows: 0, monthNano: "0" };
  let monthNano = 0n;
  let sumAfter: SumKey | null = null;
  for (let i = 0; ; i++) {
    const from: SumKey | null = sumAfter;
    const r: MatchStep = await run(`${prefix}stage match ${i}`, () => matchStep(reportId, from, sizes.page));
    match.matched += r.matched;
    match.otherRows += r.otherRows;
    match.unmatchedRows += r.unmatchedRows;
    monthNano += BigInt(r.monthNano);
    sumAfter = r.after;
    if (r.done) break;
  }
  match.monthNano = monthNano.toString();
  const refused = await run(`${prefix}stage problems`, () => problemsStep(reportId, match));
  if (refused) return refused;

  let nano = 0n;
  let floors = 0n;
  let personAfter: string | null = null;
  for (let i = 0; ; i++) {
    const from: string | null = personAfter;
    const r: PeopleStep = await run(`${prefix}stage people ${i}`, () => peopleStep(reportId, from, sizes.page));
    nano += BigInt(r.nano);
    floors += BigInt(r.floors);
    personAfter = r.after;
    if (r.done) break;
  }
  const { totalCents, left } = monthCents(nano, floors);
  let remAfter: string | null = null;
  for (let i = 0, bumped = 0; bumped < left; i++) {
    const from: string | null = remAfter;
    const r: RoundStep = await run(`${prefix}stage round ${i}`, () => roundStep(reportId, from, left - bumped, sizes.page));
    if (r.bumped === 0) throw new Error(`revenue report ${reportId}: ${left - bumped} cents left with no one to give them to`);
    bumped += r.bumped;
    remAfter = r.after;
  }

  const imported = await run(`${prefix}stage import`, () => importStep(reportId));
  let priced = NO_COUNTERS;
  let after: string | null = null;
  for (let i = 0; ; i++) {
    const from: string | null = after;
    const r: PriceStep = await run(`${prefix}stage price ${i}`, () => priceStep(reportId, imported, from, sizes));
    priced = addCounters(priced, r);
    after = r.after;
    if (r.done) break;
  }
  after = null;
  for (let i = 0; ; i++) {
    const from: string | null = after;
    const r: PageStep = await run(`${prefix}stage clips ${i}`, () => clipsStep(reportId, imported, from, sizes.page));
    priced = addCounters(priced, r);
    after = r.after;
    if (r.done) break;
  }
  let referral = NO_COUNTERS;
  if (imported.settingBp > 0) {
    after = null;
    for (let i = 0; ; i++) {
      const from: string | null = after;
      const r: { after: string | null; done: boolean } = await run(`${prefix}stage referral ${i}`, () => referralStep(reportId, imported, from, sizes.page));
      after = r.after;
      if (r.done) break;
    }
    after = null;
    const maxShareBp = priced.maxShareBp;
    for (let i = 0; ; i++) {
      const from: string | null = after;
      const r: PageStep = await run(`${prefix}stage referral entries ${i}`, () => referralEntriesStep(reportId, imported, maxShareBp, from, sizes.page));
      referral = addCounters(referral, r);
      after = r.after;
      if (r.done) break;
    }
  }
  const totals = { ...match, nano: nano.toString(), totalCents: totalCents.toString() };
  return run(`${prefix}stage summary`, () => summaryStep(reportId, imported, totals, priced, referral));
}

/** The import a stage that did not finish had begun (the report's import id while still not staged): set aside, its entries left for the slice steps. */
export async function setAsideUnfinished(reportId: string): Promise<void> {
  const report = await db()
    .select({ importId: revenueReports.importId, status: revenueReports.status })
    .from(revenueReports)
    .where(eq(revenueReports.id, reportId))
    .get();
  if (!report?.importId || report.status === "staged") return;
  await db().batch([discardedOnlyQuery(eq(revenueImports.id, report.importId))]);
}
