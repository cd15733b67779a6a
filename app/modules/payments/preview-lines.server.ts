import { peopleByIds } from "~/modules/accounts/accounts.server";
import { formatDec } from "./decimal";
import type { PricedImport } from "./import-price";
import type { PreviewLine, SourceKind } from "./types";

// The lines of a revenue preview (issue 42 §1, "money a person can check"): each says the person
// (name and e-mail) and the channel or clip it is credited from, with its net and amount, so the
// admin can check who gets what before committing. The largest first, capped: the action's data
// carries only the lines shown and the count of all of them.

/** Lines a preview shows; the rest are counted ("…and 35 more lines"). */
export const PREVIEW_LINES_SHOWN = 20;

/** A line before its person is looked up: an entry to be written, or a matched total not credited. */
export type LineFact = {
  userId: string;
  sourceKind: SourceKind;
  sourceId: string;
  note?: string | null;
  netCents: number;
  amountCents: number;
  credited: boolean;
};

/** A clip entry's note starts with the clip's URL ("https://…: 30% of …" or "https://… by Ann: …"). */
function clipUrl(fact: LineFact): string {
  const note = fact.note ?? "";
  const end = note.search(/:? /);
  return end > 0 ? note.slice(0, end) : fact.sourceId;
}

export async function previewLines(facts: readonly LineFact[], channelTitles: ReadonlyMap<string, { title: string }>): Promise<PreviewLine[]> {
  const shown = [...facts].sort((a, b) => b.netCents - a.netCents || b.amountCents - a.amountCents).slice(0, PREVIEW_LINES_SHOWN);
  const people = await peopleByIds(shown.map((f) => f.userId));
  return shown.map((f) => {
    const person = people.get(f.userId);
    const kind = f.sourceKind === "clip" ? "clip" : f.sourceKind === "referral" ? "referral" : "music";
    return {
      name: person?.fullName || null,
      email: person?.email ?? "",
      kind,
      source: kind === "clip" ? clipUrl(f) : f.sourceId,
      channelTitle: kind === "music" && f.sourceId ? (channelTitles.get(f.sourceId)?.title ?? null) : null,
      netCents: f.netCents,
      amountCents: f.amountCents,
      credited: f.credited,
    };
  });
}

/**
 * What a staged import's preview says of its priced lines, for a small file (imports.server.ts) and a
 * large report (import-report-stage.server.ts) alike: counts, totals and the lines with their people.
 */
export async function pricedSummary(
  priced: PricedImport,
  match: { matched: number; channels: ReadonlyMap<string, { title: string }> },
  importId: string,
): Promise<{
  matched: number;
  importId: string;
  notCredited: number;
  entryCount: number;
  remainder: string;
  netCents: number;
  amountCents: number;
  lines: PreviewLine[];
  lineCount: number;
}> {
  const facts: LineFact[] = [
    ...priced.entries.map((e) => ({
      userId: e.userId,
      sourceKind: e.sourceKind,
      sourceId: e.sourceId ?? "",
      note: e.note,
      netCents: e.netCents,
      amountCents: e.amountCents,
      credited: true,
    })),
    ...priced.ended,
  ];
  return {
    matched: match.matched,
    importId,
    notCredited: priced.notCredited,
    entryCount: priced.entries.length,
    remainder: formatDec(priced.rounded.remainder),
    netCents: priced.netCents,
    amountCents: priced.amountCents,
    lines: await previewLines(facts, match.channels),
    lineCount: facts.length,
  };
}
