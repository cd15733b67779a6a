import Papa from "papaparse";
import { isMonth } from "./calendar";
import { CURRENCY, isNegativeAmount, MAX_ROW_CENTS, parseDecimalCents } from "./money";
import { formatCount } from "~/lib/format";

// Reading a month's platform revenue CSV (docs/decisions/0121-revenue-import.md). Parsing is
// papaparse's (quotes, escaped quotes, CRLF, BOM); this file only checks each row. Pure: the
// server matches channel and creator ids to people afterwards.
//
// Columns (header row, any order, case-insensitive): month, channel_id, creator_id, video_id,
// net_revenue, currency. Each row needs a channel id or a creator id.

export const REVENUE_COLUMNS = ["month", "channel_id", "creator_id", "video_id", "net_revenue", "currency"] as const;
export const MAX_IMPORT_ROWS = 50_000;
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

export type RevenueRow = {
  /** Line in the file (the header is line 1). */
  line: number;
  channelId: string | null;
  creatorId: string | null;
  videoId: string | null;
  netCents: number;
};

export type RowProblem = { line: number; reason: string };

export type ParsedRevenue = { rows: RevenueRow[]; problems: RowProblem[] };

export const CSV_MESSAGES = {
  empty: "The file has no rows.",
  tooMany: `The file has more than ${formatCount(MAX_IMPORT_ROWS)} rows. Split it by month.`,
  missingColumns: (cols: string[]) => `The header is missing ${cols.join(", ")}. Expected columns: ${REVENUE_COLUMNS.join(", ")}.`,
  badMonth: "Month must be YYYY-MM.",
  otherMonth: (got: string, month: string) => `Month ${got} is not the month being imported (${month}).`,
  noPerson: "Give a channel id or a creator id.",
  negative: "Net revenue is negative. Corrections are made as adjustments, not in the import.",
  badAmount: "Net revenue must be a number with two decimals, such as 12.34.",
  tooLarge: "Net revenue is larger than any one row can be.",
  currency: (got: string) => `Currency must be ${CURRENCY}${got ? ` (found ${got})` : ""}.`,
  duplicate: (line: number) => `Duplicate of line ${line}.`,
  unreadable: (message: string) => `The row could not be read: ${message}.`,
} as const;

const clean = (v: unknown) => (typeof v === "string" ? v.trim() : "");

export function parseRevenueCsv(text: string, month: string): ParsedRevenue {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { skipEmptyLines: false });
  const problems: RowProblem[] = [];
  const rows: RevenueRow[] = [];
  const [header, ...body] = parsed.data;
  const names = (header ?? []).map((h) => clean(h).toLowerCase());
  const at = (name: string) => names.indexOf(name);
  const missing = ["month", "net_revenue", "currency"].filter((c) => at(c) < 0);
  if (at("channel_id") < 0 && at("creator_id") < 0) missing.push("channel_id or creator_id");
  if (missing.length > 0) return { rows, problems: [{ line: 1, reason: CSV_MESSAGES.missingColumns(missing) }] };

  const lineErrors = new Map<number, string>();
  for (const e of parsed.errors) if (typeof e.row === "number" && e.row > 0) lineErrors.set(e.row + 1, e.message);

  const seen = new Map<string, number>();
  let dataRows = 0;
  for (let i = 0; i < body.length; i++) {
    const line = i + 2;
    const cells = body[i];
    if (cells.every((c) => clean(c) === "")) continue;
    dataRows += 1;
    if (dataRows > MAX_IMPORT_ROWS) return { rows: [], problems: [{ line, reason: CSV_MESSAGES.tooMany }] };
    const cell = (name: string) => (at(name) >= 0 ? clean(cells[at(name)]) : "");
    const fail = (reason: string) => problems.push({ line, reason });
    const broken = lineErrors.get(line);
    if (broken) {
      fail(CSV_MESSAGES.unreadable(broken));
      continue;
    }
    const rowMonth = cell("month");
    if (!isMonth(rowMonth)) {
      fail(CSV_MESSAGES.badMonth);
      continue;
    }
    if (rowMonth !== month) {
      fail(CSV_MESSAGES.otherMonth(rowMonth, month));
      continue;
    }
    const channelId = cell("channel_id") || null;
    const creatorId = cell("creator_id") ? cell("creator_id").toUpperCase() : null;
    if (!channelId && !creatorId) {
      fail(CSV_MESSAGES.noPerson);
      continue;
    }
    const amount = cell("net_revenue");
    if (isNegativeAmount(amount)) {
      fail(CSV_MESSAGES.negative);
      continue;
    }
    const netCents = parseDecimalCents(amount);
    if (netCents === null) {
      fail(CSV_MESSAGES.badAmount);
      continue;
    }
    if (netCents > MAX_ROW_CENTS) {
      fail(CSV_MESSAGES.tooLarge);
      continue;
    }
    const currency = cell("currency").toUpperCase();
    if (currency !== CURRENCY) {
      fail(CSV_MESSAGES.currency(cell("currency")));
      continue;
    }
    const videoId = cell("video_id") || null;
    const key = JSON.stringify([channelId, creatorId, videoId]);
    const first = seen.get(key);
    if (first !== undefined) {
      fail(CSV_MESSAGES.duplicate(first));
      continue;
    }
    seen.set(key, line);
    rows.push({ line, channelId, creatorId, videoId, netCents });
  }
  if (dataRows === 0) return { rows, problems: [{ line: 2, reason: CSV_MESSAGES.empty }] };
  return { rows, problems };
}
