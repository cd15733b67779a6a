import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/**
 * `column IN (a list)` with the list as ONE bound value, a JSON array: D1 binds at most 100 values
 * per statement, and json_each (a table-valued function drizzle cannot express) has no such limit.
 * `list` is the values, or a JSON array already written (a `builtOnce` slot standing for
 * `JSON.stringify(values)`), so that a statement over a list of any length is built once.
 * Plain module (no Worker import): scripts/bench-music.mjs loads the library's statements in Node.
 */
export function inJsonList(column: SQLiteColumn | SQL, list: unknown): SQL {
  return sql`${column} in (select value from json_each(${Array.isArray(list) ? JSON.stringify(list) : list}))`;
}
