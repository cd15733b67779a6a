import { and, eq, type SQL, sql } from "drizzle-orm";
import { ledgerEntries } from "~/db/schema";
import { CLIPPER_DEFAULT_SHARE_BPS } from "~/lib/constants";
import { type Actor, authorize } from "~/lib/permissions";
import { alongsideSession, sessionUserOf } from "~/modules/accounts/accounts.server";
import { builtOnce, db } from "~/platform/db.server";
import { clipCreatorsOf, clipIdsOf, linkIdsOf, splitChangesAmong, splitChangesFrom } from "~/modules/clipping/clipping.server";
import { daySegments } from "~/modules/clipping/split-days";
import { monthLabel, monthOf } from "./calendar";
import { revisedSharesAmong, standardShareBp } from "./share.server";
import type { ClipEarning, ClipEarnings } from "./types";
import { countedEntries } from "./counted";

// Per-clip earnings on /clipping (issue 31 §3, docs/decisions/0255): what the ledger holds for each
// clip, never a projection. A clip's revenue arrives with the revenue report of its month (imported
// after the month ends, docs/decisions/0121); the import writes one 'clip' entry per side (0150).
// Shown per clip: the latest month imported for it with its status (Estimated until the platform
// pays, then Finalized, Paid), both sides' parts and the pool they split, the split by days of that
// month, the viewer's part over every month, and that part per 1,000 of the clip's views.

type ClipRef = { id: string; creatorUserId: string; clipperUserId: string; views: number; linkId: string | null };

const STATUS_RANK = { estimated: 0, finalized: 1, paid: 2 } as const;

/** The counted 'clip' entries of the clips in `clipIds` (an SQL condition over the entry's source id). */
const clipEntriesWhere = (clipIds: SQL) =>
  db()
    .select({
      userId: ledgerEntries.userId,
      month: ledgerEntries.month,
      clipId: ledgerEntries.sourceId,
      amountCents: ledgerEntries.amountCents,
      shareBp: ledgerEntries.shareBp,
      status: ledgerEntries.status,
    })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.sourceKind, "clip"), clipIds, countedEntries()));

// The three statements over the session's user (slots `sessionId` and `month`), built once per
// isolate (db.server builtOnce) to ride in the session lookup's batch (docs/decisions/0347): the
// entries of every clip the user is a side of, the approved split changes of their links, the
// revised shares of those clips' creators. Supersets of what the page's clips need, never anyone
// else's clips.
const clipEntriesOfSession = builtOnce((slot) => {
  const me = sessionUserOf(slot);
  return clipEntriesWhere(sql`${ledgerEntries.sourceId} in (${clipIdsOf(me)})`);
});
const splitChangesOfSession = builtOnce((slot) => splitChangesAmong(linkIdsOf(sessionUserOf(slot))));
const revisedSharesOfSession = builtOnce((slot) => revisedSharesAmong(clipCreatorsOf(sessionUserOf(slot)), slot<string>("month")));

type Args = Parameters<typeof alongsideSession>[0];

/**
 * Starts reading the ledger's rows for /clipping's per-clip earnings in the session lookup's batch:
 * call it before the guard, and hand the guard's actor and the page's clips to the function it
 * returns (only then are the rows used). No round trip of its own.
 */
export function startClipEarnings(args: Args, today = new Date()): (actor: Actor, clips: readonly ClipRef[]) => Promise<ClipEarnings> {
  const month = monthOf(today);
  const rows = Promise.all([
    alongsideSession(args, (session) => clipEntriesOfSession(session)),
    alongsideSession(args, (session) => splitChangesOfSession(session)),
    alongsideSession(args, (session) => revisedSharesOfSession({ ...session, month })),
  ]);
  // The guard is awaited before the rows: a failure here must not surface as an unhandled rejection.
  rows.catch(() => undefined);
  return async (actor, clips) => {
    authorize(actor, "payments", "readOwn");
    const [[entries, changeRows, revisedRows], standardBp] = await Promise.all([rows, standardShareBp()]);
    return earningsOf(actor, clips, entries, changeRows, revisedRows, standardBp, month);
  };
}

type EntryRow = Awaited<ReturnType<ReturnType<typeof clipEntriesOfSession>["all"]>>[number];

function earningsOf(
  actor: Actor,
  clips: readonly ClipRef[],
  rows: readonly EntryRow[],
  changeRows: readonly { linkId: string; at: string | null; bps: number }[],
  revisedRows: readonly { userId: string; shareBp: number }[],
  standardBp: number,
  currentMonth: string,
): ClipEarnings {
  // Only clips the viewer is a side of: the creator or the clipper.
  const own = clips.filter((c) => c.creatorUserId === actor.id || c.clipperUserId === actor.id);
  const byClip: Record<string, ClipEarning> = {};
  if (own.length === 0) return { byClip, currentMonth, currentMonthLabel: monthLabel(currentMonth) };
  const creators = [...new Set(own.map((c) => c.creatorUserId))];
  const changes = splitChangesFrom(changeRows);
  const revised = new Map(revisedRows.map((r) => [r.userId, r.shareBp]));
  const shareNow = new Map(creators.map((id) => [id, revised.get(id) ?? standardBp]));
  for (const clip of own) {
    const mine = rows.filter((r) => r.clipId === clip.id);
    const history = (clip.linkId && changes.get(clip.linkId)) || [];
    const base = {
      creatorShareBpNow: shareNow.get(clip.creatorUserId) ?? 0,
      clipperBpsNow: daySegments(currentMonth, history, CLIPPER_DEFAULT_SHARE_BPS).at(-1)?.bps ?? CLIPPER_DEFAULT_SHARE_BPS,
    };
    if (mine.length === 0) {
      byClip[clip.id] = { ...base, latest: null, yourTotalCents: 0, yourCentsPerThousandViews: null };
      continue;
    }
    // The first row of the latest month (mine is not empty here).
    const latestRow = mine.reduce((a, r) => (r.month > a.month ? r : a));
    const month = latestRow.month;
    const ofMonth = mine.filter((r) => r.month === month);
    const part = (userId: string) => ofMonth.filter((r) => r.userId === userId).reduce((s, r) => s + r.amountCents, 0);
    const clipperCents = part(clip.clipperUserId);
    const creatorCents = part(clip.creatorUserId);
    const yours = ofMonth.filter((r) => r.userId === actor.id);
    const status = (yours.length > 0 ? yours : ofMonth).reduce<keyof typeof STATUS_RANK>(
      (s, r) => (STATUS_RANK[r.status] < STATUS_RANK[s] ? r.status : s),
      "paid",
    );
    const yourTotalCents = mine.filter((r) => r.userId === actor.id).reduce((s, r) => s + r.amountCents, 0);
    byClip[clip.id] = {
      ...base,
      latest: {
        month,
        label: monthLabel(month),
        status,
        poolCents: clipperCents + creatorCents,
        clipperCents,
        creatorCents,
        creatorShareBp: latestRow.shareBp,
        segments: daySegments(month, history, CLIPPER_DEFAULT_SHARE_BPS),
      },
      yourTotalCents,
      // Cents (with a fraction) per 1,000 views: the viewer's part so far over the clip's views now.
      yourCentsPerThousandViews: clip.views > 0 ? (yourTotalCents * 1000) / clip.views : null,
    };
  }
  return { byClip, currentMonth, currentMonthLabel: monthLabel(currentMonth) };
}
