import { z } from "zod";
import {
  BPM_MAX,
  BPM_MIN,
  DURATION_LIMIT,
  GENRES,
  IDS_MAX,
  LIBRARY_PARAMS,
  LIBRARY_SORTS,
  MOODS,
  SEARCH_MAX,
  defaultSort,
  type Genre,
  type LibraryQuery,
  type LibrarySort,
  type Mood,
} from "./library";

// The music domain's schemas. The lists, labels and the library's URL helpers live in ./library
// (no zod: the /music page imports them on its first load) and are re-exported here for the
// server and the other music screens.
export * from "./library";

/** A whole number in [min, max] from a query parameter; anything else (empty, "abc", "1.5", "-1") is no value. */
const wholeNumber = (min: number, max: number) =>
  z
    .unknown()
    .transform((v) => (typeof v === "string" && /^\s*\d{1,9}\s*$/.test(v) ? Number(v) : null))
    .transform((n) => (n !== null && n >= min && n <= max ? n : null));

/** A value from a fixed list, matched without regard to case ("pop" → "Pop"); anything else is none. */
const oneOf = <T extends string>(list: readonly T[]) =>
  z.unknown().transform((v): T | "" => (typeof v === "string" ? (list.find((x) => x.toLowerCase() === v.trim().toLowerCase()) ?? "") : ""));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The library's URL state. It never fails: a value it cannot use falls back to its default
 * (bpm_min=abc → no lower bound, page=-1 → page 1, an unknown genre → all genres), and reversed
 * ranges are swapped.
 */
export const libraryQuerySchema = z
  .object({
    q: z.unknown().transform((v) => (typeof v === "string" ? v.replace(/\s+/g, " ").trim().slice(0, SEARCH_MAX) : "")),
    genre: oneOf<Genre>(GENRES),
    mood: oneOf<Mood>(MOODS),
    bpmMin: wholeNumber(BPM_MIN, BPM_MAX),
    bpmMax: wholeNumber(BPM_MIN, BPM_MAX),
    durMin: wholeNumber(0, DURATION_LIMIT),
    durMax: wholeNumber(0, DURATION_LIMIT),
    sort: oneOf<LibrarySort>(LIBRARY_SORTS),
    page: wholeNumber(1, 10_000),
    ids: z
      .unknown()
      .transform((v) =>
        typeof v === "string" ? [...new Set(v.split(",").map((s) => s.trim().toLowerCase()))].filter((s) => UUID.test(s)).slice(0, IDS_MAX) : [],
      ),
  })
  .transform((raw): LibraryQuery => {
    const [bpmMin, bpmMax] = ordered(raw.bpmMin, raw.bpmMax);
    const [durMin, durMax] = ordered(raw.durMin, raw.durMax);
    const sort = raw.sort === "" || (raw.sort === "relevance" && !raw.q) ? defaultSort(raw.q) : raw.sort;
    return { q: raw.q, genre: raw.genre, mood: raw.mood, bpmMin, bpmMax, durMin, durMax, sort, page: raw.page ?? 1, ids: raw.ids };
  });

function ordered(a: number | null, b: number | null): [number | null, number | null] {
  return a !== null && b !== null && a > b ? [b, a] : [a, b];
}

/** The library state of a URL (its query parameters named as in LIBRARY_PARAMS). */
export function parseLibraryQuery(params: URLSearchParams): LibraryQuery {
  const raw = Object.fromEntries(Object.entries(LIBRARY_PARAMS).map(([key, name]) => [key, params.get(name) ?? undefined]));
  return libraryQuerySchema.parse(raw);
}

// Partner submissions and the admin review (M4).
export * from "./submission-schema";
