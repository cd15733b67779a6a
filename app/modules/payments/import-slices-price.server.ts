import { and, asc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import { LEAF_MATCHED, ledgerEntries, revenueImports, revenueReportLeaves, revenueReportPeople, revenueReports, revenueReportTallies } from "~/db/schema";
import { peopleByIds } from "~/modules/accounts/accounts.server";
import { clipsByVideoIds, splitChangesByLink } from "~/modules/clipping/clipping.server";
import { db } from "~/platform/db.server";
import { getSettings } from "~/platform/settings.server";
import { agreementEndsOf } from "./agreement.server";
import { type ClipRow, clipSplitEntries } from "./clip-split";
import { referredOf } from "./import-match.server";
import { type Entry, pricePeopleSlice, referralEntriesFromNets, referredNets } from "./import-price";
import { letOthersIn } from "./import-report-read.server";
import { cmp, creditedFact, ROWS_PER_INSERT, reportRow, type StageSizes, topLines, withStableIds, writeEntries } from "./import-slices-common.server";
import { discardedOnlyQuery } from "./import-stage.server";
import type { LineFact } from "./preview-lines.server";
import type { RevenueFormat } from "./revenue-csv";
import { fromNano } from "./revenue-stream";
import type { Leaf } from "./revenue-totals";
import { creatorShareBpAt, revisedSharesOfQuery } from "./share.server";

// A revenue report's stage, the import and its entries (issue 45 §1, docs/decisions/0350): `stage
// import`, the `stage price i` slices of people, the `stage clips i` pages and the referral steps, with
// the counters they return and the tallies that carry clip and referral cents across slices.

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
