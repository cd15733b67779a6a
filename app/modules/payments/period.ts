// The month of a revenue row, from a month or a date as reports and spreadsheets write them
// (docs/decisions/0221-revenue-file-formats.md). Client-safe and pure.
//   months   2025-09, 2025/9, 202509, Sep-25, Sep 2025, September 2025
//   dates    2025-09-14 (with or without a time), 2025/09/14, 20250914 (the YouTube report),
//            14-Sep-2025, and day/month or month/day with slashes, dots or dashes: 14/09/2025, 9/14/2025
// A slashed date whose parts could both be the month (3/4/2025) is read in the order the file shows
// elsewhere (a part above 12), else in the order that puts more of its rows in the imported month.

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

export type SlashOrder = "dmy" | "mdy";

/** What a cell says: a month, a day/month date whose order is still open, or nothing readable. */
export type PeriodReading = { month: string } | { a: number; b: number; year: number } | null;

const pad = (n: number) => String(n).padStart(2, "0");

function monthOfParts(year: number, month: number, day?: number): string | null {
  if (year < 1900 || year > 2999 || month < 1 || month > 12) return null;
  if (day !== undefined) {
    const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
    if (day < 1 || day > last) return null;
  }
  return `${year}-${pad(month)}`;
}

const fullYear = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));
const FULL_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
/** 1..12 for "Sep", "Sept", "September" (any case); 0 for anything else ("Marchx"). */
const monthName = (name: string) => {
  const lower = name.toLowerCase();
  const i = MONTHS.indexOf(lower.slice(0, 3));
  return i >= 0 && (lower === MONTHS[i] || lower === FULL_MONTHS[i] || lower === "sept") ? i + 1 : 0;
};

const TIME = String.raw`(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:\s?[AP]M)?(?:Z|[+-]\d{2}:?\d{2})?)?`;

/** The shapes a cell may take, each with how to read it (a group that did not take part reads "": no month, year 0). */
const PATTERNS: [RegExp, (m: RegExpExecArray) => PeriodReading][] = [
  // ISO-like: year first, optional day, optional time.
  [
    new RegExp(String.raw`^(\d{4})[-/.](\d{1,2})(?:[-/.](\d{1,2})${TIME})?$`, "i"),
    (m) => found(Number(m[1]), Number(m[2]), m[3] === undefined ? undefined : Number(m[3])),
  ],
  // 202509, 20250914 (the YouTube report's dates).
  [/^(\d{4})(\d{2})(\d{2})?$/, (m) => found(Number(m[1]), Number(m[2]), m[3] === undefined ? undefined : Number(m[3]))],
  // Month names: "Sep-25", "Sep 2025", "September 2025"; "2025 Sep"; "14-Sep-2025".
  [/^([A-Za-z]{3,9})\.?[-\s/.,]+(\d{4}|\d{2})$/, ([, name = "", year = ""]) => found(fullYear(year), monthName(name))],
  [/^(\d{4})[-\s/.]+([A-Za-z]{3,9})$/, ([, year = "", name = ""]) => found(Number(year), monthName(name))],
  [/^(\d{1,2})[-\s/.]+([A-Za-z]{3,9})\.?[-\s/.,]+(\d{4}|\d{2})$/, ([, day = "", name = "", year = ""]) => found(fullYear(year), monthName(name), Number(day))],
  // Day and month in an order the cell alone may not tell.
  [
    new RegExp(String.raw`^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4}|\d{2})${TIME}$`, "i"),
    ([, a = "", b = "", year = ""]) => ({ a: Number(a), b: Number(b), year: fullYear(year) }),
  ],
];

function found(year: number, month: number, day?: number): PeriodReading {
  const m = month ? monthOfParts(year, month, day) : null;
  return m ? { month: m } : null;
}

export function readPeriod(raw: string): PeriodReading {
  const text = raw.trim();
  for (const [pattern, read] of PATTERNS) {
    const m = pattern.exec(text);
    if (m) return read(m);
  }
  return null;
}

/** A day/month date's month in a given order; null when that order makes no date. */
export function slashMonth(r: { a: number; b: number; year: number }, order: SlashOrder): string | null {
  return order === "dmy" ? monthOfParts(r.year, r.b, r.a) : monthOfParts(r.year, r.a, r.b);
}

/**
 * The order of a file's day/month dates: the one its unambiguous dates show (a part above 12), else
 * the one that puts more of them in `month` (month/day on a tie). Null: the file shows both orders.
 */
export function slashOrderOf(readings: readonly { a: number; b: number; year: number }[], month: string): SlashOrder | null {
  const dmy = readings.some((r) => r.a > 12);
  const mdy = readings.some((r) => r.b > 12);
  if (dmy && mdy) return null;
  if (dmy) return "dmy";
  if (mdy) return "mdy";
  let score = 0;
  for (const r of readings) {
    if (slashMonth(r, "dmy") === month) score += 1;
    if (slashMonth(r, "mdy") === month) score -= 1;
  }
  return score > 0 ? "dmy" : "mdy";
}
