import { and, isNotNull } from "drizzle-orm";
import { invalid } from "~/lib/errors";
import { growthPeople, inJsonList, peopleByCreatorIds, peopleByIds } from "~/modules/accounts/accounts.server";
import { channelOwnersByChannelIds } from "~/modules/channels/channels.server";
import { clipsByVideoIds, splitChangesByLink } from "~/modules/clipping/clipping.server";
import { db } from "~/platform/db.server";
import { getSettings } from "~/platform/settings.server";
import { agreementEnds } from "./agreement.server";
import { type ClipFacts, type ClipRow, claimedClip } from "./clip-split";
import type { ReferralFacts, ShareFacts } from "./import-price";
import { PAYMENT_MESSAGES as M } from "./messages";
import type { ParsedRevenue, RowProblem } from "./revenue-csv";
import type { Leaf } from "./revenue-totals";
import { creatorShareBpAt, revisedSharesAt } from "./share.server";

// The revenue import's one read (docs/decisions/0121-revenue-import.md): the parsed groups of rows
// matched to people by channel id and creator id, the shares at the month, and — for a file with no
// problem, which will be priced — the clips its videos name with their splits and the referrals of
// the people who earn. Nothing is written; import-price.ts prices from what this returns.

/** The fixed person of a one-person file: a channel id or a creator id that exists. */
export async function fixedPersonOf(person: string): Promise<{ channelId: string | null; creatorId: string | null } | null> {
  const value = person.trim();
  if (!value) return null;
  const [channels, creators] = await Promise.all([channelOwnersByChannelIds([value]), peopleByCreatorIds([value])]);
  if (channels.has(value)) return { channelId: value, creatorId: null };
  if (creators.has(value.toUpperCase())) return { channelId: null, creatorId: value.toUpperCase() };
  throw invalid(M.personUnknown(value), { fieldErrors: { person: M.personUnknown(value) } });
}

export type ImportMatch = {
  /** The file's problems and the rows that match nobody, by line. */
  problems: RowProblem[];
  /** Rows matched to a person. */
  matched: number;
  /** One per matched group: the person, the channel ('' for a creator-level row), the video, the exact amount. */
  leaves: Leaf[];
  /** The file's channels with their owner and title (the preview's lines name them). */
  channels: Map<string, { userId: string; title: string }>;
  shares: ShareFacts;
  /** What pricing needs besides the shares; null when the file has problems (it is not priced). */
  pricing: { clips: ClipFacts; referral: ReferralFacts } | null;
};

export async function matchImport(parsed: ParsedRevenue, month: string): Promise<ImportMatch> {
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
      matched += g.rows ?? g.lines.length;
      // The music share of a channel; a creator-level row (no channel) is the creator's own line.
      leaves.push({ userId: channel?.userId ?? creator?.id ?? "", sourceId: g.channelId ?? "", videoId: g.videoId ?? "", amount: g.amount });
    }
  }
  problems.sort((a, b) => a.line - b.line);
  // The share at the month: the standard share, or a person's accepted revised share in force
  // (docs/decisions/0129); an ended agreement earns nothing after its end date (0128).
  const [shareBp, revised, ends] = await Promise.all([creatorShareBpAt(month), revisedSharesAt(month), agreementEnds()]);
  const shares: ShareFacts = { shareBp, revised, ends };
  if (problems.length > 0) return { problems, matched, leaves, channels, shares, pricing: null };
  const clips = await clipFacts(leaves);
  const referral = await referralFacts(leaves, clips.clips);
  return { problems, matched, leaves, channels, shares, pricing: { clips, referral } };
}

/** The clips the rows' videos name, and for those a row claims, their links' split changes and the clippers' names. */
async function clipFacts(leaves: readonly Leaf[]): Promise<ClipFacts> {
  const found: ClipRow[] = await clipsByVideoIds(leaves.flatMap((l) => (l.videoId ? [l.videoId] : [])));
  const byVideo = new Map(found.map((c) => [c.videoId, c]));
  const claimedIds = new Set(leaves.flatMap((l) => claimedClip(byVideo, l.videoId || null, l.userId)?.clipId ?? []));
  const claimed = found.filter((c) => claimedIds.has(c.clipId));
  if (claimed.length === 0) return { clips: found, changes: new Map(), clipperNames: new Map() };
  const [changes, clipperNames] = await Promise.all([
    splitChangesByLink(claimed.flatMap((c) => (c.linkId ? [c.linkId] : []))),
    peopleByIds(claimed.map((c) => c.clipperUserId)),
  ]);
  return { clips: found, changes, clipperNames };
}

/**
 * The referral bonus setting and the referrals of everyone who may get a music or clip entry (the
 * rows' people and both sides of the clips they claim); not read when the bonus is off.
 */
async function referralFacts(leaves: readonly Leaf[], clips: readonly ClipRow[]): Promise<ReferralFacts> {
  const settingBp = (await getSettings()).referralBonusBp;
  if (settingBp <= 0 || leaves.length === 0) return { settingBp, referred: [] };
  const byVideo = new Map(clips.map((c) => [c.videoId, c]));
  const people = new Set<string>();
  for (const l of leaves) {
    const clip = claimedClip(byVideo, l.videoId || null, l.userId);
    if (clip) people.add(clip.clipperUserId).add(clip.creatorUserId);
    else people.add(l.userId);
  }
  return { settingBp, referred: await referredOf([...people]) };
}

/** Who referred each of these people (those referred at all): the referral bonus's facts for a list of earning people. */
export async function referredOf(userIds: readonly string[]): Promise<ReferralFacts["referred"]> {
  if (userIds.length === 0) return [];
  const p = growthPeople();
  return db()
    .select({ userId: p.userId, referrerId: p.referrerId, channelLinkedAt: p.channelLinkedAt, referrerBanned: p.referrerBanned })
    .from(p)
    .where(and(isNotNull(p.referredBy), inJsonList(p.userId, [...userIds])))
    .all();
}
