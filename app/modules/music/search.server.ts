import { and, asc, count, desc, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import { musicTracks } from "~/db/schema";
import { columnsOf } from "~/db/columns";
import type { Db } from "~/platform/db.server";
import { inJsonList } from "~/db/in-json-list";
import { LIBRARY_PAGE_SIZE, type LibraryQuery, type LibrarySort } from "./library";
import { searchGroups, typedWords, type VocabularyWord } from "./search-words";

// The library's queries, as statements (not executed): the page and its count go to D1 in one
// batch, and scripts/bench-music.mjs times exactly these statements against 10,000 tracks.
// Only imports that Node can load without the Worker (the bench runs them through wrangler's
// local D1), hence `Db` as a type and the database handed in. docs/decisions/0100-library-search.md.

/** An FTS5 string for one spelling: a word, or adjacent words as a phrase; the last one a prefix. */
function ftsTerm(words: string): string {
  return [...words].length > 1 || words.includes(" ") ? `"${words}"*` : `"${words}"`;
}

/**
 * The FTS5 query for what a person typed: every word (letters, digits and marks, as the table's
 * unicode61 tokenizer splits them) becomes a quoted term, so the words must all match and nothing
 * typed is read as FTS syntax (quotes, AND/OR/NOT/NEAR, `*`, `^`, column filters). Words of two
 * or more characters match as prefixes (`"sun"*`); a single character only as a whole word (`"a"`):
 * a one-letter prefix would rank most of the catalogue (see docs/decisions/0100).
 * A word with other spellings matches any of them (`("harbour"* OR "harbor"*)`, `("lofi"* OR
 * "lo fi"*)`; search-words.ts, docs/decisions/0240), and a word for a mood also any track of the
 * moods it names (`("upbeat"* OR search_facets : "happy" OR …)`, docs/decisions/0316). Null when
 * nothing searchable was typed.
 */
export function ftsQuery(text: string): string | null {
  const groups = searchGroups(typedWords(text)).map(({ spellings, moods }) => [
    ...spellings.map(ftsTerm),
    // A word for a mood also finds that mood's tracks: the mood word alone, in the facets column
    // (its genre, mood and tempo words), so "upbeat" does not find a title that says "happy".
    ...moods.map((mood) => `search_facets : "${mood}"`),
  ]);
  if (!groups.length) return null;
  // FTS5 reads `a b` as a AND b between plain terms only: next to a parenthesised group the AND is written.
  const joiner = groups.some((g) => g.length > 1) ? " AND " : " ";
  return groups.map((g) => (g.length === 1 ? g[0] : `(${g.join(" OR ")})`)).join(joiner);
}

// FTS5 cannot be said with drizzle's builder: the virtual table (migrations/0007_music.sql, its
// columns since migrations/0021) is joined on rowid, filtered with MATCH and ranked with bm25().
// Column weights: a title match counts ten times a tag match, an artist match five times, a genre,
// mood or tempo word twice. A title that is exactly what was typed comes first (docs/decisions/0240).
const FTS_TABLE = sql`music_tracks_fts`;
const FTS_ON = sql`music_tracks_fts.rowid = ${musicTracks}.rowid`;
const rankOf = (trimmed: unknown) =>
  sql`bm25(music_tracks_fts, 10.0, 5.0, 1.0, 2.0) - (CASE WHEN ${musicTracks.title} = ${trimmed} COLLATE NOCASE THEN 1000 ELSE 0 END)`;

/**
 * The library's vocabulary: every word of the index (published or not) and in how many tracks.
 * Read only when a search found nothing, to correct its typos (correctWords); a correction is shown
 * only when it finds published tracks, so no unpublished word is ever revealed.
 */
export const VOCABULARY_SQL = "SELECT term, doc AS docs FROM music_tracks_vocab";
export function readVocabulary(d: Db): Promise<VocabularyWord[]> {
  return d.all<VocabularyWord>(sql.raw(VOCABULARY_SQL));
}

/** The columns of a track's facts (TrackFacts): every list of tracks starts with them. */
export const trackFactColumns = columnsOf(musicTracks, "id", "title", "artist", "genre", "mood", "bpm", "durationSeconds");

/** The columns a library row shows (LibraryRow). */
export const libraryColumns = { ...trackFactColumns, ...columnsOf(musicTracks, "coverKey", "tags", "peaks", "licenceCount", "publishedAt") };

/** The columns of a track's history (TrackHistory). */
export const trackHistoryColumns = columnsOf(musicTracks, "status", "reviewNote", "withdrawReason", "createdAt", "reviewedAt", "publishedAt", "withdrawnAt");

/**
 * What the library may show: published tracks, narrowed by the filters (not the search).
 * `rangesByRow`: the BPM and length ranges are written `+column`, which keeps the planner off
 * their indexes. SQLite guesses any two-sided range matches 1/64 of the rows, so it picked a wide
 * range's index and read most of the table; the page instead walks its sort's index (or a
 * genre/mood index), and so does the count when a genre or mood is chosen. A count with ranges
 * only keeps their (covering) indexes. Measured by scripts/bench-music.mjs; docs/decisions/0103.
 */
export function libraryFilters(parts: LibraryParts, rangesByRow = false): SQL | undefined {
  const t = musicTracks;
  const range = (col: typeof t.bpm | typeof t.durationSeconds) => (rangesByRow ? sql`+${col}` : sql`${col}`);
  const given = (value: unknown, condition: (value: never) => SQL) => (value === undefined ? undefined : condition(value as never));
  return and(
    eq(t.status, "published"),
    given(parts.genre, (v) => eq(t.genre, v)),
    given(parts.mood, (v) => eq(t.mood, v)),
    given(parts.bpmMin, (v) => gte(range(t.bpm), v)),
    given(parts.bpmMax, (v) => lte(range(t.bpm), v)),
    given(parts.durMin, (v) => gte(range(t.durationSeconds), v)),
    given(parts.durMax, (v) => lte(range(t.durationSeconds), v)),
    given(parts.ids, (v) => inJsonList(t.id, v)),
  );
}

/** The order of a page; every sort ends on the id, so pages never overlap. Each matches an index (music_tracks_library_*_idx). */
function orderOf(sort: LibrarySort, rank: SQL | null): SQL[] {
  const t = musicTracks;
  switch (sort) {
    case "relevance":
      return rank ? [asc(rank), desc(t.publishedAt), desc(t.id)] : [desc(t.publishedAt), desc(t.id)];
    case "popular":
      return [desc(t.licenceCount), desc(t.publishedAt), desc(t.id)];
    case "title":
      return [sql`${t.title} COLLATE NOCASE`, asc(t.id)];
    case "newest":
      return [desc(t.publishedAt), desc(t.id)];
  }
}

/**
 * What a library page's statements are made of: the sort, and each filter's value (undefined when
 * the query has no such filter). The values are plain (libraryParts), or builtOnce slots standing
 * for them (music's library.server builds each shape of query once per isolate).
 */
export type LibraryParts = {
  sort: LibrarySort;
  /** The FTS5 string of the search (ftsQuery). */
  match?: unknown;
  /** The search as typed, trimmed: a title equal to it ranks first (only when sorted by relevance). */
  typed?: unknown;
  genre?: unknown;
  mood?: unknown;
  bpmMin?: unknown;
  bpmMax?: unknown;
  durMin?: unknown;
  durMax?: unknown;
  /** The track ids as a JSON array (the Favorites view). */
  ids?: unknown;
  /** Rows skipped before the page. */
  offset: unknown;
};

/** The parts of a query's page (`page` overrides the query's: the last page, when the asked one is past the end). */
export function libraryParts(query: LibraryQuery, page = query.page): LibraryParts & { offset: number } {
  const match = ftsQuery(query.q) ?? undefined;
  return {
    sort: query.sort,
    match,
    // bm25() costs per matching row: computed only when the page is sorted by it.
    typed: match && query.sort === "relevance" ? query.q.trim() : undefined,
    genre: query.genre || undefined,
    mood: query.mood || undefined,
    bpmMin: query.bpmMin ?? undefined,
    bpmMax: query.bpmMax ?? undefined,
    durMin: query.durMin ?? undefined,
    durMax: query.durMax ?? undefined,
    ids: query.ids.length ? JSON.stringify(query.ids) : undefined,
    offset: (Math.max(1, page) - 1) * LIBRARY_PAGE_SIZE,
  };
}

/**
 * The statements of one library page: [the page's rows, the number of matching tracks].
 *
 * The page is found first as ids (filtered and sorted on indexed columns, ranked by bm25 when
 * searching), and only its rows are then read whole: a sort never carries the peaks and tags of
 * thousands of rows (a "deferred join").
 */
export function libraryStatementsOf(d: Db, parts: LibraryParts) {
  const searching = parts.match !== undefined;
  const matching = searching ? sql`music_tracks_fts MATCH ${parts.match}` : undefined;
  const rank = parts.typed !== undefined ? rankOf(parts.typed) : null;

  const ids = d
    .select({ pageId: sql<string>`${musicTracks.id}`.as("page_id"), rank: sql<number>`${rank ?? sql`0`}`.as("page_rank") })
    .from(musicTracks)
    .$dynamic();
  const total = d.select({ n: count() }).from(musicTracks).$dynamic();
  if (searching) {
    ids.innerJoin(FTS_TABLE, FTS_ON);
    total.innerJoin(FTS_TABLE, FTS_ON);
  }
  const pageIds = ids
    .where(and(libraryFilters(parts, true), matching))
    .orderBy(...orderOf(parts.sort, rank))
    .limit(LIBRARY_PAGE_SIZE)
    .offset(parts.offset as number)
    .as("page");
  const rows = d
    .select(libraryColumns)
    .from(pageIds)
    .innerJoin(musicTracks, eq(musicTracks.id, pageIds.pageId))
    .orderBy(...orderOf(parts.sort, rank ? sql`${pageIds.rank}` : null));
  return [rows, total.where(and(libraryFilters(parts, parts.genre !== undefined || parts.mood !== undefined), matching))] as const;
}

/** libraryStatementsOf a query's page, built now (scripts/bench-music.mjs times exactly these). */
export function libraryStatements(d: Db, query: LibraryQuery, page = query.page) {
  return libraryStatementsOf(d, libraryParts(query, page));
}

/** At most this many similar tracks are shown. */
export const SIMILAR_MAX = 12;
/** BPMs this close count as the same tempo. */
export const SIMILAR_BPM_BAND = 10;

/**
 * The published tracks most like a track (issue 30 §1, docs/decisions/0242): a point score, same
 * genre 3, same mood 2, a tempo within ±10 BPM 2, same artist 1; at least 3 points (so one shared
 * trait other than the genre is not enough); then the most used, the newest. The track itself is
 * never among them. Empty when the track is not published.
 */
export function similarStatement(d: Db, trackId: string) {
  const t = musicTracks;
  const seed = d
    .select({ genre: t.genre, mood: t.mood, bpm: t.bpm, artist: t.artist })
    .from(t)
    .where(and(eq(t.id, trackId), eq(t.status, "published")))
    .as("seed");
  const score = sql<number>`(CASE WHEN ${t.genre} = ${seed.genre} THEN 3 ELSE 0 END)
    + (CASE WHEN ${t.mood} = ${seed.mood} THEN 2 ELSE 0 END)
    + (CASE WHEN abs(${t.bpm} - ${seed.bpm}) <= ${SIMILAR_BPM_BAND} THEN 2 ELSE 0 END)
    + (CASE WHEN ${t.artist} = ${seed.artist} THEN 1 ELSE 0 END)`;
  return d
    .select(libraryColumns)
    .from(t)
    .innerJoin(seed, sql`1 = 1`)
    .where(and(eq(t.status, "published"), sql`${t.id} <> ${trackId}`, sql`${score} >= 3`))
    .orderBy(desc(score), desc(t.licenceCount), desc(t.publishedAt), desc(t.id))
    .limit(SIMILAR_MAX);
}
