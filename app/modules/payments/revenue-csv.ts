import Papa from "papaparse";
import { formatCount } from "~/lib/format";
import { addDec, type Dec, type DecimalStyle, parseAmount, ZERO } from "./decimal";
import { CURRENCY } from "./money";
import { readPeriod, slashMonth, slashOrderOf, type PeriodReading } from "./period";

// Reading a month's platform revenue file (docs/decisions/0121-revenue-import.md,
// 0221-revenue-file-formats.md). Parsing is papaparse's (quotes, escaped quotes, CRLF, a BOM, the
// delimiter guessed); this file checks each row and sums the amounts exactly per channel, creator
// and video. Pure and client-safe: the server matches the ids to people afterwards. Three shapes:
//   shortbeat  our own columns: month, channel_id and/or creator_id, video_id, net_revenue, currency
//              (also after a spreadsheet re-saved it: "7.5", "1,234.56", "$9.99", "Sep-25", "9/1/2025")
//   youtube    the YouTube content-owner revenue report: daily rows (date YYYYMMDD, channel_id,
//              video_id, claim and country columns, estimated_partner_revenue with six decimals)
//   mapped     any other CSV, through a column mapping chosen in the preview (and remembered per header)

export const REVENUE_COLUMNS = ["month", "channel_id", "creator_id", "video_id", "net_revenue", "currency"] as const;
export const YOUTUBE_COLUMNS = ["date", "channel_id", "video_id", "estimated_partner_revenue"] as const;
export const MAX_IMPORT_ROWS = 100_000;
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
/** Most a single row may be: $10 million, far above any one video's or channel's month. */
export const MAX_ROW_DOLLARS = 10_000_000n;

/**
 * Longest a cell may be, by what it holds (issue 40 §10). An id far longer than any platform's
 * (YouTube's channel ids are 24 characters, video ids 11, ISRCs 12) is a problem line with the
 * reason, never a value carried to the database: a 9 MB video id used to reach the clips lookup
 * and fail there (500). Columns we do not read (a title, a country) are capped too, generously.
 */
export const CELL_MAX = { period: 40, id: 64, amount: 64, currency: 16, other: 1000 } as const;
/** Longest a column name may be (the mapping step shows and remembers them). */
export const COLUMN_NAME_MAX = 200;

import { type ColumnMapping, MAPPING_ROLES, type RevenueFormat } from "./revenue-columns";

export { type ColumnMapping, MAPPING_ROLES, type RevenueFormat };

export type RowProblem = { line: number; reason: string };

/** The rows of one channel, creator and video, summed exactly; `lines` are the file lines they came from. */
export type RevenueGroup = {
  channelId: string | null;
  creatorId: string | null;
  videoId: string | null;
  amount: Dec;
  lines: number[];
  /** Rows summed, when `lines` holds only the first (a report read in ranges, docs/decisions/0334). */
  rows?: number;
};

export type ParsedRevenue = {
  format: RevenueFormat;
  /** Data rows read (not counting blank lines and totals rows). */
  dataRows: number;
  groups: RevenueGroup[];
  problems: RowProblem[];
  /** Rows left out on purpose (a spreadsheet's totals row), with why. */
  skipped: RowProblem[];
  /** The exact sum of every accepted row. */
  total: Dec;
};

export const CSV_MESSAGES = {
  empty: "The file has no rows: it holds only a header.",
  tooMany: `The file has more than ${formatCount(MAX_IMPORT_ROWS)} rows. Split it by month.`,
  badPeriod: (label: string) => `${cap(label)} must be a month or a date, such as 2025-09 or 2025-09-14.`,
  missingPeriod: (label: string) => `${cap(label)} is missing.`,
  otherMonth: (label: string, got: string, month: string) => `${cap(label)} ${got} is not in the month being imported (${month}).`,
  ambiguousDate: (got: string) => `Date ${got} could be day/month or month/day: the file shows both orders.`,
  noPerson: "Give a channel id or a creator id.",
  negative: "Net revenue is negative. Corrections are made as adjustments, not in the import.",
  missingAmount: "Net revenue is missing.",
  badAmount: "Net revenue must be a number, such as 12.34, 7.5, 0.125, 1,234.56 or $9.99.",
  tooPrecise: "Net revenue has more than 30 decimals.",
  tooLarge: "Net revenue is larger than any one row can be.",
  currency: (got: string) => `Currency must be ${CURRENCY}${got ? ` (found ${got})` : ""}.`,
  duplicate: (line: number) => `Duplicate of line ${line}.`,
  unreadable: (message: string) => `The row could not be read: ${message}.`,
  totalsRow: "A totals row: left out (the rows above it are summed instead).",
  cellTooLong: (what: string, max: number) => `${cap(what)} is longer than ${formatCount(max)} characters.`,
  columnTooLong: (column: number) => `Column ${column}'s name is longer than ${formatCount(COLUMN_NAME_MAX)} characters.`,
} as const;

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A header cell as compared: trimmed, lower case, runs of spaces as one underscore. */
export function normalizeColumn(name: string): string {
  return name
    .replace(/^\uFEFF/, "")
    .trim()
    .toLowerCase()
    .replace(/\s+/g, "_");
}

export type FileHead = { columns: string[]; sample: string[][]; delimiter: string };

/** The header (as written) and the first rows of a file: what the mapping step shows. */
export function readHead(text: string, rows = 5): FileHead {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { preview: rows + 1, skipEmptyLines: "greedy" });
  const [header = [], ...sample] = parsed.data;
  return { columns: header.map((h) => String(h ?? "").trim()), sample, delimiter: parsed.meta.delimiter };
}

/** The shape a header names, or null when it needs a column mapping. */
export function detectFormat(columns: readonly string[]): Exclude<RevenueFormat, "mapped"> | null {
  const names = new Set(columns.map(normalizeColumn));
  if (YOUTUBE_COLUMNS.every((c) => names.has(c))) return "youtube";
  if (["month", "net_revenue", "currency"].every((c) => names.has(c)) && (names.has("channel_id") || names.has("creator_id"))) return "shortbeat";
  return null;
}

/** The key a remembered mapping is found by: the normalized header. */
export function headerKey(columns: readonly string[]): string {
  return columns.map(normalizeColumn).join("\u001f");
}

/** A first guess at a mapping from the column names (the admin confirms or changes it). */
export function suggestMapping(columns: readonly string[]): ColumnMapping {
  const names = columns.map(normalizeColumn);
  const find = (pattern: RegExp, not?: RegExp) => names.findIndex((n) => pattern.test(n) && !not?.test(n));
  return {
    period: find(/^(month|period|date|day|reporting_month|sale_month|statement_month)$|month|date|period/),
    channel: find(/channel/, /name|title/),
    creator: find(/creator|artist_id|payee/),
    video: find(/video|asset|content|isrc/, /title|name|duration|publish/),
    amount: find(/revenue|earning|amount|net|payable|royalt|payout|income/, /currency|cpm|rate/),
    currency: find(/currency|ccy/),
  };
}

/** Non-metric columns of the YouTube report: a row's dimensions (its duplicate key). */
function isYoutubeMetric(name: string): boolean {
  return /^estimated_|(revenue|cpm|playbacks|impressions|views|minutes|seconds|percentage|likes|dislikes|shares|comments|gained|lost)$/.test(name);
}

export type Reader = {
  periodLabel: string;
  period: (cells: string[]) => string;
  channel: (cells: string[]) => string;
  creator: (cells: string[]) => string;
  video: (cells: string[]) => string;
  amount: (cells: string[]) => string;
  currency: ((cells: string[]) => string) | null;
  dupKey: (cells: string[], c: { channelId: string | null; creatorId: string | null; videoId: string | null }) => string;
};

/** The cells a row's reader takes, with what each is called in a message and its cap. */
function limitsOf(r: Reader): [string, (cells: string[]) => string, number][] {
  const limits: [string, (cells: string[]) => string, number][] = [
    [r.periodLabel, r.period, CELL_MAX.period],
    ["channel id", r.channel, CELL_MAX.id],
    ["creator id", r.creator, CELL_MAX.id],
    ["video id", r.video, CELL_MAX.id],
    ["net revenue", r.amount, CELL_MAX.amount],
  ];
  if (r.currency) limits.push(["currency", r.currency, CELL_MAX.currency]);
  return limits;
}

/** The first cell of a row over its cap, as a problem's reason; null when every cell fits. */
function tooLongCell(r: Reader, cells: string[]): string | null {
  for (const [what, get, max] of limitsOf(r)) if (get(cells).length > max) return CSV_MESSAGES.cellTooLong(what, max);
  const long = cells.findIndex((c) => String(c ?? "").length > CELL_MAX.other);
  return long >= 0 ? CSV_MESSAGES.cellTooLong(`the cell in column ${long + 1}`, CELL_MAX.other) : null;
}

const cellAt = (i: number) => (cells: string[]) => (i >= 0 ? String(cells[i] ?? "").trim() : "");

function readerFor(format: RevenueFormat, columns: readonly string[], mapping: ColumnMapping | null): Reader {
  const names = columns.map(normalizeColumn);
  const at = (name: string) => cellAt(names.indexOf(name));
  if (format === "shortbeat") {
    return {
      periodLabel: "month",
      period: at("month"),
      channel: at("channel_id"),
      creator: at("creator_id"),
      video: at("video_id"),
      amount: at("net_revenue"),
      currency: at("currency"),
      dupKey: (_, c) => `${c.channelId ?? ""}\u0000${c.creatorId ?? ""}\u0000${c.videoId ?? ""}`,
    };
  }
  if (format === "youtube") {
    const dims = names.map((n, i) => (isYoutubeMetric(n) ? -1 : i)).filter((i) => i >= 0);
    return {
      periodLabel: "date",
      period: at("date"),
      channel: at("channel_id"),
      creator: () => "",
      video: at("video_id"),
      amount: at("estimated_partner_revenue"),
      currency: null,
      dupKey: (cells) => dims.map((i) => String(cells[i] ?? "").trim()).join("\u001f"),
    };
  }
  if (!mapping) throw new RangeError("A mapped file needs its column mapping");
  return {
    periodLabel: columns[mapping.period] || "month",
    period: cellAt(mapping.period),
    channel: cellAt(mapping.channel),
    creator: cellAt(mapping.creator),
    video: cellAt(mapping.video),
    amount: cellAt(mapping.amount),
    currency: mapping.currency >= 0 ? cellAt(mapping.currency) : null,
    // Other columns of a mapped file may be dimensions we do not know of (a country, a store):
    // only a row repeated whole is a duplicate.
    dupKey: (cells) => cells.map((c) => String(c ?? "").trim()).join("\u001f"),
  };
}

export type Candidate = {
  line: number;
  period: Exclude<PeriodReading, null>;
  periodText: string;
  channelId: string | null;
  creatorId: string | null;
  videoId: string | null;
  amount: Dec;
  dupKey: string;
};

export type ParseOptions = {
  month: string;
  format: RevenueFormat;
  mapping?: ColumnMapping | null;
  /** Every row's person, when the file has no column for it (a one-channel export). */
  fixedPerson?: { channelId: string | null; creatorId: string | null } | null;
};

const TOTALS = /^(grand\s+)?totals?:?$/i;

/** What one file row is: blank, a totals row left out, a problem, or an accepted row (its month still to check). */
export type RowOutcome =
  | { kind: "blank" }
  | { kind: "skipped"; reason: string }
  | { kind: "problem"; reason: string }
  | { kind: "row"; row: Omit<Candidate, "line"> };

/** How a file's rows are read: the columns' reader, the decimal style, the periods read so far. */
export type RowContext = {
  reader: Reader;
  style: DecimalStyle;
  periods: Map<string, PeriodReading>;
  fixedPerson: ParseOptions["fixedPerson"];
};

/** The reading of a file whose header is `columns`, split by `delimiter` (papaparse's guess or the file's). */
export function rowContext(columns: readonly string[], delimiter: string, opts: ParseOptions): RowContext {
  return {
    reader: readerFor(opts.format, columns, opts.mapping ?? null),
    // A ';'-separated file comes from a comma-decimal locale (Excel in most of Europe).
    style: delimiter === ";" ? "comma" : "point",
    // A file holds few distinct months or dates: each is read once.
    periods: new Map<string, PeriodReading>(),
    fixedPerson: opts.fixedPerson ?? null,
  };
}

/**
 * One data row checked (every rule but the month and duplicates, which need the whole file): the
 * whole-file parse below and the streamed import (revenue-stream.ts, docs/decisions/0334) share it.
 */
export function readRow(ctx: RowContext, cells: string[], errors: readonly { type: string; message: string }[]): RowOutcome {
  if (cells.every((c) => String(c ?? "").trim() === "")) return { kind: "blank" };
  const r = ctx.reader;
  const fail = (reason: string): RowOutcome => ({ kind: "problem", reason });
  const periodText = r.period(cells);
  // A spreadsheet's totals row: no period, a cell that says "Total".
  if (TOTALS.test(periodText) || (!periodText && cells.some((c) => TOTALS.test(String(c ?? "").trim())))) {
    return { kind: "skipped", reason: CSV_MESSAGES.totalsRow };
  }
  const tooLong = tooLongCell(r, cells);
  if (tooLong) return fail(tooLong);
  const broken = errors.find((e) => e.type !== "Delimiter");
  if (broken) return fail(CSV_MESSAGES.unreadable(broken.message));
  if (!periodText) return fail(CSV_MESSAGES.missingPeriod(r.periodLabel));
  let period = ctx.periods.get(periodText);
  if (period === undefined) {
    period = readPeriod(periodText);
    ctx.periods.set(periodText, period);
  }
  if (!period) return fail(CSV_MESSAGES.badPeriod(r.periodLabel));
  const fixed = ctx.fixedPerson;
  const channelId = fixed ? fixed.channelId : r.channel(cells) || null;
  const creatorRaw = fixed ? fixed.creatorId : r.creator(cells);
  const creatorId = creatorRaw ? creatorRaw.toUpperCase() : null;
  if (!channelId && !creatorId) return fail(CSV_MESSAGES.noPerson);
  const amount = parseAmount(r.amount(cells), ctx.style);
  if (!amount.ok) {
    if (amount.problem === "currency") return fail(CSV_MESSAGES.currency(amount.currency));
    if (amount.problem === "negative") return fail(CSV_MESSAGES.negative);
    if (amount.problem === "missing") return fail(CSV_MESSAGES.missingAmount);
    if (amount.problem === "too_precise") return fail(CSV_MESSAGES.tooPrecise);
    return fail(CSV_MESSAGES.badAmount);
  }
  if (amount.value.n > MAX_ROW_DOLLARS * 10n ** BigInt(amount.value.s)) return fail(CSV_MESSAGES.tooLarge);
  if (r.currency) {
    const currency = r.currency(cells);
    const code = currency === "$" || currency === "US$" ? CURRENCY : currency.toUpperCase();
    if (code !== CURRENCY) return fail(CSV_MESSAGES.currency(currency));
  }
  const videoId = r.video(cells) || null;
  return {
    kind: "row",
    row: { period, periodText, channelId, creatorId, videoId, amount: amount.value, dupKey: r.dupKey(cells, { channelId, creatorId, videoId }) },
  };
}

export function parseRevenue(text: string, opts: ParseOptions): ParsedRevenue {
  const { month, format } = opts;
  const problems: RowProblem[] = [];
  const skipped: RowProblem[] = [];
  const candidates: Candidate[] = [];
  let ctx: RowContext | null = null;
  let index = 0;
  let dataRows = 0;
  let tooMany = false;

  Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), {
    skipEmptyLines: false,
    step(result, parser) {
      const cells = result.data;
      const line = ++index; // the header is line 1
      if (!ctx) {
        ctx = rowContext(
          cells.map((c) => String(c ?? "").trim()),
          result.meta.delimiter,
          opts,
        );
        return;
      }
      const outcome = readRow(ctx, cells, result.errors);
      if (outcome.kind === "blank") return;
      if (outcome.kind === "skipped") {
        skipped.push({ line, reason: outcome.reason });
        return;
      }
      dataRows += 1;
      if (dataRows > MAX_IMPORT_ROWS) {
        tooMany = true;
        parser.abort();
        return;
      }
      if (outcome.kind === "problem") problems.push({ line, reason: outcome.reason });
      else candidates.push({ line, ...outcome.row });
    },
  });

  if (tooMany) return { format, dataRows, groups: [], problems: [{ line: MAX_IMPORT_ROWS + 2, reason: CSV_MESSAGES.tooMany }], skipped, total: ZERO };

  // Day/month dates read in the file's order (decided once every row is in).
  const slashed = candidates.flatMap((c) => ("a" in c.period ? [c.period] : []));
  const order = slashed.length > 0 ? slashOrderOf(slashed, month) : "mdy";
  const seen = new Map<string, number>();
  const reader = (ctx as RowContext | null)?.reader ?? null;
  const groups = new Map<string, RevenueGroup>();
  let total: Dec = ZERO;
  for (const c of candidates) {
    let rowMonth: string | null;
    if ("month" in c.period) rowMonth = c.period.month;
    else if (!order) {
      problems.push({ line: c.line, reason: CSV_MESSAGES.ambiguousDate(c.periodText) });
      continue;
    } else rowMonth = slashMonth(c.period, order);
    if (!rowMonth) {
      problems.push({ line: c.line, reason: CSV_MESSAGES.badPeriod(reader?.periodLabel ?? "month") });
      continue;
    }
    if (rowMonth !== month) {
      problems.push({ line: c.line, reason: CSV_MESSAGES.otherMonth(reader?.periodLabel ?? "month", c.periodText, month) });
      continue;
    }
    const first = seen.get(c.dupKey);
    if (first !== undefined) {
      problems.push({ line: c.line, reason: CSV_MESSAGES.duplicate(first) });
      continue;
    }
    seen.set(c.dupKey, c.line);
    const key = `${c.channelId ?? ""}\u0000${c.creatorId ?? ""}\u0000${c.videoId ?? ""}`;
    const g = groups.get(key);
    if (g) {
      g.amount = addDec(g.amount, c.amount);
      g.lines.push(c.line);
    } else {
      groups.set(key, { channelId: c.channelId, creatorId: c.creatorId, videoId: c.videoId, amount: c.amount, lines: [c.line] });
    }
    total = addDec(total, c.amount);
  }
  problems.sort((a, b) => a.line - b.line);
  return { format, dataRows, groups: [...groups.values()], problems, skipped, total };
}
