import type { ledgerEntries } from "~/db/schema";
import { CLIPPER_DEFAULT_SHARE_BPS } from "~/lib/constants";
import { clipsByVideoIds, splitChangesByLink } from "~/modules/clipping/clipping.server";
import { splitClipMonth } from "~/modules/clipping/split-days";
import { peopleByIds } from "~/modules/accounts/accounts.server";
import { daysInMonth, earnedPart } from "./calendar";
import { formatCents } from "./money";
import { formatBp } from "~/lib/split";

// The clip split of the revenue import (docs/decisions/0150-clip-split.md). A row whose video_id
// names a clip (approved by its creator at some point), and whose person is that clip's creator or
// clipper, is music-pool revenue of the clip: the creator's share of it is divided between clipper
// and creator by the split in force (pro rata by UTC days in a month it changes), to the cent.
// Each side gets its own 'clip' entry (paid in their own payouts); the creator's note says what
// went to the clipper, the clipper's what the split was.

type Entry = typeof ledgerEntries.$inferInsert;
type Row = { videoId: string | null; netCents: number };

export type ClipSplitPlan = {
  /** Takes the row when it is clip revenue (true); the import then leaves it out of its own totals. */
  claim(row: Row, userId: string): boolean;
  /** The clipper's and the creator's entries of every claimed clip. */
  entries(month: string, creatorShareBpOf: (creatorUserId: string) => number, importId: string, endsOf?: (userId: string) => string | null): Promise<Entry[]>;
  /** Clips of the last entries() call whose creator's agreement had ended before the month (nothing credited). */
  notCredited(): number;
};

export async function clipSplitPlan(rows: readonly Row[]): Promise<ClipSplitPlan> {
  const found = await clipsByVideoIds(rows.flatMap((r) => (r.videoId ? [r.videoId] : [])));
  const byVideo = new Map(found.map((c) => [c.videoId, c]));
  const totals = new Map<string, number>();
  let notCredited = 0;
  return {
    notCredited: () => notCredited,
    claim(row, userId) {
      const clip = row.videoId ? byVideo.get(row.videoId) : undefined;
      if (!clip || (clip.creatorUserId !== userId && clip.clipperUserId !== userId)) return false;
      totals.set(clip.clipId, (totals.get(clip.clipId) ?? 0) + row.netCents);
      return true;
    },
    async entries(month, creatorShareBpOf, importId, endsOf = () => null) {
      notCredited = 0;
      if (totals.size === 0) return [];
      const claimed = found.filter((c) => totals.has(c.clipId));
      const [changes, names] = await Promise.all([
        splitChangesByLink(claimed.flatMap((c) => (c.linkId ? [c.linkId] : []))),
        peopleByIds(claimed.map((c) => c.clipperUserId)),
      ]);
      const out: Entry[] = [];
      for (const clip of claimed) {
        // The creator's agreement end (decision 0128) bounds the clip's revenue before the split: the
        // clip's money is the creator's music pool, so the clipper's part follows it (decision 0154).
        const endsOn = endsOf(clip.creatorUserId);
        const earned = earnedPart(totals.get(clip.clipId) ?? 0, month, endsOn);
        if (earned.days === 0) {
          notCredited += 1;
          continue;
        }
        const netCents = earned.netCents;
        const ended = earned.days ? `; ${earned.days} of ${daysInMonth(month)} days, to the agreement's end on ${endsOn}` : "";
        const creatorShareBp = creatorShareBpOf(clip.creatorUserId);
        const result = splitClipMonth(netCents, creatorShareBp, month, (clip.linkId && changes.get(clip.linkId)) || [], CLIPPER_DEFAULT_SHARE_BPS);
        const splitText = result.segments.map((s) => `${formatBp(s.bps)}${result.segments.length > 1 ? ` on days ${s.fromDay}–${s.toDay}` : ""}`).join(", ");
        const clipper = names.get(clip.clipperUserId);
        const clipperName = clipper?.fullName || clipper?.email || "the clipper";
        // The clip's net revenue is attributed to each side in proportion to their part, so the
        // import's totals count it once: the two nets add up to the clip's, the two parts to the pool.
        const clipperNet = result.poolCents > 0 ? Number((BigInt(netCents) * BigInt(result.clipperCents)) / BigInt(result.poolCents)) : 0;
        const base = { month, sourceKind: "clip" as const, sourceId: clip.clipId, importId, shareBp: creatorShareBp };
        out.push(
          {
            ...base,
            id: crypto.randomUUID(),
            userId: clip.clipperUserId,
            netCents: clipperNet,
            amountCents: result.clipperCents,
            note: `${clip.url}: ${splitText} of the creator's share ${formatCents(result.poolCents)}${ended}`,
          },
          {
            ...base,
            id: crypto.randomUUID(),
            userId: clip.creatorUserId,
            netCents: netCents - clipperNet,
            amountCents: result.creatorCents,
            note: `${clip.url} by ${clipperName}: ${formatCents(result.clipperCents)} to the clipper (${splitText}) of your share ${formatCents(result.poolCents)}${ended}`,
          },
        );
      }
      return out;
    },
  };
}
