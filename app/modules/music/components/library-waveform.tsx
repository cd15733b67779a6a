/** A small, static waveform of a track's peaks (0..255), drawn as bars; decorative (the row says what the track is). */
export function LibraryWaveform({ peaks, className = "" }: { peaks: readonly number[]; className?: string }) {
  if (peaks.length === 0) return null;
  const width = peaks.length * 2;
  return (
    <svg
      viewBox={`0 0 ${width} 32`}
      preserveAspectRatio="none"
      className={`h-8 w-32 text-slate-400 ${className}`}
      aria-hidden="true"
      focusable="false"
      data-testid="track-waveform"
    >
      {peaks.map((p, i) => {
        const h = Math.max(1, (p / 255) * 30);
        // biome-ignore lint/suspicious/noArrayIndexKey: bars are positional and never reorder
        return <rect key={i} x={i * 2} y={16 - h / 2} width={1.2} height={h} rx={0.6} fill="currentColor" />;
      })}
    </svg>
  );
}
