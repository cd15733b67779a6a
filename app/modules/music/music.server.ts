import { count, eq } from "drizzle-orm";
import { musicTracks } from "~/db/schema";
import { db } from "~/platform/db.server";

// The music domain (library, licences, partner submissions) arrives with its own issue. Today it
// owns the music_tracks table and answers the dashboard's 'Music Library' count.

/** Published tracks, as a query other modules can put in their page batch. */
export function publishedTrackCountQuery() {
  return db().select({ n: count() }).from(musicTracks).where(eq(musicTracks.status, "published"));
}
