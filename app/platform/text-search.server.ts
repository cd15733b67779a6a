import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

// Text search over a column, for every search box (docs/decisions/0201). D1 refuses LIKE and GLOB
// patterns longer than 50 bytes ("LIKE or GLOB pattern too complex"): 17 CJK or 25 Cyrillic
// characters were enough to answer 500. instr() takes the typed text as a plain value, so there is
// no pattern, no length limit and no wildcard to escape ('%' and '_' are just characters).
// Case-insensitive as LIKE was: SQLite's lower() folds ASCII letters (other scripts match as typed).

type Column = SQLiteColumn | SQL;

/** The column contains `text` anywhere. */
export function containsText(column: Column, text: string): SQL {
  return sql`instr(lower(${column}), lower(${text})) > 0`;
}

/** The column starts with `text`. */
export function startsWithText(column: Column, text: string): SQL {
  return sql`instr(lower(${column}), lower(${text})) = 1`;
}

/** A word of the column starts with `text`: its start, or just after a space (a name's surname). */
export function wordStartsWithText(column: Column, text: string): SQL {
  return sql`(${startsWithText(column, text)} or ${containsText(column, ` ${text}`)})`;
}
