// The payout calendar (spec section 1: "on or around the 18th of each month"). Client-safe, UTC.
// The payout day is the admin setting (18 by default); when it falls on a Saturday or Sunday the
// payout is made the next Monday (docs/decisions/0122-payout-calendar.md).

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function isMonth(value: string): boolean {
  return MONTH.test(value);
}

/** The month (YYYY-MM, UTC) of a date. */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** The month after (or `n` months after) YYYY-MM. */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split("-").map(Number);
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return monthOf(d);
}

/** The payout date (YYYY-MM-DD) of the run in `month`: the payout day, moved to Monday from a weekend. */
export function payoutDateIn(month: string, payoutDay: number): string {
  const [y, m] = month.split("-").map(Number);
  const d = new Date(Date.UTC(y, m - 1, payoutDay));
  const weekday = d.getUTCDay();
  if (weekday === 6) d.setUTCDate(d.getUTCDate() + 2);
  if (weekday === 0) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** The next payout date on or after `today` (UTC). */
export function nextPayoutDate(today: Date, payoutDay: number): string {
  const day = today.toISOString().slice(0, 10);
  const thisMonth = payoutDateIn(monthOf(today), payoutDay);
  return day <= thisMonth ? thisMonth : payoutDateIn(addMonths(monthOf(today), 1), payoutDay);
}

/** The run due on `today`, if any: the month whose payout date has come (the job then runs it once). */
export function payoutRunDue(today: Date, payoutDay: number): string | null {
  const month = monthOf(today);
  return today.toISOString().slice(0, 10) >= payoutDateIn(month, payoutDay) ? month : null;
}

/** "2025-09" → "September 2025". */
export function monthLabel(month: string): string {
  const [y, m] = month.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
}

/** A payout-calendar day (YYYY-MM-DD) as "Mon, 20 Oct 2031": a day, the same in every zone (never shifted). */
export function formatPayoutDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return "—";
  return new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(d);
}

/** 18 → "18th", 1 → "1st", 22 → "22nd", 11 → "11th": the payout day as the agreement words it. */
export function ordinalDay(day: number): string {
  const tens = day % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[day % 10] ?? "th");
  return `${day}${suffix}`;
}
