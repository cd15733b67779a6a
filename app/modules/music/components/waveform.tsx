import { useId, useMemo } from "react";
import { barsFrom, parsePeaks, type PlayerTrack } from "../player";

// A track's waveform: its stored peaks (0..255) drawn as SVG bars, small in the library list and
// large in the player and the review queue, where the played part takes the brand colour. Decorative by default
// (aria-hidden): the player wraps it in its seek slider, which carries the name and value.

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
  const heights = useMemo(() => barsFrom(parsePeaks(peaks), bars), [peaks, bars]);
  const width = heights.length * BAR;
  const rects = heights.map((h, i) => {
    const height = Math.max(4, h * HEIGHT);
    // biome-ignore lint/suspicious/noArrayIndexKey: bars are positions, never reordered
    return <rect key={i} x={i * BAR} y={(HEIGHT - height) / 2} width={BAR - 1} height={height} rx={0.6} />;
  });
  const played = progress === undefined ? null : Math.min(1, Math.max(0, progress)) * width;
  return (
    <svg viewBox={`0 0 ${width} ${HEIGHT}`} preserveAspectRatio="none" className={className} aria-hidden="true" focusable="false" data-testid={testId}>
      <g className="fill-slate-300">{rects}</g>
      {played !== null ? (
        <>
          <clipPath id={clipId}>
            <rect x={0} y={0} width={played} height={HEIGHT} />
          </clipPath>
          <g className="fill-brand-600" clipPath={`url(#${clipId})`}>
            {rects}
          </g>
        </>
      ) : null}
    </svg>
  );
}
