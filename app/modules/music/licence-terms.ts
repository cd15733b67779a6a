import { CREATOR_SHARE_PERCENT, PAYOUT_DAY_OF_MONTH } from "~/lib/constants";

// The licence terms in plain words: what the Creator Agreement (spec, 'Agreement terms') means for
// one licensed track. One text for the certificate page and its PDF; the agreement itself
// (/terms-of-service) is what binds.

export function licenceTermLines(appName: string, title: string, artist: string): string[] {
  return [
    `You may use “${title}” by ${artist} in short-form videos on the channels named on this certificate, including monetized videos.`,
    `Revenue share: you receive ${CREATOR_SHARE_PERCENT}% of the net revenue from the licensed music in your monetized short videos (net means the platform's revenue less taxes and fees), paid on or around the ${PAYOUT_DAY_OF_MONTH}th of each month once ${appName} has received the funds from the platform.`,
    "Exclusivity: during your Creator Agreement's term (12 months from first linking a channel, renewing for further 12-month periods) you may not use other third-party licensed-music services for revenue on short videos. Still allowed: videos without third-party music, music from the video platform's own library, other royalty-free libraries with no revenue-share deal, and other brand work.",
    "The file is for your videos only: do not share, sell or publish the audio on its own.",
    "If the track is withdrawn from the library, this licence stays valid for videos published before the withdrawal date.",
  ];
}

/** The line under the terms (the page links the words "Creator Agreement"). */
export const LICENCE_TERMS_GOVERNED = ["The", "Creator Agreement", "governs this licence (law of England and Wales)."] as const;
