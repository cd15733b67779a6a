// The referral bonus rules (issue 18), pure and client-safe: the payments module pays the bonus
// by them, and the growth module, which builds on payments, may read them.

/** Months a referral bonus runs: the referred creator's first 12 months of term (docs/decisions/0173). */
export const REFERRAL_BONUS_MONTHS = 12;

/** The statement month (YYYY-MM) plus `n` months. */
export function addMonths(month: string, n: number): string {
  const [y = Number.NaN, m = Number.NaN] = month.split("-").map(Number); // a missing part is NaN, as before
  const total = y * 12 + (m - 1) + n;
  return `${String(Math.floor(total / 12)).padStart(4, "0")}-${String((total % 12) + 1).padStart(2, "0")}`;
}

/**
 * Whether revenue of `month` (YYYY-MM) falls in the first 12 months of a term that started at
 * `termStartedAt` (the first channel link, ISO instant): the start's month and the 11 after it.
 */
export function inReferralTerm(month: string, termStartedAt: string | null): boolean {
  if (!termStartedAt) return false;
  const first = termStartedAt.slice(0, 7);
  return month >= first && month < addMonths(first, REFERRAL_BONUS_MONTHS);
}

/** The bonus share the platform pays: the setting, never more than the platform's own part of the net. */
export function bonusShareBp(settingBp: number, creatorShareBp: number): number {
  return Math.max(0, Math.min(settingBp, 10_000 - creatorShareBp));
}
