import { Loader2, Music, Pause, Play, Volume1, Volume2, VolumeX, X } from "~/ui/icons";
import { type KeyboardEvent, type PointerEvent, useRef, useState } from "react";
import { formatTime, fractionAt, type PlayerTrack, seekTargetForKey } from "../player";
import { FavoriteButton } from "./favorite-button";
import { usePlayer, usePlayerClock } from "./player-provider";
import { Waveform } from "./waveform";

// The player bar at the bottom of the signed-in shell: cover, title and artist, play/pause, the
// waveform as a seek slider (click or drag; arrows ±5 s, Page Up/Down ±30 s, Home, End), the
// time, volume, the track's heart and close. Space toggles playback while focus is in the bar
// (buttons keep their own Space). Compact on phones: the waveform gets its own row and the volume
// slider gives way to the mute button. Shown once a track has been started. docs/decisions/0106.

export function PlayerBar() {
  const player = usePlayer();
  const track = player.current;
  if (!track) return null;

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== " " || e.defaultPrevented) return;
    const target = e.target as HTMLElement;
    if (target.closest("button, a, textarea, select") || (target instanceof HTMLInputElement && target.type !== "range")) return;
    e.preventDefault();
    player.toggle();
  };

  return (
    // Space anywhere in the player region toggles playback (the controls inside are labelled).
    <section
      aria-label="Music player"
      tabIndex={-1}
      onKeyDown={onKeyDown}
      data-testid="music-player"
      className="sticky bottom-0 z-20 border-t border-slate-200 bg-white/95 shadow-[0_-4px_12px_rgba(15,23,42,0.06)] backdrop-blur focus:outline-none"
    >
      <div className="mx-auto flex w-full max-w-7xl flex-wrap items-center gap-x-3 gap-y-1.5 px-3 py-2 sm:flex-nowrap sm:px-4">
        <Cover track={track} />
        <div className="min-w-0 flex-1 sm:w-48 sm:flex-none lg:w-56">
          <p className="truncate text-sm font-semibold text-slate-900">{track.title}</p>
          <p className="truncate text-xs text-slate-600">{track.artist}</p>
        </div>
        <MainButton />
        <SeekBar track={track} />
        <VolumeControl />
        <FavoriteButton trackId={track.id} title={track.title} size="h-9 w-9" />
        <button
          type="button"
          onClick={player.close}
          aria-label="Close player"
          className="inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100"
        >
          <X className="h-4 w-4" aria-hidden="true" />
        </button>
      </div>
      <p role="status" className={player.error ? "px-4 pb-2 text-center text-xs text-red-700" : "sr-only"}>
        {player.error ?? ""}
      </p>
    </section>
  );
}

function Cover({ track }: { track: PlayerTrack }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!track.coverUrl || failed === track.id) {
    return (
      <span className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-md bg-slate-900 text-white sm:h-12 sm:w-12" aria-hidden="true">
        <Music className="h-5 w-5" />
      </span>
    );
  }
  return (
    <img
      src={track.coverUrl}
      alt={`Cover of ${track.title}`}
      width={48}
      height={48}
      onError={() => setFailed(track.id)}
      className="h-10 w-10 shrink-0 rounded-md bg-slate-200 object-cover sm:h-12 sm:w-12"
    />
  );
}

function MainButton() {
  const player = usePlayer();
  const Icon = player.playing && player.loading ? Loader2 : player.playing ? Pause : Play;
  return (
    <button
      type="button"
      onClick={() => player.toggle()}
      aria-label={player.playing ? "Pause" : "Play"}
      className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-600 text-white hover:bg-brand-700 "
    >
      <Icon
        className={`h-5 w-5 ${Icon === Loader2 ? "animate-spin motion-reduce:animate-none" : ""} ${Icon === Play ? "translate-x-px" : ""}`}
        aria-hidden="true"
      />
    </button>
  );
}

function SeekBar({ track }: { track: PlayerTrack }) {
  const player = usePlayer();
  const { currentTime, duration: clockDuration } = usePlayerClock();
  const duration = clockDuration > 0 ? clockDuration : track.durationSeconds;
  const ref = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);
  // While dragging, the bar follows the pointer; the audio seeks on release (and on each move,
  // so the sound follows too).
  const [dragAt, setDragAt] = useState<number | null>(null);
  const shown = dragAt ?? currentTime;

  const timeAt = (clientX: number) => {
    const rect = ref.current?.getBoundingClientRect();
    return rect ? fractionAt(clientX, rect.left, rect.width) * duration : 0;
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    dragging.current = true;
    e.currentTarget.setPointerCapture(e.pointerId);
    e.currentTarget.focus();
    setDragAt(timeAt(e.clientX));
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) setDragAt(timeAt(e.clientX));
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    if (!dragging.current) return;
    dragging.current = false;
    player.seek(timeAt(e.clientX));
    setDragAt(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = seekTargetForKey(e.key, currentTime, duration);
    if (target === null) return;
    e.preventDefault();
    player.seek(target);
  };

  return (
    <div className="order-last flex w-full min-w-0 items-center gap-2 sm:order-none sm:w-auto sm:flex-1">
      <span className="w-10 shrink-0 text-right text-xs text-slate-600 tabular-nums" aria-hidden="true">
        {formatTime(shown)}
      </span>
      <div
        ref={ref}
        role="slider"
        tabIndex={0}
        aria-label={`Seek in ${track.title}`}
        aria-valuemin={0}
        aria-valuemax={Math.round(duration)}
        aria-valuenow={Math.round(shown)}
        aria-valuetext={`${formatTime(shown)} of ${formatTime(duration)}`}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => {
          dragging.current = false;
          setDragAt(null);
        }}
        onKeyDown={onKeyDown}
        className="h-9 min-w-0 flex-1 cursor-pointer touch-none rounded select-none sm:h-10"
      >
        <Waveform peaks={track.peaks} bars={96} progress={duration > 0 ? shown / duration : 0} className="pointer-events-none h-full w-full" />
      </div>
      <span className="w-10 shrink-0 text-xs text-slate-600 tabular-nums" aria-hidden="true">
        {formatTime(duration)}
      </span>
    </div>
  );
}

function VolumeControl() {
  const player = usePlayer();
  const silent = player.muted || player.volume === 0;
  const Icon = silent ? VolumeX : player.volume < 0.5 ? Volume1 : Volume2;
  return (
    <div className="hidden shrink-0 items-center gap-1 sm:flex">
      <button
        type="button"
        onClick={player.toggleMute}
        aria-label="Mute"
        aria-pressed={player.muted}
        className="inline-flex h-9 w-9 items-center justify-center rounded-full text-slate-700 hover:bg-slate-100"
      >
        <Icon className="h-4 w-4" aria-hidden="true" />
      </button>
      <input
        type="range"
        min={0}
        max={1}
        step={0.05}
        value={player.muted ? 0 : player.volume}
        onChange={(e) => player.setVolume(Number(e.currentTarget.value))}
        aria-label="Volume"
        aria-valuetext={`${Math.round((player.muted ? 0 : player.volume) * 100)}%`}
        className="w-20 accent-brand-600 lg:w-24"
      />
    </div>
  );
}
