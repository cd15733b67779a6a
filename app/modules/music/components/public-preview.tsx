import { useEffect, useRef, useState } from "react";
import { Loader2, Pause, Play } from "~/ui/icons";
import type { PublicTrackPreview } from "../library";
import { formatTime } from "../player";

// A track's preview on a public page (the campaign page, for visitors who are not signed in, so
// without the shell's player): one labelled play/pause button (Space and Enter, as any button), the
// elapsed and total time, and the audio from a URL the server signed for an hour. The audio loads
// only when played (preload="none"). docs/decisions/0244.

export type PublicPreviewTrack = PublicTrackPreview;

export function PublicPreview({ track }: { track: PublicPreviewTrack }) {
  const audioRef = useRef<HTMLAudioElement>(null);
  const [hydrated, setHydrated] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [loading, setLoading] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const [failed, setFailed] = useState(false);
  useEffect(() => setHydrated(true), []);

  const toggle = () => {
    const audio = audioRef.current;
    if (!audio) return;
    if (!audio.paused) {
      audio.pause();
      return;
    }
    setFailed(false);
    setLoading(true);
    audio.play().catch(() => {
      setLoading(false);
      setFailed(true);
    });
  };

  const facts = [track.genre, track.mood, track.bpm ? `${track.bpm} BPM` : null, formatTime(track.durationSeconds)].filter(Boolean).join(" · ");
  const Icon = loading && playing ? Loader2 : playing ? Pause : Play;
  return (
    <div className="flex items-center gap-3 rounded-xl border border-slate-200 bg-white p-3" data-testid="public-preview">
      {track.coverUrl ? (
        <img src={track.coverUrl} alt="" width={56} height={56} className="h-14 w-14 shrink-0 rounded-md object-cover" />
      ) : (
        <span aria-hidden="true" className="h-14 w-14 shrink-0 rounded-md bg-slate-200" />
      )}
      <div className="min-w-0 flex-1">
        <p className="truncate font-semibold text-slate-900">{track.title}</p>
        <p className="truncate text-sm text-slate-600">{track.artist}</p>
        <p className="text-xs text-slate-500">{facts}</p>
        {failed ? (
          <p role="alert" className="mt-1 text-sm text-red-700">
            The preview could not play. Reload the page to try again.
          </p>
        ) : null}
      </div>
      <span className="hidden text-xs tabular-nums text-slate-600 sm:inline">
        {formatTime(elapsed)} / {formatTime(track.durationSeconds)}
      </span>
      <button
        type="button"
        disabled={!hydrated}
        onClick={toggle}
        aria-label={`${playing ? "Pause" : "Play"} ${track.title} by ${track.artist}`}
        data-playing={playing || undefined}
        className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-slate-900 text-white hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:opacity-50"
      >
        <Icon
          className={`h-5 w-5 ${Icon === Loader2 ? "animate-spin motion-reduce:animate-none" : ""} ${Icon === Play ? "translate-x-px" : ""}`}
          aria-hidden="true"
        />
      </button>
      {/* biome-ignore lint/a11y/useMediaCaption: a music preview has no speech to caption */}
      <audio
        ref={audioRef}
        src={track.audioUrl}
        preload="none"
        onPlay={() => setPlaying(true)}
        onPlaying={() => setLoading(false)}
        onPause={() => {
          setPlaying(false);
          setLoading(false);
        }}
        onEnded={() => {
          setPlaying(false);
          setElapsed(0);
        }}
        onTimeUpdate={(e) => setElapsed(e.currentTarget.currentTime)}
        onError={() => {
          setPlaying(false);
          setLoading(false);
          setFailed(true);
        }}
      />
    </div>
  );
}
