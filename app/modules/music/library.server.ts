import { authorize, type Actor } from "~/lib/permissions";
import { db } from "~/platform/db.server";
import { LIBRARY_PAGE_SIZE, toLibraryTrack, type LibraryQuery, type LibraryTrack } from "./library";
import { libraryStatements } from "./search.server";

// What /music shows: one page of published tracks for the URL's search, filters and sort, and how
// many there are, in one D1 round trip (the page and the count in one batch).

export type LibraryPage = {
  tracks: LibraryTrack[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
};

export async function libraryPage(actor: Actor, query: LibraryQuery): Promise<LibraryPage> {
  authorize(actor, "music", "browse");
  const d = db();
  let [rows, counted] = await d.batch(libraryStatements(d, query));
  const total = counted[0]?.n ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / LIBRARY_PAGE_SIZE));
  let page = query.page;
  // An address past the last page (a shared link after tracks left, or page=999) shows the last
  // page rather than an empty one: the one case that costs a second round trip.
  if (rows.length === 0 && total > 0 && page > pageCount) {
    page = pageCount;
    [rows] = await d.batch([libraryStatements(d, query, page)[0]]);
  }
  return { tracks: rows.map(toLibraryTrack), total, page, pageCount, pageSize: LIBRARY_PAGE_SIZE };
}
