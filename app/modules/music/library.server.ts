import { and, eq } from "drizzle-orm";
import { musicTracks } from "~/db/schema";
import { notFound } from "~/lib/errors";
import { authorize, type Actor } from "~/lib/permissions";
import { alongsideSession } from "~/modules/accounts/accounts.server";
import { batch, builtOncePerShape, db } from "~/platform/db.server";
import { LIBRARY_PAGE_SIZE, toLibraryTrack, type LibraryQuery, type LibraryRow, type LibraryTrack } from "./library";
import { anyCorrectable, correctWords, typedWords } from "./search-words";
import { libraryColumns, type LibraryParts, libraryParts, libraryStatementsOf, readVocabulary, similarStatement } from "./search.server";

// What /music shows: one page of published tracks for the URL's search, filters and sort, and how
// many there are. The page and the count ride in the session lookup's D1 batch (accounts
// alongsideSession, docs/decisions/0083): a signed-in /music is one round trip.

export type LibraryPage = {
  tracks: LibraryTrack[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
  /**
   * What was searched instead when the typed search found nothing and a correction of its typos
   * against the library's words did ("nigth market" → "night market"); null otherwise.
   */
  correctedQ: string | null;
};

type SessionArgs = Parameters<typeof alongsideSession>[0];

/** Which parts a library query has (its sort, and the filters present): what its statements' text depends on. */
type LibraryShape = { sort: LibraryParts["sort"]; present: (keyof LibraryParts)[] };

const shapeKey = (shape: LibraryShape) => `${shape.sort}:${shape.present.join(",")}`;
const slotted = (slot: <T>(name: string) => T, { sort, present }: LibraryShape): LibraryParts => ({
  sort,
  offset: slot("offset"),
  ...Object.fromEntries(present.map((k) => [k, slot(k)])),
});
const libraryRows = builtOncePerShape(shapeKey, (slot, shape: LibraryShape) => libraryStatementsOf(db(), slotted(slot, shape))[0]);
const libraryTotal = builtOncePerShape(shapeKey, (slot, shape: LibraryShape) => libraryStatementsOf(db(), slotted(slot, shape))[1]);

/**
 * A library page's two statements (search.server libraryStatementsOf), built once per shape of
 * query with its values as slots (db.server builtOncePerShape, docs/decisions/0284): the default
 * page, a genre, a search sorted by relevance… are each built the first time an isolate sees them.
 */
function libraryQueries(query: LibraryQuery, page = query.page) {
  const parts = libraryParts(query, page);
  const present = (Object.keys(parts) as (keyof LibraryParts)[]).filter((k) => k !== "sort" && k !== "offset" && parts[k] !== undefined);
  const shape = { sort: parts.sort, present };
  const values = Object.fromEntries(present.map((k) => [k, parts[k] as string | number]));
  return [libraryRows(shape, { ...values, offset: parts.offset }), libraryTotal(shape, values)] as const;
}

/**
 * Starts reading the library page in the session lookup's batch. Call it before the guard (so it
 * joins that batch) and hand the guard's actor to the function it returns: only then are the rows
 * used (the statements read published tracks only, whoever asks).
 */
export function startLibraryPage(args: SessionArgs, query: LibraryQuery): (actor: Actor) => Promise<LibraryPage> {
  const [rowsQuery, countQuery] = libraryQueries(query);
  const rows = alongsideSession(args, () => rowsQuery);
  const counted = alongsideSession(args, () => countQuery);
  return async (actor) => {
    authorize(actor, "music", "browse");
    return finishPage(query, await rows, await counted);
  };
}

/** The same page on its own round trip (callers without a request: tests, tools). */
export async function libraryPage(actor: Actor, query: LibraryQuery): Promise<LibraryPage> {
  authorize(actor, "music", "browse");
  const [rows, counted] = await batch(libraryQueries(query));
  return finishPage(query, rows, counted);
}

async function finishPage(query: LibraryQuery, firstRows: LibraryRow[], counted: { n: number }[]): Promise<LibraryPage> {
  const found = await pageOf(query, firstRows, counted);
  return found.total === 0 && query.q ? ((await corrected(query)) ?? found) : found;
}

/**
 * A search that found nothing, searched again with its typos corrected against the library's own
 * words (docs/decisions/0240): the page of the corrected search when that finds tracks, else null.
 * Two more round trips, only for a search that found nothing.
 */
async function corrected(query: LibraryQuery): Promise<LibraryPage | null> {
  const typed = typedWords(query.q);
  if (!anyCorrectable(typed)) return null;
  const words = correctWords(typed, await readVocabulary(db()));
  if (!words) return null;
  const correctedQuery = { ...query, q: words.join(" ") };
  const [rows, counted] = await batch(libraryQueries(correctedQuery));
  const page = await pageOf(correctedQuery, rows, counted);
  return page.total ? { ...page, correctedQ: correctedQuery.q } : null;
}

async function pageOf(query: LibraryQuery, firstRows: LibraryRow[], counted: { n: number }[]): Promise<LibraryPage> {
  let rows = firstRows;
  const total = counted[0]?.n ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / LIBRARY_PAGE_SIZE));
  let page = query.page;
  // An address past the last page (a shared link after tracks left, or page=999) shows the last
  // page rather than an empty one: the one case that costs a second round trip.
  if (rows.length === 0 && total > 0 && page > pageCount) {
    page = pageCount;
    rows = await libraryQueries(query, page)[0].all();
  }
  return { tracks: rows.map(toLibraryTrack), total, page, pageCount, pageSize: LIBRARY_PAGE_SIZE, correctedQ: null };
}

/** A published track and the published tracks most like it (search.server similarStatement). */
export type SimilarTracks = { track: LibraryTrack; tracks: LibraryTrack[] };

/** "Similar tracks" of a published track, in one round trip; an unknown or unpublished track is not found. */
export async function similarTracks(actor: Actor, trackId: string): Promise<SimilarTracks> {
  authorize(actor, "music", "browse");
  const t = musicTracks;
  const [seed, similar] = await db().batch([
    db()
      .select(libraryColumns)
      .from(t)
      .where(and(eq(t.id, trackId), eq(t.status, "published")))
      .limit(1),
    similarStatement(db(), trackId),
  ]);
  if (!seed[0]) throw notFound("Track not found.");
  return { track: toLibraryTrack(seed[0]), tracks: similar.map(toLibraryTrack) };
}
