// CSV files the app writes (downloads: analytics, statements, payout runs). Client-safe. RFC 4180
// quoting with CRLF line ends, and no cell a spreadsheet would read as a formula.

/** A plain decimal number ("-12.34"): data, never a formula, so it keeps its sign. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** A CSV cell: quoted when needed, and never read as a formula by a spreadsheet. */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows (the first is usually the header) as a CSV file's text. */
export function toCsv(rows: readonly (readonly (string | number | null)[])[]): string {
  return `${rows.map((r) => r.map(csvCell).join(",")).join("\r\n")}\r\n`;
}
