import type { ledgerEntries } from "~/db/schema";
import { CLIPPER_DEFAULT_SHARE_BPS } from "~/lib/constants";
import { formatBp } from "~/lib/split";
import { type SplitChange, splitClipMonth } from "~/modules/clipping/split-days";
import { daysInMonth, earnedPart } from "./calendar";
import { formatCents } from "./money";

// The clip split of the revenue import (docs/decisions/0150-clip-split.md). A row whose video_id
// names a clip (approved by its creator at some point), and whose person is that clip's creator or
// clipper, is music-pool revenue of the clip: the creator's share of it is divided between clipper
// and creator by the split in force (pro rata by UTC days in a month it changes), to the cent.
// Each side gets its own 'clip' entry (paid in their own payouts); the creator's note says what
// went to the clipper, the clipper's what the split was. Pure: import-match.server.ts reads the
// clips, their split changes and the clippers' names; import-price.ts calls this.

type Entry = typeof ledgerEntries.$inferInsert;

/** A clip the import's rows may name (clipsByVideoIds' row). */
export type ClipRow = { clipId: string; videoId: string; url: string; creatorUserId: string; clipperUserId: string; linkId: string | null };

/** What the clip split is priced from: the clips of the file's videos, their links' split changes, the clippers' names. */
export type ClipFacts = {
  clips: readonly ClipRow[];
  changes: ReadonlyMap<string, readonly SplitChange[]>;
  clipperNames: ReadonlyMap<string, { fullName: string | null; email: string }>;
};

/** The clip a row's video names, when the row's person is its creator or clipper (its revenue is then split). */
export function claimedClip(byVideo: ReadonlyMap<string, ClipRow>, videoId: string | null, userId: string): ClipRow | undefined {
  const clip = videoId ? byVideo.get(videoId) : undefined;
  return clip && (clip.creatorUserId === userId || clip.clipperUserId === userId) ? clip : undefined;
}

export type ClipSplitInput = {
  month: string;
  importId: string;
  /** The clips claimed, in the order read, with their net cents summed over the rows. */
  claimed: readonly ClipRow[];
  netOf: ReadonlyMap<string, number>;
  facts: Pick<ClipFacts, "changes" | "clipperNames">;
  creatorShareBpOf: (creatorUserId: string) => number;
  endsOf: (userId: string) => string | null;
  newId: () => string;
};

/** The clipper's and the creator's entries of every claimed clip, and how many clips earned nothing (the creator's agreement had ended). */
export function clipSplitEntries(input: ClipSplitInput): { entries: Entry[]; notCredited: number } {
  const { month, importId, facts } = input;
  let notCredited = 0;
  const out: Entry[] = [];
  for (const clip of input.claimed) {
    // The creator's agreement end (decision 0128) bounds the clip's revenue before the split: the
    // clip's money is the creator's music pool, so the clipper's part follows it (decision 0154).
    const endsOn = input.endsOf(clip.creatorUserId);
    const earned = earnedPart(input.netOf.get(clip.clipId) ?? 0, month, endsOn);
    if (earned.days === 0) {
      notCredited += 1;
      continue;
    }
    const netCents = earned.netCents;
    const ended = earned.days ? `; ${earned.days} of ${daysInMonth(month)} days, to the agreement's end on ${endsOn}` : "";
    const creatorShareBp = input.creatorShareBpOf(clip.creatorUserId);
    const result = splitClipMonth(netCents, creatorShareBp, month, (clip.linkId && facts.changes.get(clip.linkId)) || [], CLIPPER_DEFAULT_SHARE_BPS);
    const splitText = result.segments.map((s) => `${formatBp(s.bps)}${result.segments.length > 1 ? ` on days ${s.fromDay}–${s.toDay}` : ""}`).join(", ");
    const clipper = facts.clipperNames.get(clip.clipperUserId);
    const clipperName = clipper?.fullName || clipper?.email || "the clipper";
    // The clip's net revenue is attributed to each side in proportion to their part, so the
    // import's totals count it once: the two nets add up to the clip's, the two parts to the pool.
    const clipperNet = result.poolCents > 0 ? Number((BigInt(netCents) * BigInt(result.clipperCents)) / BigInt(result.poolCents)) : 0;
    const base = { month, sourceKind: "clip" as const, sourceId: clip.clipId, importId, shareBp: creatorShareBp };
    out.push(
      {
        ...base,
        id: input.newId(),
        userId: clip.clipperUserId,
        netCents: clipperNet,
        amountCents: result.clipperCents,
        note: `${clip.url}: ${splitText} of the creator's share ${formatCents(result.poolCents)}${ended}`,
      },
      {
        ...base,
        id: input.newId(),
        userId: clip.creatorUserId,
        netCents: netCents - clipperNet,
        amountCents: result.creatorCents,
        note: `${clip.url} by ${clipperName}: ${formatCents(result.clipperCents)} to the clipper (${splitText}) of your share ${formatCents(result.poolCents)}${ended}`,
      },
    );
  }
  return { entries: out, notCredited };
}
