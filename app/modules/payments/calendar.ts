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

/** The last month that is over on `now` (UTC): what a revenue import is for by default. */
export function lastFullMonth(now: Date): string {
  return addMonths(monthOf(now), -1);
}

/**
 * The numbers of YYYY-MM or YYYY-MM-DD. A part the text lacks is NaN, as `Number(undefined)` was before:
 * the Date built from it is invalid (callers pass months their schema checked).
 */
function dateParts(text: string): [year: number, month: number, day: number] {
  const [y = Number.NaN, m = Number.NaN, d = Number.NaN] = text.split("-").map(Number);
  return [y, m, d];
}

/** The month after (or `n` months after) YYYY-MM. */
export function addMonths(month: string, n: number): string {
  const [y, m] = dateParts(month);
  const d = new Date(Date.UTC(y, m - 1 + n, 1));
  return monthOf(d);
}

/** The payout date (YYYY-MM-DD) of the run in `month`: the payout day, moved to Monday from a weekend. */
export function payoutDateIn(month: string, payoutDay: number): string {
  const [y, m] = dateParts(month);
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

// Made once: a new Intl object per call showed in the Worker's profile of /payments.
const PAYOUT_DAY = new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
// Month names, as Intl's en-GB "long" month writes them: a month label is a lookup, not a
// formatter call (monthLabel was 1.4 % of /payments' Worker time with a year of statements).
const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"] as const;

/** "2025-09" → "September 2025". */
export function monthLabel(month: string): string {
  const [y, m] = dateParts(month);
  const d = new Date(Date.UTC(y, m - 1, 1));
  if (Number.isNaN(d.getTime())) throw new RangeError("Invalid time value"); // as Intl's format did
  return `${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** A payout-calendar day (YYYY-MM-DD) as "Mon, 20 Oct 2031": a day, the same in every zone (never shifted). */
export function formatPayoutDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return "—";
  return PAYOUT_DAY.format(d);
}

/** 18 → "18th", 1 → "1st", 22 → "22nd", 11 → "11th": the payout day as the agreement words it. */
export function ordinalDay(day: number): string {
  const tens = day % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[day % 10] ?? "th");
  return `${day}${suffix}`;
}

// --- The agreement's terms (spec section 1: 12 months from the first channel link, auto-renewing;
// notice of 90 days, effective only at the end of a term). Days are YYYY-MM-DD, UTC.

export const TERM_MONTHS = 12;
export const NOTICE_DAYS = 90;

/** YYYY-MM-DD plus `n` days. */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** YYYY-MM-DD plus `n` months; a day the month lacks rolls over (29 Feb + 12 months → 1 Mar). */
export function addMonthsToDay(day: string, n: number): string {
  const [y, m, d] = dateParts(day);
  return new Date(Date.UTC(y, m - 1 + n, d)).toISOString().slice(0, 10);
}

/** The day (YYYY-MM-DD, UTC) of an instant. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The start of the term running on `today` and the next renewal, for terms starting at `anchor` (every 12 months). */
export function termOn(anchor: string, today: string): { currentStart: string; renewsOn: string } {
  let k = 0;
  while (addMonthsToDay(anchor, TERM_MONTHS * (k + 1)) <= today) k += 1;
  return { currentStart: addMonthsToDay(anchor, TERM_MONTHS * k), renewsOn: addMonthsToDay(anchor, TERM_MONTHS * (k + 1)) };
}

/**
 * The day a notice given on `noticeDay` takes effect: the last day of the first term that ends at
 * least 90 days after the notice. Without a term (no channel linked yet) nothing is locked in: 90
 * days after the notice (docs/decisions/0127).
 */
export function noticeEndsOn(anchor: string | null, noticeDay: string): string {
  const earliest = addDays(noticeDay, NOTICE_DAYS);
  if (!anchor) return earliest;
  let k = 1;
  while (addDays(addMonthsToDay(anchor, TERM_MONTHS * k), -1) < earliest) k += 1;
  return addDays(addMonthsToDay(anchor, TERM_MONTHS * k), -1);
}

/** Days in a month (YYYY-MM). */
export function daysInMonth(month: string): number {
  const [y, m] = dateParts(month);
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/**
 * The part of a month's net revenue an account earns when its agreement ends on `endsOn` (the last
 * day it earns, YYYY-MM-DD; null: no end): the whole before the end month, nothing after it, and in
 * the month that holds the end date the days up to and including it, pro rata, rounded toward zero
 * (the rest stays with the platform; docs/decisions/0128).
 */
export function earnedPart(netCents: number, month: string, endsOn: string | null): { netCents: number; days: number | null } {
  if (!endsOn || endsOn.slice(0, 7) > month) return { netCents, days: null };
  if (endsOn.slice(0, 7) < month) return { netCents: 0, days: 0 };
  const dim = daysInMonth(month);
  const days = Number(endsOn.slice(8, 10));
  if (days >= dim) return { netCents, days: null };
  return { netCents: Number((BigInt(netCents) * BigInt(days)) / BigInt(dim)), days };
}
