// ISO weeks in UTC (issue 18): a week runs Monday 00:00 UTC to Sunday 24:00 UTC and is named by its
// Monday, YYYY-MM-DD, which sorts as text; the label is the ISO week ("2026-W48"). Pure and client-safe.

const DAY_MS = 86_400_000;

/** YYYY-MM-DD (UTC) of an instant. */
export function utcDay(at: number | string | Date): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** The Monday (YYYY-MM-DD, UTC) of the ISO week holding `at`. */
export function weekOf(at: number | string | Date): string {
  const d = new Date(typeof at === "string" && at.length === 10 ? `${at}T00:00:00Z` : at);
  const day = d.getUTCDay(); // 0 = Sunday
  const back = (day + 6) % 7;
  return utcDay(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - back * DAY_MS);
}

/** The day `n` days after `day` (YYYY-MM-DD). */
export function addDays(day: string, n: number): string {
  return utcDay(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS);
}

/** The Monday `n` weeks after the week `week` (a Monday). */
export function addWeeks(week: string, n: number): string {
  return addDays(week, 7 * n);
}

/** Whole weeks from the Monday `from` to the Monday `to` (negative when `to` is earlier). */
export function weeksBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / (7 * DAY_MS));
}

/** The `count` weeks ending with the week of `at`, oldest first. */
export function lastWeeks(at: number | string | Date, count: number): string[] {
  const current = weekOf(at);
  return Array.from({ length: count }, (_, i) => addWeeks(current, i - count + 1));
}

/** "2026-W48": the ISO week-numbering year and week of a Monday. */
export function isoWeekLabel(monday: string): string {
  const thursday = new Date(Date.parse(`${monday}T00:00:00Z`) + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const jan1 = Date.UTC(year, 0, 1);
  const week = Math.floor((thursday.getTime() - jan1) / (7 * DAY_MS)) + 1;
  return `${year}-W${String(week).padStart(2, "0")}`;
}
