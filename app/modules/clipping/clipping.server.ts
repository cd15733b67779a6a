import { and, eq, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { clipperLinks } from "~/db/schema";
import { CLIPPER_DEFAULT_SHARE_BPS } from "~/lib/constants";
import { db } from "~/platform/db.server";

// The clipping domain (invites, source folder, clips, splits) arrives with its own issue. Today it
// owns clipper_links: the link a clipper sign-up makes to the inviting creator, and the
// "is a clipper" predicate that broadcast audiences use.

/** Links a clipper to the creator who invited them; a second link of the same pair is ignored. */
export function linkClipperQuery(creatorUserId: string, clipperUserId: string) {
  return db()
    .insert(clipperLinks)
    .values({ id: crypto.randomUUID(), creatorUserId, clipperUserId, clipperShareBps: CLIPPER_DEFAULT_SHARE_BPS })
    .onConflictDoNothing();
}

/** "This user clips for at least one creator", for a WHERE over another table's user id column. */
export function isActiveClipper(userId: SQLiteColumn | SQL): SQL {
  return sql`exists (select 1 from ${clipperLinks} where ${and(eq(clipperLinks.clipperUserId, userId), eq(clipperLinks.status, "active"))})`;
}
