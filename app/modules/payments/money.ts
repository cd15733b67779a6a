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
