import { formatCents } from "~/modules/payments/money";

// The campaign rules that need no database (client-safe, unit-tested): the state a campaign is in
// at a moment, the estimated payout of a submission, and the payout deadline. The SQL guards in
// store.server.ts, lifecycle.server.ts and participate.server.ts say the same in SQL (docs/decisions/0140).

export type StoredCampaignStatus = "draft" | "launched" | "settled";
/** draft → (scheduled) → live → ended → settled: live and ended follow from the dates (or an early end). */
export type CampaignState = "draft" | "scheduled" | "live" | "ended" | "settled";

export const STATE_LABELS: Record<CampaignState, string> = {
  draft: "Draft",
  scheduled: "Scheduled",
  live: "Live",
  ended: "Ended",
  settled: "Settled",
};

/** Campaign payout: up to 60 days after the campaign ends (spec section 9). */
export const PAYOUT_WINDOW_DAYS = 60;
/** The admin pages warn when the payout deadline is this close and the campaign is not payable yet. */
export const DEADLINE_WARNING_DAYS = 14;

type Dated = { status: StoredCampaignStatus; startsAt: string; endsAt: string; endedAt: string | null };

/** The instant the campaign ended or ends: an admin's early end, else its end date. */
export function effectiveEnd(c: Pick<Dated, "endsAt" | "endedAt">): string {
  return c.endedAt && c.endedAt < c.endsAt ? c.endedAt : c.endsAt;
}

/** The state at `now`. ISO-8601 UTC strings of one format compare as text. */
export function campaignState(c: Dated, now: Date = new Date()): CampaignState {
  if (c.status === "draft") return "draft";
  if (c.status === "settled") return "settled";
  const t = now.toISOString();
  if (t >= effectiveEnd(c)) return "ended";
  if (t < c.startsAt) return "scheduled";
  return "live";
}

/** views / 1,000 × rate, rounded down to the cent (never more than was earned). */
export function payoutFor(views: number, rateCents: number): number {
  if (!Number.isSafeInteger(views) || views < 0 || !Number.isSafeInteger(rateCents) || rateCents < 0)
    throw new RangeError("views and rate are non-negative integers");
  return Number((BigInt(views) * BigInt(rateCents)) / 1000n);
}

/** The estimated payout with the budget left (including what this submission already holds). */
export function cappedPayout(views: number, rateCents: number, budgetLeftCents: number): number {
  return Math.max(0, Math.min(payoutFor(views, rateCents), budgetLeftCents));
}

/** What is left of the budget, and whether it is reached ('budget reached' on the pages). */
export function budgetLeft(c: { budgetCents: number; spentCents: number }): { budgetLeftCents: number; budgetReached: boolean } {
  return { budgetLeftCents: Math.max(0, c.budgetCents - c.spentCents), budgetReached: c.spentCents >= c.budgetCents };
}

/** The last day (YYYY-MM-DD, UTC) the campaign's payout may be made: 60 days after it ended. */
export function payoutDeadline(c: Pick<Dated, "endsAt" | "endedAt">): string {
  const d = new Date(effectiveEnd(c));
  d.setUTCDate(d.getUTCDate() + PAYOUT_WINDOW_DAYS);
  return d.toISOString().slice(0, 10);
}

/** Whole days from `now` to the deadline day (negative once it has passed). */
export function daysUntil(day: string, now: Date = new Date()): number {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.round((Date.parse(`${day}T00:00:00Z`) - start) / 86_400_000);
}

/** The statement month (YYYY-MM) a campaign's ledger entries belong to: the month it ended. */
export function ledgerMonthOf(c: Pick<Dated, "endsAt" | "endedAt">): string {
  return effectiveEnd(c).slice(0, 7);
}

export function formatRate(rateCents: number): string {
  return `${formatCents(rateCents)} per 1,000 views`;
}

/** What every view of a campaign shows of it: the brand's brief, the rate and what is left of the budget. */
export type CampaignSummary = {
  id: string;
  slug: string;
  brand: string;
  title: string;
  brief: string;
  rateCents: number;
  budgetLeftCents: number;
  budgetReached: boolean;
};

/**
 * How a creator is named on a public page (the campaign leaderboard): the first name and the last
 * name's initial ("Casey Creator" → "Casey C."), "A creator" without a name. Never the e-mail.
 */
export function publicName(fullName: string | null): string {
  const words = (fullName ?? "").trim().split(/\s+/).filter(Boolean);
  const [firstWord, ...others] = words;
  if (firstWord === undefined) return "A creator";
  const first = [...firstWord].slice(0, 30).join("");
  const initial = [...(others.at(-1) ?? "")][0];
  if (initial === undefined) return first;
  return `${first} ${initial.toUpperCase()}.`;
}

/** "$1,234.00 of $5,000.00 used" and the share used (0..100, whole percent) for the budget bar. */
export function budgetUsed(c: { budgetCents: number; spentCents: number }): { label: string; percent: number } {
  const percent = c.budgetCents > 0 ? Math.min(100, Math.floor((c.spentCents * 100) / c.budgetCents)) : 0;
  return { label: `${formatCents(c.spentCents)} of ${formatCents(c.budgetCents)} used`, percent };
}
