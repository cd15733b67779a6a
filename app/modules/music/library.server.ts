import { and, eq } from "drizzle-orm";
import { musicTracks } from "~/db/schema";
import { notFound } from "~/lib/errors";
import { authorize, type Actor } from "~/lib/permissions";
import { alongsideSession } from "~/modules/accounts/accounts.server";
import { builtOnce, db } from "~/platform/db.server";
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

type LibraryStatements = ReturnType<typeof libraryStatementsOf>;
type BuiltLibrary = readonly [rows: ReturnType<typeof builtOnce<LibraryStatements[0]>>, total: ReturnType<typeof builtOnce<LibraryStatements[1]>>];

/** The library's statements by shape of query (which filters, which sort), each built once per isolate. */
const builtShapes = new Map<string, BuiltLibrary>();

/**
 * A library page's two statements (search.server libraryStatementsOf), built once per shape of
 * query with its values as slots (db.server builtOnce, docs/decisions/0284): the default page, a
 * genre, a search sorted by relevance… are each built the first time an isolate sees them. The
 * shapes are few (a filter is there or not, four sorts); the memory is emptied past 256 anyway.
 */
function libraryQueries(query: LibraryQuery, page = query.page) {
  const parts = libraryParts(query, page);
  const present = (Object.keys(parts) as (keyof LibraryParts)[]).filter((k) => k !== "sort" && parts[k] !== undefined);
  const shape = `${parts.sort}:${present.join(",")}`;
  let built = builtShapes.get(shape);
  if (!built) {
    if (builtShapes.size >= 256) builtShapes.clear();
    const slotted = (slot: <T>(name: string) => T): LibraryParts => ({
      sort: parts.sort,
      offset: slot("offset"),
      ...Object.fromEntries(present.map((k) => [k, slot(k)])),
    });
    built = [builtOnce((slot) => libraryStatementsOf(db(), slotted(slot))[0]), builtOnce((slot) => libraryStatementsOf(db(), slotted(slot))[1])];
    builtShapes.set(shape, built);
  }
  const values = Object.fromEntries(present.map((k) => [k, parts[k] as string | number]));
  return [built[0]({ ...values, offset: parts.offset }), built[1](values)] as const;
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
  const [rows, counted] = await db().batch(libraryQueries(query));
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
  const [rows, counted] = await db().batch(libraryQueries(correctedQuery));
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
