import { eq, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { agencies } from "~/db/schema";
import { db } from "~/platform/db.server";

// Agency names for other modules' lists and detail views, as SQL over an agency id column, so the
// caller keeps its page to one statement (e.g. the admin's user details: "joined through").

/** The name and slug of the agency in an agency id column (null when none). */
export function agencyLabelOf(agencyId: SQLiteColumn | SQL): { name: SQL<string | null>; slug: SQL<string | null> } {
  // Nested builders: their columns stay qualified even in the select list of a one-table query.
  const of = (column: typeof agencies.name | typeof agencies.slug) =>
    sql<string | null>`(${db().select({ v: column }).from(agencies).where(eq(agencies.id, agencyId))})`;
  return { name: of(agencies.name), slug: of(agencies.slug) };
}
