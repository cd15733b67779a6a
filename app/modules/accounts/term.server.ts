import { eq, sql } from "drizzle-orm";
import { profiles } from "~/db/schema";
import { builtOnce, db } from "~/platform/db.server";

// The creator's 12-month term (spec: it starts when their first channel is linked). The channels
// module joins this statement to the batch that links a channel.

/** Starts the user's term at `at` unless it has started already (a query for a batch, not executed). */
export function startTermQuery(userId: string, at: string) {
  return db()
    .update(profiles)
    .set({ termStartedAt: sql`coalesce(${profiles.termStartedAt}, ${at})` })
    .where(eq(profiles.userId, userId));
}

/** When the user's term started, as one statement for a batch (its one row's `at`, null before the first channel link). */
export function termStartedAtQuery(userId: string) {
  return termStartedAtStatement({ userId });
}

const termStartedAtStatement = builtOnce((slot) =>
  db()
    .select({ at: profiles.termStartedAt })
    .from(profiles)
    .where(eq(profiles.userId, slot("userId")))
    .limit(1),
);

/** When the user's term started (their first channel link), or null: the payments module's agreement reads it. */
export async function termStartedAtOf(userId: string): Promise<string | null> {
  const row = await termStartedAtQuery(userId).get();
  return row?.at ?? null;
}
