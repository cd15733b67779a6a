import { boundedMemo } from "~/lib/bounded-memo";
import { useId, useMemo } from "react";
import { barsFrom, parsePeaks, type PlayerTrack } from "../player";

// A track's waveform: its stored peaks (0..255) drawn as SVG bars, small in the library list and
// large in the player and the review queue, where the played part takes the brand colour. Decorative by default
// (aria-hidden): the player wraps it in its seek slider, which carries the name and value.
// All bars are ONE <path> (a rectangle per bar in its `d`), not a <rect> each: the library's 20
// rows drew 1,287 rects with five attributes each, and writing them was most of /music's server
// time and most of its 227 KB of HTML (issue 12).

type WaveformProps = {
  peaks: PlayerTrack["peaks"];
  /** How many bars to draw (the peaks are reduced to this many). */
  bars?: number;
  /** 0..1: the played part is drawn in the brand colour. */
  progress?: number;
  className?: string;
  "data-testid"?: string;
};

const BAR = 3; // user units per bar: 2 drawn, 1 gap
const HEIGHT = 100;

export function Waveform({ peaks, bars = 48, progress, className = "h-8 w-full", "data-testid": testId }: WaveformProps) {
  // useId's characters ("«»", ":") are not valid inside url(#…): keep letters, digits, dash.
  const clipId = `wf-${useId().replace(/[^A-Za-z0-9_-]/g, "")}`;
  const { d, width } = useMemo(() => drawing(peaks, bars), [peaks, bars]);
  const played = progress === undefined ? null : Math.min(1, Math.max(0, progress)) * width;
  return (
    <svg viewBox={`0 0 ${width} ${HEIGHT}`} preserveAspectRatio="none" className={className} aria-hidden="true" focusable="false" data-testid={testId}>
      <path className="fill-slate-300" d={d} />
      {played !== null ? (
        <>
          <clipPath id={clipId}>
            <rect x={0} y={0} width={played} height={HEIGHT} />
          </clipPath>
          <path className="fill-brand-600" clipPath={`url(#${clipId})`} d={d} />
        </>
      ) : null}
    </svg>
  );
}

/**
 * A waveform's path, drawn once per isolate for the same peaks (at most 1,000): a track's peaks never change, and
 * the library draws the same twenty on every page view (docs/decisions/0230). Keyed by the peaks'
 * text (64 numbers for a library row): cheaper to make than the path.
 */
const drawn = boundedMemo<{ d: string; width: number }>(1000);

export function drawing(peaks: WaveformProps["peaks"], bars: number): { d: string; width: number } {
  return drawn(`${bars}:${typeof peaks === "string" ? peaks : (peaks ?? []).join(",")}`, () => {
    const heights = barsFrom(parsePeaks(peaks), bars);
    return { d: barsPath(heights), width: heights.length * BAR };
  });
}

/** The bars as one path: per bar a rectangle BAR − 1 wide, centred vertically, at least 4 high. */
export function barsPath(heights: readonly number[]): string {
  let d = "";
  for (const [i, h] of heights.entries()) {
    const height = Math.round(Math.max(4, h * HEIGHT) * 10) / 10;
    const y = Math.round(((HEIGHT - height) / 2) * 10) / 10;
    d += `M${i * BAR} ${y}h${BAR - 1}v${height}h-${BAR - 1}z`;
  }
  return d;
}
