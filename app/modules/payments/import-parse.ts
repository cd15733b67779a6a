import { invalid } from "~/lib/errors";
import { lastFullMonth, monthOf } from "./calendar";
import { PAYMENT_MESSAGES as M } from "./messages";
import {
  COLUMN_NAME_MAX,
  CSV_MESSAGES,
  type ColumnMapping,
  type FileHead,
  MAPPING_ROLES,
  type ParsedRevenue,
  type ParseOptions,
  parseRevenue,
  readHead,
} from "./revenue-csv";

// The revenue import's first step (docs/decisions/0121-revenue-import.md, 0221): the month and the
// file checked, the format detected or the columns mapped, every row read into summed groups with
// each bad line's problem and line number. Pure: no database, no bucket (imports.server.ts reads the
// file and any remembered mapping, then calls these).

/**
 * A month can be imported once it is over: the current, unfinished month and later ones are
 * refused (the platform's figures for them are not final), before anything is read or written.
 */
export function checkImportableMonth(month: string, now: Date): void {
  if (month >= monthOf(now)) {
    const message = M.monthNotOver(month, lastFullMonth(now));
    throw invalid(message, { fieldErrors: { month: message } });
  }
}

/** The file's header and first rows, refusing a file with no rows or a column name over its cap. */
export function importHead(text: string): FileHead {
  const head = readHead(text);
  if (head.columns.every((c) => c === "") || head.sample.length === 0) throw invalid(CSV_MESSAGES.empty, { fieldErrors: { file: CSV_MESSAGES.empty } });
  // A column name is shown in the mapping step and remembered with the mapping: capped like a cell (issue 40 §10).
  const longName = head.columns.findIndex((c) => c.length > COLUMN_NAME_MAX);
  if (longName >= 0) throw invalid(CSV_MESSAGES.columnTooLong(longName + 1), { fieldErrors: { file: CSV_MESSAGES.columnTooLong(longName + 1) } });
  return head;
}

/** A mapping the file can be read with: month or date and amount named, and whose rows they are. */
export function checkMapping(mapping: ColumnMapping, columns: readonly string[], person: string): void {
  const errors: Record<string, string> = {};
  for (const role of MAPPING_ROLES) if (mapping[role] >= columns.length || mapping[role] < -1) errors[role] = M.mappingColumnUnknown;
  if (mapping.period < 0) errors.period = M.mappingPeriodRequired;
  if (mapping.amount < 0) errors.amount = M.mappingAmountRequired;
  if (mapping.channel < 0 && mapping.creator < 0 && !person) errors.person = M.mappingPersonRequired;
  const used = MAPPING_ROLES.filter((r) => mapping[r] >= 0);
  for (const role of used) if (used.some((other) => other !== role && mapping[other] === mapping[role])) errors[role] = M.mappingColumnTwice;
  const first = Object.values(errors)[0];
  if (first) throw invalid(first, { fieldErrors: errors });
}

/** A remembered mapping still fits the header it was found by (each role a column of it, or -1). */
export function fitsColumns(mapping: ColumnMapping, columns: readonly string[]): boolean {
  return MAPPING_ROLES.every((r) => Number.isInteger(mapping[r]) && mapping[r] >= -1 && mapping[r] < columns.length);
}

/** Every row read and checked (problems by line); a file of only a header, blank lines or totals rows is refused. */
export function parseImport(text: string, opts: ParseOptions): ParsedRevenue {
  const parsed = parseRevenue(text, opts);
  if (parsed.dataRows === 0) throw invalid(CSV_MESSAGES.empty, { fieldErrors: { file: CSV_MESSAGES.empty } });
  return parsed;
}
