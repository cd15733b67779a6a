import { and, count, eq, type SQL, sql } from "drizzle-orm";
import { manualChannelSubmissions, youtubeChannels } from "~/db/schema";
import { db } from "~/platform/db.server";

// Channel counts other modules show, as query builders (not executed) for their page batch.

/**
 * The user's connected channels: linked channels plus manual submissions with status verified.
 * One row, `{ n }`. `userId` may be an SQL expression (the session's user, accounts alongsideSession).
 */
export function connectedChannelCountQuery(userId: string | SQL<string | null>) {
  const verified = db()
    .select({ n: count() })
    .from(manualChannelSubmissions)
    .where(and(eq(manualChannelSubmissions.userId, userId), eq(manualChannelSubmissions.status, "verified")));
  return db()
    .select({ n: sql<number>`count(*) + ${verified}`.mapWith(Number) })
    .from(youtubeChannels)
    .where(eq(youtubeChannels.userId, userId));
}
