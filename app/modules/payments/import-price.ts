import { expectAt } from "~/lib/arrays";
import type { ledgerEntries, ledgerVideoLines } from "~/db/schema";
import { split } from "~/lib/split";
import { daysInMonth, earnedPart } from "./calendar";
import { type ClipFacts, type ClipRow, claimedClip, clipSplitEntries } from "./clip-split";
import type { LineFact } from "./preview-lines.server";
import { bonusShareBp, inReferralTerm } from "./referral-rules";
import { type Leaf, type RoundedMonth, roundMonth, roundPersonLeaves, shareByWeights } from "./revenue-totals";

// The revenue import's pricing (docs/decisions/0220-revenue-amounts-and-rounding.md, 0150, 0173):
// from the matched rows (exact decimals per person, channel and video) and what was read about the
// people, the statement lines to stage. Pure: the month is rounded once, clip rows are split
// between clipper and creator, each person's share applied (a revised share, an agreement's end),
// the per-video lines shared to the cent, and the referral bonus added from the platform's side.

export type Entry = typeof ledgerEntries.$inferInsert;
export type VideoLine = typeof ledgerVideoLines.$inferInsert;

/** The share at the month: the standard share, each person's accepted revised share in force (0129), agreements' end dates (0128). */
export type ShareFacts = { shareBp: number; revised: ReadonlyMap<string, number>; ends: ReadonlyMap<string, string> };

/** The referral bonus setting and, for the people who may earn, who referred them (docs/decisions/0173). */
export type ReferralFacts = {
  settingBp: number;
  /** referrerBanned: 1 when the referrer is banned. */
  referred: readonly { userId: string; referrerId: string | null; channelLinkedAt: string | null; referrerBanned: number }[];
};

export type PriceInput = {
  month: string;
  importId: string;
  leaves: readonly Leaf[];
  shares: ShareFacts;
  clips: ClipFacts;
  referral: ReferralFacts;
};

export type PricedImport = {
  rounded: RoundedMonth;
  /** Music entries, then clip entries, then referral entries. */
  entries: Entry[];
  videoLines: VideoLine[];
  /** Music lines and clips that earned nothing: the agreement had ended before the month. */
  notCredited: number;
  /** The music lines not credited, for the preview's lines. */
  ended: LineFact[];
  /** Net and amount of the music and clip entries (the referral bonus is the platform's). */
  netCents: number;
  amountCents: number;
};

type Total = { userId: string; sourceId: string; netCents: number; videos: Map<string, number> };

export function priceImport(input: PriceInput, newId: () => string = () => crypto.randomUUID()): PricedImport {
  const { month, importId, leaves, shares } = input;
  const { shareBp, revised, ends } = shares;
  // Rounded once: the month half up, shared down to each person, channel and video (decision 0220).
  const rounded = roundMonth(leaves);
  // Rows that name a clip's video are split between clipper and creator (docs/decisions/0150).
  const {
    entries,
    videoLines,
    notCredited: musicUncredited,
    ended,
    clipCents: clipNets,
  } = priceLeaves(leaves, rounded.cents, input.clips.clips, month, importId, shares, newId);
  const clipped = clipSplitEntries({
    month,
    importId,
    claimed: input.clips.clips.filter((c) => clipNets.has(c.clipId)),
    netOf: clipNets,
    facts: input.clips,
    creatorShareBpOf: (userId) => revised.get(userId) ?? shareBp,
    endsOf: (userId) => ends.get(userId) ?? null,
    newId,
  });
  entries.push(...clipped.entries);
  const notCredited = musicUncredited + clipped.notCredited;
  const netCents = entries.reduce((s, e) => s + e.netCents, 0);
  const amountCents = entries.reduce((s, e) => s + e.amountCents, 0);
  entries.push(...referralBonusEntries(entries, month, importId, input.referral, newId)); // issue 18: paid from the platform's side
  return { rounded, entries, videoLines, notCredited, ended, netCents, amountCents };
}

/**
 * The referral entries of an import, from its music and clip entries (issue 18; docs/decisions/0173,
 * 0155): each referrer whose referred creators earned music revenue this month, within the first 12
 * months of the referred creator's term, gets ONE 'referral' entry (source '', so no statement shows
 * what one referred person earned): the referred creators' net summed, the bonus share and the
 * amount. Paid from the platform's side (the referred creator's own entries are untouched, the bonus
 * never exceeds the platform's part). A banned referrer earns nothing new. Empty when the bonus is off.
 */
export function referralBonusEntries(earning: readonly Entry[], month: string, importId: string, facts: ReferralFacts, newId: () => string): Entry[] {
  const netByUser = new Map<string, number>();
  let creatorShareBp = 0;
  for (const e of earning) {
    // A clip entry's net is the part of the clip's music-pool revenue attributed to that side.
    if (e.sourceKind !== "music" && e.sourceKind !== "clip") continue;
    netByUser.set(e.userId, (netByUser.get(e.userId) ?? 0) + e.netCents);
    creatorShareBp = Math.max(creatorShareBp, e.shareBp);
  }
  return referralEntriesFromNets(referredNets(netByUser, month, facts), creatorShareBp, facts.settingBp, month, importId, newId);
}

// ---------------------------------------------------------------------------------------------
// Pricing in slices of people (docs/decisions/0345): the parts of priceImport, each of which sees
// only a slice of people, or one number per person, clip or referred person — what a stage in
// bounded steps can hold. Composed, they give priceImport's entries exactly (ids aside).
// ---------------------------------------------------------------------------------------------

export type PeopleSliceInput = {
  month: string;
  importId: string;
  /** Every leaf of the slice's people (and only theirs), in the file's order. */
  leaves: readonly Leaf[];
  /** Each person's cents of the month (revenue-totals.ts monthPersonCents). */
  personCents: ReadonlyMap<string, bigint>;
  /** The share facts; `revised` and `ends` need only hold the slice's people. */
  shares: ShareFacts;
  /** The clips of the slice's videos (a clip claimed by a leaf of the slice is among them). */
  clips: readonly ClipRow[];
};

export type PricedPeopleSlice = {
  entries: Entry[];
  videoLines: VideoLine[];
  notCredited: number;
  ended: LineFact[];
  /** The slice's cents of each claimed clip: summed over every slice, they are the clip's net (its creator and clipper may be in two slices). */
  clipCents: Map<string, number>;
};

/** A slice of people's music entries and per-video lines, and their cents of claimed clips: priceImport's per-person part. */
export function pricePeopleSlice(input: PeopleSliceInput, newId: () => string = () => crypto.randomUUID()): PricedPeopleSlice {
  const { month, importId, leaves, shares } = input;
  const byPerson = new Map<string, number[]>();
  leaves.forEach((leaf, i) => {
    const own = byPerson.get(leaf.userId);
    if (own) own.push(i);
    else byPerson.set(leaf.userId, [i]);
  });
  const cents: number[] = new Array(leaves.length).fill(0);
  for (const [userId, own] of byPerson) {
    const out = roundPersonLeaves(
      own.map((i) => expectAt(leaves, i, "a leaf")),
      input.personCents.get(userId) ?? 0n,
    );
    own.forEach((i, k) => {
      cents[i] = expectAt(out, k, "a person's leaf cents");
    });
  }
  return priceLeaves(leaves, cents, input.clips, month, importId, shares, newId);
}

/**
 * Rounded leaves priced (priceImport's and a slice's one way): the clip rows' cents set aside by
 * clip, the rest summed per person and source into music entries (an agreement's end pro rata, the
 * person's share) with their per-video lines shared to the cent.
 */
function priceLeaves(
  leaves: readonly Leaf[],
  cents: readonly number[],
  clips: readonly ClipRow[],
  month: string,
  importId: string,
  shares: ShareFacts,
  newId: () => string,
): PricedPeopleSlice {
  const { shareBp, revised, ends } = shares;
  const byVideo = new Map<string, ClipRow>(clips.map((c) => [c.videoId, c]));
  const clipCents = new Map<string, number>();
  const totals = new Map<string, Total>();
  leaves.forEach((leaf, i) => {
    const netCents = expectAt(cents, i, "a rounded leaf");
    const clip = claimedClip(byVideo, leaf.videoId || null, leaf.userId);
    if (clip) {
      clipCents.set(clip.clipId, (clipCents.get(clip.clipId) ?? 0) + netCents);
      return;
    }
    const key = `${leaf.userId}\u0000${leaf.sourceId}`;
    const t = totals.get(key) ?? { userId: leaf.userId, sourceId: leaf.sourceId, netCents: 0, videos: new Map<string, number>() };
    t.netCents += netCents;
    t.videos.set(leaf.videoId, (t.videos.get(leaf.videoId) ?? 0) + netCents);
    totals.set(key, t);
  });
  let notCredited = 0;
  const ended: LineFact[] = [];
  const videoLines: VideoLine[] = [];
  const entries: Entry[] = [];
  for (const t of totals.values()) {
    const earned = earnedPart(t.netCents, month, ends.get(t.userId) ?? null);
    if (earned.days === 0) {
      notCredited += 1;
      ended.push({ userId: t.userId, sourceKind: "music", sourceId: t.sourceId, netCents: t.netCents, amountCents: 0, credited: false });
      continue;
    }
    const bp = revised.get(t.userId) ?? shareBp;
    const id = newId();
    const amountCents = split(earned.netCents, bp).share;
    const videos = [...t.videos.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (videos.some(([v]) => v !== "")) {
      const nets = shareByWeights(
        earned.netCents,
        videos.map(([, c]) => c),
      );
      const amounts = shareByWeights(amountCents, nets);
      videos.forEach(([videoId], k) => {
        videoLines.push({ entryId: id, videoId, netCents: expectAt(nets, k, "a video's net"), amountCents: expectAt(amounts, k, "a video's amount") });
      });
    }
    entries.push({
      id,
      userId: t.userId,
      month,
      sourceKind: "music",
      sourceId: t.sourceId,
      netCents: earned.netCents,
      shareBp: bp,
      amountCents,
      importId,
      note: earned.days ? `${earned.days} of ${daysInMonth(month)} days, to the agreement's end on ${ends.get(t.userId)}` : null,
    });
  }
  return { entries, videoLines, notCredited, ended, clipCents };
}

/**
 * The referral part across slices: the bonus share needs the largest share of ALL the import's music
 * and clip entries (`maxShareBp`, a counter over the slices), and a referrer's entry sums the nets of
 * all their referred people — `referredNets` gives a slice of referred people's part to add up, and
 * `referralEntriesFromNets` the entries from the sums. referralBonusEntries in one piece is the same.
 */
export function referredNets(netByUser: ReadonlyMap<string, number>, month: string, facts: ReferralFacts): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of facts.referred) {
    if (!netByUser.has(r.userId)) continue;
    if (!r.referrerId || r.referrerBanned || !inReferralTerm(month, r.channelLinkedAt)) continue;
    out.set(r.referrerId, (out.get(r.referrerId) ?? 0) + (netByUser.get(r.userId) ?? 0));
  }
  return out;
}

export function referralEntriesFromNets(
  netByReferrer: ReadonlyMap<string, number>,
  maxShareBp: number,
  settingBp: number,
  month: string,
  importId: string,
  newId: () => string,
): Entry[] {
  if (settingBp <= 0) return [];
  const shareBp = bonusShareBp(settingBp, maxShareBp);
  if (shareBp === 0) return [];
  const out: Entry[] = [];
  for (const [userId, netCents] of netByReferrer) {
    const amountCents = split(netCents, shareBp).share;
    if (amountCents === 0) continue;
    out.push({ id: newId(), userId, month, sourceKind: "referral", sourceId: "", netCents, shareBp, amountCents, importId });
  }
  return out;
}
