import { getTableColumns, sql, type SQL } from "drizzle-orm";
import { securityAuditLog } from "~/db/schema";
import { db } from "./db.server";

// A D1 batch that holds only if a condition holds when it runs. SQLite has no ASSERT outside
// triggers; inserting a row that breaks a CHECK constraint (security_audit_log's severity) aborts
// the batch, and so rolls back every other statement in it. See docs/decisions/0021-admin-actions.md.
// Used where a race could otherwise remove the last admin or the last manager of an agency, and
// right after a guarded update (`changes() = 1`) so that its e-mail and audit row follow only when
// the update changed the row.

const PRECONDITION = "precondition_failed";

/** The row that cannot be stored: its severity breaks the CHECK constraint. */
const FAILED_ROW: Record<keyof typeof securityAuditLog.$inferSelect, string | null> = {
  id: PRECONDITION,
  eventType: PRECONDITION,
  severity: PRECONDITION,
  userId: null,
  targetUserId: null,
  ip: null,
  userAgent: null,
  path: null,
  details: "{}",
  createdAt: "",
};

/**
 * A statement (drizzle, not executed) that aborts its `db().batch([...])` unless `condition` holds
 * when the batch runs. INSERT ... SELECT ... WHERE NOT in raw SQL: drizzle's select builder cannot
 * select constants without a table (and a `db().run(sql)` item with parameters breaks D1 batches).
 */
export function precondition(condition: SQL | undefined) {
  // drizzle's and()/or() are typed `SQL | undefined` (undefined only for an empty list).
  if (!condition) throw new Error("precondition() needs a condition");
  const values = Object.keys(getTableColumns(securityAuditLog)).map((k) => sql`${FAILED_ROW[k as keyof typeof FAILED_ROW]}`);
  return db()
    .insert(securityAuditLog)
    .select(sql`select ${sql.join(values, sql`, `)} where not (${condition})`);
}

/** The condition "the statement just before this one in the batch changed exactly `n` rows". */
export const previousStatementChanged = (n = 1): SQL => sql`changes() = ${n}`;

/** Whether a batch failed because one of its preconditions did not hold. */
export function isPreconditionFailure(error: unknown): boolean {
  return /CHECK constraint failed/i.test(errorText(error));
}

/**
 * A unique index refused the statement: the race it decides was lost. `columns` names the index
 * as SQLite reports it ("campaigns.slug", "social_handles.platform, social_handles.handle"); without
 * it, any unique index.
 */
export function isUniqueViolation(error: unknown, columns?: string): boolean {
  const text = errorText(error);
  return columns ? text.toLowerCase().includes(`unique constraint failed: ${columns.toLowerCase()}`) : /UNIQUE constraint failed/i.test(text);
}

/** D1's error and its cause, as one text (drizzle wraps D1's error in its own). */
const errorText = (error: unknown) => `${String(error)} ${String((error as { cause?: unknown })?.cause ?? "")}`;
