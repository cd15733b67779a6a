import { and, eq } from "drizzle-orm";
import { ledgerEntries } from "~/db/schema";
import { CLIPPER_DEFAULT_SHARE_BPS } from "~/lib/constants";
import { type Actor, authorize } from "~/lib/permissions";
import { batch, builtOnce, db, inJsonList } from "~/platform/db.server";
import { splitChangesFrom, splitChangesQuery } from "~/modules/clipping/clipping.server";
import { daySegments } from "~/modules/clipping/split-days";
import { monthLabel, monthOf } from "./calendar";
import { revisedSharesOfQuery, standardShareBp } from "./share.server";
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

/** The counted 'clip' entries of these clips (slot `clipIds`, a JSON list), built once per isolate (db.server builtOnce). */
const clipEntriesQuery = builtOnce((slot) =>
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
    .where(and(eq(ledgerEntries.sourceKind, "clip"), inJsonList(ledgerEntries.sourceId, slot("clipIds")), countedEntries())),
);

export async function clipEarnings(actor: Actor, clips: readonly ClipRef[], today = new Date()): Promise<ClipEarnings> {
  authorize(actor, "payments", "readOwn");
  // Only clips the viewer is a side of: the creator or the clipper.
  const own = clips.filter((c) => c.creatorUserId === actor.id || c.clipperUserId === actor.id);
  const currentMonth = monthOf(today);
  const byClip: Record<string, ClipEarning> = {};
  if (own.length === 0) return { byClip, currentMonth, currentMonthLabel: monthLabel(currentMonth) };
  const ids = [...new Set(own.map((c) => c.id))];
  const creators = [...new Set(own.map((c) => c.creatorUserId))];
  // One round trip: the clips' ledger entries (the ids as ONE bound parameter, however many), the
  // split history of their links and the creators' revised shares. The standard share comes from
  // the settings, which the isolate keeps.
  const [[rows, changeRows, revisedRows], standardBp] = await Promise.all([
    batch([
      clipEntriesQuery({ clipIds: JSON.stringify(ids) }),
      splitChangesQuery([...new Set(own.flatMap((c) => (c.linkId ? [c.linkId] : [])))]),
      revisedSharesOfQuery(creators, currentMonth),
    ]),
    standardShareBp(),
  ]);
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
