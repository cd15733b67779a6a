import type { SourceKind } from "./types";

// How a statement line names where its money came from, as the person would say it
// (docs/decisions/0321): music on your channel X, your part of clip U for creator Y, campaign Z,
// the referral bonus on creators you referred. Client-safe and pure: the ledger gathers the facts
// (channel titles, clips and their two people) and this says them.

export type SourceFacts = {
  sourceKind: SourceKind;
  sourceId: string;
  note: string | null;
  /** The viewer: a clip line is told from their side. */
  me: string;
  /** A music line's channel title (null when the channel is no longer linked). */
  channelTitle?: string | null;
  /** A clip line's clip with its two people's names (null once the clip is gone). */
  clip?: { url: string; creatorUserId: string; clipperUserId: string; creatorName: string; clipperName: string } | null;
};

/** The detail of a clip note after its "url…: " prefix (the split, the agreement's end). */
function clipDetail(note: string | null): string {
  const at = note?.indexOf(": ") ?? -1;
  return note && at >= 0 ? note.slice(at + 2) : "";
}

export function statementSource(f: SourceFacts): string {
  const withNote = (label: string, sep = ": ") => (f.note ? `${label}${sep}${f.note}` : label);
  switch (f.sourceKind) {
    case "music": {
      const where = f.sourceId
        ? `Music on your channel ${f.channelTitle ?? f.sourceId}`
        : // A creator-level row of the platform's report: the creator's revenue not split by channel.
          "Music on your channels (reported for your creator ID, not by channel)";
      return f.note ? `${where} (${f.note})` : where;
    }
    case "clip": {
      if (!f.clip) return withNote("Clip");
      const detail = clipDetail(f.note);
      const label =
        f.clip.clipperUserId === f.me
          ? `Your part of clip ${f.clip.url} for ${f.clip.creatorName} (the creator)`
          : `Your part of clip ${f.clip.url} by ${f.clip.clipperName} (your clipper)`;
      return detail ? `${label}: ${detail}` : label;
    }
    case "campaign":
      return withNote("Campaign");
    case "referral":
      // One line per month for all referred creators together: no statement shows what one of them earned (decision 0173).
      return withNote("Referral bonus on the creators you referred");
    case "adjustment":
      return withNote("Adjustment");
  }
}
