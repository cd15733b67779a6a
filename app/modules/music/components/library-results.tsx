import type { ReactNode } from "react";
import { Link } from "react-router";
import { EmptyState } from "~/ui/empty-state";
import { Pagination } from "~/ui/pagination";
import { buttonClass } from "~/ui/button";
import { hasFilters, libraryHref, type LibraryQuery, type LibraryTrack } from "../library";
import { TrackRow } from "./track-row";

/** The table's columns, in TrackRow's order; hidden ones are repeated under the title on small screens. */
const COLUMNS: { label: string; className: string; srOnly?: boolean }[] = [
  { label: "Cover", className: "w-14 py-2 pr-2 pl-3 sm:pl-4", srOnly: true },
  { label: "Track", className: "py-2 pr-2" },
  { label: "Genre", className: "hidden px-3 py-2 md:table-cell" },
  { label: "Mood", className: "hidden px-3 py-2 md:table-cell" },
  { label: "BPM", className: "hidden px-3 py-2 text-right md:table-cell" },
  { label: "Length", className: "px-2 py-2 text-right sm:px-3" },
  { label: "Waveform", className: "hidden px-3 py-2 lg:table-cell" },
  { label: "Actions", className: "py-2 pr-3 pl-1 text-right sm:pr-4", srOnly: true },
];

export type LibraryResultsProps = {
  tracks: LibraryTrack[];
  query: LibraryQuery;
  total: number;
  page: number;
  pageCount: number;
  /** A new page is loading (dims the list and marks it busy). */
  busy?: boolean;
  /** Plug-ins for each row (player, favorites, licences). */
  onPlay?: (track: LibraryTrack) => void;
  playingId?: string | null;
  actionsFor?: (track: LibraryTrack) => ReactNode;
  /** What was searched instead of the typed search (its typos corrected), when that found nothing. */
  correctedQ?: string | null;
  /** What the empty state says when nothing matches and no filter is set. */
  emptyTitle?: string;
  emptyText?: ReactNode;
};

export function LibraryResults({
  tracks,
  query,
  total,
  page,
  pageCount,
  busy = false,
  correctedQ = null,
  onPlay,
  playingId = null,
  actionsFor,
  emptyTitle = "No tracks yet",
  emptyText = "Published tracks appear here as soon as they are approved.",
}: LibraryResultsProps) {
  if (tracks.length === 0) {
    return hasFilters(query) ? (
      <section className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center" aria-labelledby="library-empty">
        <h2 id="library-empty" className="text-lg font-semibold text-slate-900">
          No tracks match your search
        </h2>
        <p className="mx-auto mt-2 max-w-xl text-slate-600">Try other words, a wider BPM or length range, or fewer filters.</p>
        <Link to="/music" className={`${buttonClass.primary} mt-5`}>
          Clear filters
        </Link>
      </section>
    ) : (
      <EmptyState title={emptyTitle}>{emptyText}</EmptyState>
    );
  }
  return (
    <section aria-labelledby="library-results-heading" aria-busy={busy || undefined}>
      <h2 id="library-results-heading" className="sr-only">
        Tracks
      </h2>
      {correctedQ ? (
        <p className="mb-3 text-sm text-slate-700" data-testid="library-corrected">
          Showing results for <strong className="font-semibold text-slate-900">{correctedQ}</strong>. Nothing matched “{query.q}”.
        </p>
      ) : null}
      <div className={`overflow-hidden rounded-xl border border-slate-200 bg-white transition-opacity ${busy ? "opacity-60" : ""}`}>
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{`Tracks, page ${page} of ${pageCount}`}</caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
            <tr>
              {COLUMNS.map((c) => (
                <th key={c.label} scope="col" className={c.className}>
                  {c.srOnly ? <span className="sr-only">{c.label}</span> : c.label}
                </th>
              ))}
            </tr>
          </thead>
          {/* The rows' plain links (SimilarLink) are followed client-side by the shell's one listener (app/ui/in-app-links.ts, 0346). */}
          <tbody className="divide-y divide-slate-100" data-in-app-links="">
            {tracks.map((t) => (
              <TrackRow key={t.id} track={t} onPlay={onPlay} playing={playingId === t.id} actions={actionsFor?.(t)} />
            ))}
          </tbody>
        </table>
      </div>
      <Pagination page={page} pageCount={pageCount} total={total} label="tracks" singular="track" hrefFor={(p) => libraryHref(query, { page: p })} />
    </section>
  );
}
