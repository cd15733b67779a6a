import { formatCount } from "~/lib/format";
// Money as the screens and CSV files show it. Client-safe. Amounts are integer cents in USD
// (the platform pays in USD; docs/decisions/0121-revenue-import.md).

export const CURRENCY = "USD";

/** 123456 → "$1,234.56"; -5 → "-$0.05". */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const dollars = formatCount(Math.trunc(abs / 100));
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, "0")}`;
}

/** 123456 → "1234.56" (CSV: no symbol, no grouping). */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Most a single CSV amount may be: $10 million, far above any one channel's month. */
export const MAX_ROW_CENTS = 1_000_000_000;

/**
 * "12.34" → 1234. Exactly two decimals, digits only (no sign, grouping or symbol): anything else
 * is null. A leading minus is reported apart (`isNegativeAmount`).
 */
export function parseDecimalCents(text: string): number | null {
  const m = /^(\d{1,10})\.(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const cents = Number(m[1]) * 100 + Number(m[2]);
  return Number.isSafeInteger(cents) ? cents : null;
}

export function isNegativeAmount(text: string): boolean {
  return /^-\s*\d/.test(text.trim());
}
