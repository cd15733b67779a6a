import { Pause as PauseShape, Play as PlayShape } from "lucide";
import { type ReactNode, useMemo } from "react";
import { escapeXml } from "~/lib/public-pages";
import { formatDuration, type LibraryTrack, spokenDuration, trackFactsLine, WAVEFORM_BARS } from "../library";
import { LibraryCover } from "./library-cover";
import { iconHtml } from "./markup";
import { drawing } from "./waveform";

// One track of the library table. The player, favorites and licence buttons plug in through
// `onPlay`/`playing` and `actions`; the columns match LIBRARY_COLUMNS (library-results.tsx).
//
// The cells that nothing on the page changes (the title's lines, the length, the waveform, the
// cover tile) are given to React as one string each (`dangerouslySetInnerHTML`): React writes a
// row as a few hundred chunks, one per attribute part and element, and that writing was most of
// /music's server time; a string is one chunk, and hydration does not walk inside it. Every value
// in these strings is escaped with escapeXml (& < > " '): titles, artists, tags, genres and moods
// come from music partners. The controls (play, heart, similar, use) stay React elements.
// docs/decisions/0354.

export type TrackRowProps = {
  track: LibraryTrack;
  /** Shows a play/pause button on the cover when given. */
  onPlay?: (track: LibraryTrack) => void;
  /** This track is the one playing (the button says Pause). */
  playing?: boolean;
  /** Buttons at the end of the row: the heart, 'Use this track'. */
  actions?: ReactNode;
};

/** A row's static cells as inner markup (0354). Every value from the track is escaped. */
export function trackRowMarkup(track: LibraryTrack): { title: string; length: string; waveform: string } {
  const meta = trackFactsLine(track);
  let title = `<span class="block font-semibold text-slate-900">${escapeXml(track.title)}</span><span class="block text-sm text-slate-600">${escapeXml(track.artist)}</span>`;
  if (meta) title += `<span class="block text-xs text-slate-600 md:hidden">${escapeXml(meta)}</span>`;
  if (track.tags.length) {
    title += `<span class="mt-0.5 hidden truncate text-xs text-slate-600 lg:block"><span class="sr-only">Tags: </span>${escapeXml(track.tags.slice(0, 4).join(", "))}</span>`;
  }
  const length = `<span aria-hidden="true">${escapeXml(formatDuration(track.durationSeconds))}</span><span class="sr-only">${escapeXml(spokenDuration(track.durationSeconds))}</span>`;
  return { title, length, waveform: waveformMarkup(track.peaks) };
}

/** What `<Waveform peaks={peaks} bars={WAVEFORM_BARS} className="h-8 w-32" data-testid="track-waveform" />` writes: numbers only. */
function waveformMarkup(peaks: string): string {
  const { d, width } = drawing(peaks, WAVEFORM_BARS);
  return `<svg viewBox="0 0 ${width} 100" preserveAspectRatio="none" class="h-8 w-32" aria-hidden="true" focusable="false" data-testid="track-waveform"><path class="fill-slate-300" d="${d}"></path></svg>`;
}

/** The play button's inside (its icon), by state: constants (0354). */
const PLAY_ICON = { __html: iconHtml(PlayShape, "h-5 w-5") };
const PAUSE_ICON = { __html: iconHtml(PauseShape, "h-5 w-5") };

export function TrackRow({ track, onPlay, playing = false, actions }: TrackRowProps) {
  // One object per cell and track: React sets a cell's inner HTML again whenever the object changes
  // (the row renders again when the player starts or stops).
  const cells = useMemo(() => {
    const markup = trackRowMarkup(track);
    return { title: { __html: markup.title }, length: { __html: markup.length }, waveform: { __html: markup.waveform } };
  }, [track]);
  return (
    <tr className={playing ? "bg-violet-50" : "hover:bg-slate-50"}>
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
              // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant icon (0354)
              dangerouslySetInnerHTML={playing ? PAUSE_ICON : PLAY_ICON}
            />
          ) : null}
        </span>
      </td>
      <th
        scope="row"
        className="py-2 pr-2 text-left font-normal break-words"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: trackRowMarkup escapes every value (0354)
        dangerouslySetInnerHTML={cells.title}
      />
      <td className="hidden px-3 py-2 text-sm text-slate-700 md:table-cell">{track.genre ?? "—"}</td>
      <td className="hidden px-3 py-2 text-sm text-slate-700 md:table-cell">{track.mood ?? "—"}</td>
      <td className="hidden px-3 py-2 text-right text-sm text-slate-700 tabular-nums md:table-cell">{track.bpm ?? "—"}</td>
      <td
        className="px-2 py-2 text-right text-sm text-slate-700 tabular-nums sm:px-3"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: trackRowMarkup escapes every value (0354)
        dangerouslySetInnerHTML={cells.length}
      />
      <td
        className="hidden px-3 py-2 lg:table-cell"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: trackRowMarkup escapes every value (0354)
        dangerouslySetInnerHTML={cells.waveform}
      />
      <td className="py-2 pr-3 pl-1 text-right sm:pr-4">
        <div className="flex flex-wrap items-center justify-end gap-1.5">{actions}</div>
      </td>
    </tr>
  );
}
