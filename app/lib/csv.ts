// CSV files the app writes (downloads: analytics, statements, payout runs). Client-safe. RFC 4180
// quoting with CRLF line ends, and no cell a spreadsheet in any locale would read as a formula
// (OWASP "CSV Injection"; docs/decisions/0202).

/** A plain decimal number ("-12.34"): data, never a formula, so it keeps its sign. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Where a spreadsheet could start a formula: the cell's start, or just after anything it might split
 * a cell on (',' ';' tab, a line break; '|' and the full-width ，；), past any spaces and control
 * characters, at = + - @ or their full-width forms ＝ ＋ － ＠.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters before a sign are exactly what must be looked past
const FORMULA_START = /(^|[,;\t\r\n|\uFF0C\uFF1B])([\s\u0000-\u001f\u007f\u00a0\u3000]*)(?=[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/g;

/** Characters that make a cell need quotes: the CSV's own, and the other list separators (';', tab). */
const NEEDS_QUOTES = /[",;\t\r\n]/;

/**
 * A CSV cell: never read as a formula by a spreadsheet. Each place a formula could start gets a
 * ' just before its sign (shown as text), and such a cell is always quoted, as is any cell holding a
 * separator, so a ';' or tab locale keeps it as one cell.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number" || PLAIN_NUMBER.test(value)) return String(value);
  const safe = value.replace(FORMULA_START, "$1$2'");
  return safe !== value || NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows (the first is usually the header) as a CSV file's text. */
export function toCsv(rows: readonly (readonly (string | number | null)[])[]): string {
  return `${rows.map((r) => r.map(csvCell).join(",")).join("\r\n")}\r\n`;
}
