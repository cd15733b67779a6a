import { drizzle } from "drizzle-orm/d1";
import type { BatchItem } from "drizzle-orm/batch";
import * as schema from "~/db/schema";
import { env } from "./env.server";

// The database, wrapped once. Modules use drizzle's query builder with types inferred from
// app/db/schema.ts (`typeof table.$inferSelect`), and camelCase reaches the UI. Raw SQL only where
// drizzle cannot say it (FTS5, a CHECK-based precondition), with a line saying why.
// Several statements for one page or one change go through `db().batch([...])`: one round trip,
// atomic for writes.

let cached: { binding: D1Database; db: ReturnType<typeof drizzle<typeof schema>> } | null = null;

export function db() {
  if (cached?.binding !== env.DB) cached = { binding: env.DB, db: drizzle(env.DB, { schema }) };
  return cached.db;
}

export type Db = ReturnType<typeof db>;
export { schema };

/** D1 binds at most 100 parameters per statement; an IN list of this many leaves room for a few more. */
export const IN_LIST_MAX = 90;

/**
 * `query` over `values` cut into IN lists D1 accepts, all chunks in one batch (one round trip);
 * the rows of every chunk, in order. No values, no query.
 */
export async function selectInChunks<Row>(values: readonly string[], query: (chunk: string[]) => BatchItem<"sqlite"> & PromiseLike<Row[]>): Promise<Row[]> {
  const unique = [...new Set(values)];
  if (unique.length === 0) return [];
  const [first, ...rest] = Array.from({ length: Math.ceil(unique.length / IN_LIST_MAX) }, (_, i) =>
    query(unique.slice(i * IN_LIST_MAX, (i + 1) * IN_LIST_MAX)),
  );
  const results = (await db().batch([first, ...rest])) as Row[][];
  return results.flat();
}
