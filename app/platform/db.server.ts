import { drizzle } from "drizzle-orm/d1";
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
