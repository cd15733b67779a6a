// The music library's lists, labels, URL state and track shape: client-safe and without zod, so
// the /music page imports it on its first load (the zod schemas are in ./schema.ts, which
// re-exports these). docs/decisions/0101-library-url-state.md.

// A relative import with its extension: the demo seed (app/dev/music-seed.ts) runs this module in Node.
import { boundedMemo } from "../../lib/bounded-memo.ts";

export const GENRES = ["Acoustic", "Ambient", "Cinematic", "Classical", "Electronic", "Funk", "Hip-Hop", "Jazz", "Lo-fi", "Pop", "Rock", "Synthwave"] as const;
export type Genre = (typeof GENRES)[number];

export const MOODS = ["Calm", "Chill", "Dark", "Dramatic", "Energetic", "Happy", "Quirky", "Romantic", "Sad", "Uplifting"] as const;
export type Mood = (typeof MOODS)[number];

/** relevance: bm25 rank of a search (only with a search); newest: published first; popular: most licences; title: A–Z. */
export const LIBRARY_SORTS = ["relevance", "newest", "popular", "title"] as const;
export type LibrarySort = (typeof LIBRARY_SORTS)[number];
export const SORT_LABELS: Record<LibrarySort, string> = {
  relevance: "Best match",
  newest: "Newest",
  popular: "Most used",
  title: "Title (A–Z)",
};

export const BPM_MIN = 40;
export const BPM_MAX = 250;
/** Durations in seconds (the filter works on whole seconds; the selects offer these steps). */
export const DURATION_STEPS = [15, 30, 45, 60, 90, 120, 180, 240, 300] as const;
export const DURATION_LIMIT = 3600;
export const SEARCH_MAX = 100;
export const LIBRARY_PAGE_SIZE = 20;
/** Ids the library may be asked for at once (the browser's Favorites view). */
export const IDS_MAX = 80; // D1 binds at most 100 parameters per statement; the filters take the other 10.

/** The whole state of the library page, as the URL holds it. */
export type LibraryQuery = {
  q: string;
  genre: Genre | "";
  mood: Mood | "";
  bpmMin: number | null;
  bpmMax: number | null;
  durMin: number | null;
  durMax: number | null;
  sort: LibrarySort;
  page: number;
  /** Only these tracks (the Favorites view); empty = all. */
  ids: string[];
};

export const EMPTY_LIBRARY_QUERY: LibraryQuery = {
  q: "",
  genre: "",
  mood: "",
  bpmMin: null,
  bpmMax: null,
  durMin: null,
  durMax: null,
  sort: "newest",
  page: 1,
  ids: [],
};

/** The URL parameter of each part of the state. */
export const LIBRARY_PARAMS = {
  q: "q",
  genre: "genre",
  mood: "mood",
  bpmMin: "bpm_min",
  bpmMax: "bpm_max",
  durMin: "dur_min",
  durMax: "dur_max",
  sort: "sort",
  page: "page",
  ids: "ids",
} as const satisfies Record<keyof LibraryQuery, string>;

/** The sort a query gets when none is chosen: best match while searching, else newest. */
export const defaultSort = (q: string): LibrarySort => (q.trim() ? "relevance" : "newest");

/** Any filter or search in effect (what 'Clear filters' clears). */
export function hasFilters(query: LibraryQuery): boolean {
  return !!(query.q || query.genre || query.mood || query.bpmMin !== null || query.bpmMax !== null || query.durMin !== null || query.durMax !== null);
}

/**
 * The canonical URL of a library state: defaults are left out, so every state has one address
 * (shareable, and the back button returns to it).
 */
export function libraryHref(query: LibraryQuery, changes: Partial<LibraryQuery> = {}, pathname = "/music"): string {
  const next = { ...query, ...changes };
  const params = new URLSearchParams();
  if (next.q.trim()) params.set(LIBRARY_PARAMS.q, next.q.trim());
  if (next.genre) params.set(LIBRARY_PARAMS.genre, next.genre);
  if (next.mood) params.set(LIBRARY_PARAMS.mood, next.mood);
  if (next.bpmMin !== null) params.set(LIBRARY_PARAMS.bpmMin, String(next.bpmMin));
  if (next.bpmMax !== null) params.set(LIBRARY_PARAMS.bpmMax, String(next.bpmMax));
  if (next.durMin !== null) params.set(LIBRARY_PARAMS.durMin, String(next.durMin));
  if (next.durMax !== null) params.set(LIBRARY_PARAMS.durMax, String(next.durMax));
  if (next.sort !== defaultSort(next.q)) params.set(LIBRARY_PARAMS.sort, next.sort);
  if (next.ids.length) params.set(LIBRARY_PARAMS.ids, next.ids.join(","));
  if (next.page > 1) params.set(LIBRARY_PARAMS.page, String(next.page));
  const qs = params.toString();
  return qs ? `${pathname}?${qs}` : pathname;
}

/** "m:ss" (or "h:mm:ss"); "0:00" for anything that is not a finite, positive number. */
export function formatTime(seconds: number): string {
  const s = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/** Peaks as numbers 0..255; anything malformed counts as no peaks. */
export function parsePeaks(peaks: readonly number[] | string | null | undefined): number[] {
  let list: unknown = peaks;
  if (typeof peaks === "string") {
    try {
      list = JSON.parse(peaks);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(list)) return [];
  return list.map((v) => (typeof v === "number" && Number.isFinite(v) ? Math.min(255, Math.max(0, v)) : 0));
}

/**
 * `count` bar heights (0..1) from the peaks: each bar is the loudest peak of its share, so short
 * loud moments stay visible when a long waveform is drawn small. Empty peaks → a flat line.
 */
export function barsFrom(peaks: readonly number[], count: number): number[] {
  const n = Math.max(1, Math.floor(count));
  if (peaks.length === 0) return Array.from({ length: n }, () => 0);
  return Array.from({ length: n }, (_, i) => {
    const from = Math.floor((i * peaks.length) / n);
    const to = Math.max(from + 1, Math.floor(((i + 1) * peaks.length) / n));
    let max = 0;
    for (const peak of peaks.slice(from, to)) max = Math.max(max, peak);
    return max / 255;
  });
}

/** 95 → "1:35" (the player's clock, on whole seconds). */
export const formatDuration = (seconds: number): string => formatTime(Math.round(seconds));

/** "1 min 35 s", for screen readers and labels. */
export function spokenDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const m = Math.floor(s / 60);
  const rest = s % 60;
  return [m ? `${m} min` : "", rest || !m ? `${rest} s` : ""].filter(Boolean).join(" ");
}

// ---------------------------------------------------------------------------------------------
// The track as the library shows it (also what the player, favorites and licence buttons get)
// ---------------------------------------------------------------------------------------------

/** How many waveform bars the list and the player draw. */
export const WAVEFORM_BARS = 64;

/** What every view of a track shows (library, player, review queue, a partner's submissions). */
export type TrackFacts = {
  id: string;
  title: string;
  artist: string;
  genre: string | null;
  mood: string | null;
  bpm: number | null;
  durationSeconds: number;
};

/** A published track on a public page (the campaign page): its facts and URLs the server signed for an hour. */
export type PublicTrackPreview = TrackFacts & { audioUrl: string; coverUrl: string | null };

/** The columns a library row needs, as stored. */
export type LibraryRow = TrackFacts & {
  coverKey: string | null;
  /** Space-separated. */
  tags: string;
  /** JSON array of 0..255. */
  peaks: string;
  licenceCount: number;
  publishedAt: string | null;
};

/** A library row as the page gets it. */
export type LibraryTrack = Omit<LibraryRow, "coverKey" | "tags" | "peaks"> & {
  tags: string[];
  /** JSON text of WAVEFORM_BARS values 0..255 ("[]" when the track has none): libraryPeaks. */
  peaks: string;
  /** The cover's address (served by the cover route), or null for the placeholder. */
  coverUrl: string | null;
};

/** Where a submitted track stands, and what its reviewer said (the review queue, a partner's submissions). */
export type TrackHistory = {
  status: "in_review" | "published" | "rejected" | "withdrawn";
  reviewNote: string | null;
  withdrawReason: string | null;
  createdAt: string;
  reviewedAt: string | null;
  publishedAt: string | null;
  withdrawnAt: string | null;
};

/** A submission's history entry, oldest first (music_track_events; issue 30). */
export type TrackEvent = {
  id: string;
  trackId: string;
  kind: "rejected" | "resubmitted" | "approved" | "withdrawn";
  /** The reviewer's note (rejected, approved) or the reason (withdrawn). */
  note: string | null;
  /** A resubmission's changed fields: "title", "audio", … */
  changes: string[];
  createdAt: string;
};

/** "Pop · Happy · 120 BPM", and the length when asked: the line under a track's title. */
export function trackFactsLine(track: Omit<TrackFacts, "id" | "title" | "artist">, withLength = false): string {
  return [track.genre, track.mood, track.bpm ? `${track.bpm} BPM` : null, withLength ? formatDuration(track.durationSeconds) : null]
    .filter(Boolean)
    .join(" · ");
}

/** The address the cover route serves a track's cover at. */
export const coverPath = (trackId: string) => `/music/cover/${encodeURIComponent(trackId)}`;

/** Stored peaks (a JSON array of 0..255) reduced to `bars` values 0..255 (each span's loudest); [] when there are none. */
export function resamplePeaks(stored: string | readonly number[], bars = WAVEFORM_BARS): number[] {
  const peaks = parsePeaks(stored);
  return peaks.length ? barsFrom(peaks, bars).map((h) => Math.round(h * 255)) : [];
}

/**
 * The library's waveform of stored peaks: `resamplePeaks` to WAVEFORM_BARS, as JSON text. Made once
 * per isolate for the same stored peaks (a track's peaks never change, and every library page
 * reads the same twenty), and sent as one string: the loader data's encoder would otherwise write
 * 64 numbers a track one by one (docs/decisions/0278).
 */
// At most 500 tracks: the keys are the stored peaks (up to 1,024 numbers, about 4 KB each), so the
// memory stays near 2 MB of the isolate's 128 MB.
const madePeaks = boundedMemo<string>(500);
export const libraryPeaks = (stored: string): string => madePeaks(stored, () => JSON.stringify(resamplePeaks(stored)));

export function toLibraryTrack(row: LibraryRow): LibraryTrack {
  return {
    id: row.id,
    title: row.title,
    artist: row.artist,
    genre: row.genre,
    mood: row.mood,
    bpm: row.bpm,
    durationSeconds: row.durationSeconds,
    tags: row.tags.split(" ").filter(Boolean),
    peaks: libraryPeaks(row.peaks),
    coverUrl: row.coverKey ? coverPath(row.id) : null,
    licenceCount: row.licenceCount,
    publishedAt: row.publishedAt,
  };
}
