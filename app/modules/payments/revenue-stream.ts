import Papa from "papaparse";
import { type Dec, pow10 } from "./decimal";
import { slashMonth } from "./period";
import { CSV_MESSAGES, type RowContext, type RowProblem, readRow } from "./revenue-csv";

// A revenue report read in byte ranges (issue 45 §1, docs/decisions/0334). Pure: the range step
// (import-report-read.server.ts) gives one range's bytes; this finds where its last whole record
// ends, parses the records before it with papaparse exactly as the whole-file parse does, and checks
// each row with the same readRow. What needs the whole file (duplicates across ranges, day/month
// order, matching) is left to the caller with the facts it needs.

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/**
 * The offset just past the last record terminator of `bytes` that is outside a quoted field, or -1
 * when the range holds no whole record. `bytes` starts at a record boundary. A quote opens a field
 * only at its start (as papaparse reads it: `12" vinyl` is plain text); "" inside quotes is a quote.
 * `breakByte` is LF (LF and CRLF files) or CR (old Mac files).
 */
export function lastRecordEnd(bytes: Uint8Array, delimiterByte: number, breakByte: number = LF): number {
  let fieldStart = true;
  let quoted = false;
  let closing = false;
  let end = -1;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (quoted) {
      if (closing) {
        if (b === QUOTE)
          closing = false; // "" : an escaped quote
        else if (b === delimiterByte) {
          quoted = false;
          closing = false;
          fieldStart = true;
        } else if (b === breakByte) {
          quoted = false;
          closing = false;
          fieldStart = true;
          end = i + 1;
        } else if (b !== CR) {
          quoted = false; // text after a closing quote: the field goes on unquoted
          closing = false;
          fieldStart = false;
        }
      } else if (b === QUOTE) closing = true;
      continue;
    }
    if (b === breakByte) {
      fieldStart = true;
      end = i + 1;
    } else if (b === delimiterByte) fieldStart = true;
    else if (fieldStart && b === QUOTE) {
      quoted = true;
      fieldStart = false;
    } else fieldStart = false;
  }
  return end;
}

/** The records' text without the terminator that ends the range (papaparse would read it as one more empty record). */
export function withoutLastBreak(text: string): string {
  if (text.endsWith("\r\n")) return text.slice(0, -2);
  if (text.endsWith("\n") || text.endsWith("\r")) return text.slice(0, -1);
  return text;
}

/** An accepted row, its amount in billionths of a dollar; `period` "m" (the month) or "s:" and a day/month date as written. */
export type StreamRow = { line: number; period: string; channelId: string; creatorId: string; videoId: string; nano: bigint; dupKey: string };

export type RangeReading = {
  rows: StreamRow[];
  problems: RowProblem[];
  skipped: RowProblem[];
  /** Data rows (not blank, not totals), as the whole-file parse counts them. */
  dataRows: number;
  /** Records papaparse read (blank ones too): the line numbers of the next range start after them. */
  records: number;
  /** Day/month dates: a part above 12 first or second, and the in-month score (period.ts slashOrderOf). */
  slash: { dmy: boolean; mdy: boolean; score: number };
};

/** Billionths of a dollar: the finest unit an amount is summed in on this path (docs/decisions/0334). */
export const NANO_SCALE = 9;
export const MESSAGE_TOO_PRECISE_STREAMED = `Net revenue has more than ${NANO_SCALE} decimals (files read in ranges are summed in billionths of a dollar).`;

/** An exact amount in billionths, or null when it has a non-zero digit past the ninth decimal. */
export function toNano(d: Dec): bigint | null {
  if (d.s <= NANO_SCALE) return d.n * pow10(NANO_SCALE - d.s);
  const div = pow10(d.s - NANO_SCALE);
  return d.n % div === 0n ? d.n / div : null;
}

/** Billionths back to an exact decimal at the smallest scale that holds it (so whole cents read as today's cents). */
export function fromNano(nano: bigint): Dec {
  let n = nano;
  let s = NANO_SCALE;
  while (s > 0 && n % 10n === 0n) {
    n /= 10n;
    s -= 1;
  }
  return { n, s };
}

/**
 * The records of one range (its text ends at a record boundary, the header already read unless
 * `withHeader`): each row checked by readRow, rows of another month (by an unambiguous period) a
 * problem as in the whole-file parse. Line numbers continue from `linesBefore`.
 */
export function readRange(
  text: string,
  opts: { ctx: RowContext; delimiter: string; newline?: string; month: string; linesBefore: number; periodLabel: string; skipHeader?: boolean },
): RangeReading {
  const out: RangeReading = { rows: [], problems: [], skipped: [], dataRows: 0, records: 0, slash: { dmy: false, mdy: false, score: 0 } };
  const { ctx, month } = opts;
  Papa.parse<string[]>(text, {
    skipEmptyLines: false,
    delimiter: opts.delimiter,
    newline: opts.newline as Papa.ParseConfig["newline"],
    step(result) {
      out.records += 1;
      if (opts.skipHeader && out.records === 1) return;
      const line = opts.linesBefore + out.records;
      const outcome = readRow(ctx, result.data, result.errors);
      if (outcome.kind === "blank") return;
      if (outcome.kind === "skipped") {
        out.skipped.push({ line, reason: outcome.reason });
        return;
      }
      out.dataRows += 1;
      if (outcome.kind === "problem") {
        out.problems.push({ line, reason: outcome.reason });
        return;
      }
      const { row } = outcome;
      const nano = toNano(row.amount);
      if (nano === null) {
        out.problems.push({ line, reason: MESSAGE_TOO_PRECISE_STREAMED });
        return;
      }
      let period = "m";
      if ("month" in row.period) {
        if (row.period.month !== month) {
          out.problems.push({ line, reason: CSV_MESSAGES.otherMonth(opts.periodLabel, row.periodText, month) });
          return;
        }
      } else {
        const { a, b } = row.period;
        if (a > 12) out.slash.dmy = true;
        if (b > 12) out.slash.mdy = true;
        if (slashMonth(row.period, "dmy") === month) out.slash.score += 1;
        if (slashMonth(row.period, "mdy") === month) out.slash.score -= 1;
        period = `s:${row.periodText}`;
      }
      out.rows.push({
        line,
        period,
        channelId: row.channelId ?? "",
        creatorId: row.creatorId ?? "",
        videoId: row.videoId ?? "",
        nano,
        dupKey: row.dupKey,
      });
    },
  });
  return out;
}

/** Two independent 53-bit hashes of a row's duplicate key (cyrb53): 106 bits, safe integers for D1. */
export function keyHash(key: string): [number, number] {
  return [cyrb53(key, 0x9e3779b1), cyrb53(key, 0x85ebca77)];
}

function cyrb53(str: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
