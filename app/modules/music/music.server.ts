import { count, eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { musicLicences, musicTracks } from "~/db/schema";
import { db } from "~/platform/db.server";

// The Music module's public surface: routes and other modules import from here, never from the
// files behind it. See docs/how-a-request-flows.md.
//   library.server.ts   what /music shows (search, filters, sort, pages)
//   search.server.ts    the library's statements (FTS5 search), also timed by `npm run bench:music`
// Other music helpers add one `export * from` line each below.
export * from "./library.server";
export { ftsQuery } from "./search.server";
export * from "./stream.server";
export * from "./submissions.server";
export * from "./review.server";
export * from "./licences.server";

/** Published tracks, as a query other modules can put in their page batch. */
export function publishedTrackCountQuery() {
  return db().select({ n: count() }).from(musicTracks).where(eq(musicTracks.status, "published"));
}

/** The user has taken a licence: the growth funnel's 'first licence' step (issue 18), as a predicate for a query. */
export function hasLicence(userId: SQLiteColumn | SQL): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${musicLicences} where ${musicLicences.userId} = ${userId})`;
}
export * from "./privacy.server";
