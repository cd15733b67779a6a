import { Pause, Play } from "~/ui/icons";
import type { ReactNode } from "react";
import { formatDuration, type LibraryTrack, spokenDuration, trackFactsLine, WAVEFORM_BARS } from "../library";
import { LibraryCover } from "./library-cover";
import { Waveform } from "./waveform";

// One track of the library table. The player, favorites and licence buttons plug in through
// `onPlay`/`playing` and `actions`; the columns match LIBRARY_COLUMNS (library-results.tsx).

export type TrackRowProps = {
  track: LibraryTrack;
  /** Shows a play/pause button on the cover when given. */
  onPlay?: (track: LibraryTrack) => void;
  /** This track is the one playing (the button says Pause). */
  playing?: boolean;
  /** Buttons at the end of the row: the heart, 'Use this track'. */
  actions?: ReactNode;
  /** Replaces the static waveform (e.g. the player's progress over it). */
  waveform?: ReactNode;
};

export function TrackRow({ track, onPlay, playing = false, actions, waveform }: TrackRowProps) {
  const meta = trackFactsLine(track);
  return (
    <tr className={playing ? "bg-violet-50" : "hover:bg-slate-50"} data-track-id={track.id}>
      <td className="py-2 pr-2 pl-3 sm:pl-4">
        <span className="relative inline-flex">
          <LibraryCover src={track.coverUrl} />
          {onPlay ? (
            <button
              type="button"
              onClick={() => onPlay(track)}
              aria-pressed={playing}
              aria-label={`${playing ? "Pause" : "Play"} ${track.title} by ${track.artist}`}
              className="absolute inset-0 flex items-center justify-center rounded-md bg-slate-900/40 text-white opacity-90 hover:bg-slate-900/60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-600"
            >
              {playing ? <Pause className="h-5 w-5" aria-hidden="true" /> : <Play className="h-5 w-5" aria-hidden="true" />}
            </button>
          ) : null}
        </span>
      </td>
      <th scope="row" className="py-2 pr-2 text-left font-normal break-words">
        <span className="block font-semibold text-slate-900">{track.title}</span>
        <span className="block text-sm text-slate-600">{track.artist}</span>
        {meta ? <span className="block text-xs text-slate-600 md:hidden">{meta}</span> : null}
        {track.tags.length ? (
          <span className="mt-0.5 hidden truncate text-xs text-slate-600 lg:block">
            <span className="sr-only">Tags: </span>
            {track.tags.slice(0, 4).join(", ")}
          </span>
        ) : null}
      </th>
      <td className="hidden px-3 py-2 text-sm text-slate-700 md:table-cell">{track.genre ?? "—"}</td>
      <td className="hidden px-3 py-2 text-sm text-slate-700 md:table-cell">{track.mood ?? "—"}</td>
      <td className="hidden px-3 py-2 text-right text-sm text-slate-700 tabular-nums md:table-cell">{track.bpm ?? "—"}</td>
      <td className="px-2 py-2 text-right text-sm text-slate-700 tabular-nums sm:px-3">
        <span aria-hidden="true">{formatDuration(track.durationSeconds)}</span>
        <span className="sr-only">{spokenDuration(track.durationSeconds)}</span>
      </td>
      <td className="hidden px-3 py-2 lg:table-cell">
        {waveform ?? <Waveform peaks={track.peaks} bars={WAVEFORM_BARS} className="h-8 w-32" data-testid="track-waveform" />}
      </td>
      <td className="py-2 pr-3 pl-1 text-right sm:pr-4">
        <div className="flex flex-wrap items-center justify-end gap-1.5">{actions}</div>
      </td>
    </tr>
  );
}
