import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { audioUrl, type PlayerTrack, parseVolume, VOLUME_STORAGE_KEY } from "../player";

// The one audio element of the signed-in app and the state around it. Mounted by the shell
// (app/components/shell.tsx), which React Router keeps mounted while the pages inside it change,
// so a preview keeps playing across navigations; a single element means one track at a time
// (starting another replaces the first). Two contexts: the controls (changes on play, pause,
// track, volume) and the clock (4 times a second while playing), so list rows re-render only
// when the controls change. docs/decisions/0106.

export type PlayerControls = {
  /** The track in the player (playing or paused); null before the first play or after closing. */
  current: PlayerTrack | null;
  playing: boolean;
  /** Waiting for data (buffering). */
  loading: boolean;
  error: string | null;
  volume: number;
  muted: boolean;
  /** Starts `track` (from where it was if it is already the current one). */
  play: (track: PlayerTrack) => void;
  /** Pauses the current track or resumes it; with a different `track`, starts that one. */
  toggle: (track?: PlayerTrack) => void;
  pause: () => void;
  seek: (seconds: number) => void;
  setVolume: (volume: number) => void;
  toggleMute: () => void;
  /** Stops and hides the player. */
  close: () => void;
  /** The signed-in user (favorites are kept per user), null outside the shell. */
  userId: string | null;
};

export type PlayerClock = { currentTime: number; duration: number };

const noop = () => {};
const IDLE: PlayerControls = {
  current: null,
  playing: false,
  loading: false,
  error: null,
  volume: 1,
  muted: false,
  play: noop,
  toggle: noop,
  pause: noop,
  seek: noop,
  setVolume: noop,
  toggleMute: noop,
  close: noop,
  userId: null,
};

const ControlsContext = createContext<PlayerControls>(IDLE);
const ClockContext = createContext<PlayerClock>({ currentTime: 0, duration: 0 });

/** The player's controls and state: `play(track)`, `toggle()`, `current`, `playing`, … */
export function usePlayer(): PlayerControls {
  return useContext(ControlsContext);
}

/** The playing position and length, in seconds (re-renders while playing). */
export function usePlayerClock(): PlayerClock {
  return useContext(ClockContext);
}

export const PREVIEW_ERROR = "This preview could not be played. Please try again.";

function storedVolume(): number {
  try {
    return parseVolume(window.localStorage.getItem(VOLUME_STORAGE_KEY));
  } catch {
    return 1;
  }
}

export function PlayerProvider({ userId, children }: { userId: string | null; children: ReactNode }) {
  const audioRef = useRef<HTMLAudioElement>(null);
  const [current, setCurrent] = useState<PlayerTrack | null>(null);
  const currentRef = useRef<PlayerTrack | null>(null);
  const [playing, setPlaying] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [volume, setVolumeState] = useState(1);
  const [muted, setMuted] = useState(false);
  const [clock, setClock] = useState<PlayerClock>({ currentTime: 0, duration: 0 });

  useEffect(() => {
    const v = storedVolume();
    setVolumeState(v);
    if (audioRef.current) audioRef.current.volume = v;
  }, []);

  const start = useCallback((audio: HTMLAudioElement) => {
    setError(null);
    audio.play().catch((e: unknown) => {
      // A newer play() or a pause() interrupted this one: not a failure.
      if (e instanceof DOMException && e.name === "AbortError") return;
      setError(PREVIEW_ERROR);
      setPlaying(false);
    });
  }, []);

  const play = useCallback(
    (track: PlayerTrack) => {
      const audio = audioRef.current;
      if (!audio) return;
      if (currentRef.current?.id !== track.id) {
        currentRef.current = track;
        setCurrent(track);
        setClock({ currentTime: 0, duration: track.durationSeconds });
        audio.src = audioUrl(track.id);
        setLoading(true);
      }
      start(audio);
    },
    [start],
  );

  const pause = useCallback(() => audioRef.current?.pause(), []);

  const toggle = useCallback(
    (track?: PlayerTrack) => {
      const audio = audioRef.current;
      if (!audio) return;
      if (track && track.id !== currentRef.current?.id) return play(track);
      if (!currentRef.current) return;
      if (audio.paused) start(audio);
      else audio.pause();
    },
    [play, start],
  );

  const seek = useCallback((seconds: number) => {
    const audio = audioRef.current;
    if (!audio || !currentRef.current || !Number.isFinite(seconds)) return;
    const duration = Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration : currentRef.current.durationSeconds;
    const t = Math.min(Math.max(0, seconds), duration);
    audio.currentTime = t;
    setClock({ currentTime: t, duration });
  }, []);

  const setVolume = useCallback((v: number) => {
    const value = Math.min(1, Math.max(0, v));
    setVolumeState(value);
    const audio = audioRef.current;
    if (audio) {
      audio.volume = value;
      if (value > 0 && audio.muted) audio.muted = false;
    }
    try {
      window.localStorage.setItem(VOLUME_STORAGE_KEY, String(value));
    } catch {
      // not kept: private mode
    }
  }, []);

  const toggleMute = useCallback(() => {
    const audio = audioRef.current;
    if (audio) audio.muted = !audio.muted;
  }, []);

  const close = useCallback(() => {
    const audio = audioRef.current;
    if (audio) {
      audio.pause();
      audio.removeAttribute("src");
      audio.load();
    }
    currentRef.current = null;
    setCurrent(null);
    setPlaying(false);
    setLoading(false);
    setError(null);
    setClock({ currentTime: 0, duration: 0 });
  }, []);

  // The operating system's media keys and lock screen show the track and control it.
  useEffect(() => {
    if (typeof navigator === "undefined" || !("mediaSession" in navigator) || typeof MediaMetadata === "undefined") return;
    navigator.mediaSession.metadata = current
      ? new MediaMetadata({ title: current.title, artist: current.artist, artwork: current.coverUrl ? [{ src: current.coverUrl }] : [] })
      : null;
    navigator.mediaSession.setActionHandler("play", current ? () => toggle() : null);
    navigator.mediaSession.setActionHandler("pause", current ? () => pause() : null);
  }, [current, toggle, pause]);

  const durationOf = (audio: HTMLAudioElement) =>
    Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration : (currentRef.current?.durationSeconds ?? 0);

  const controls = useMemo<PlayerControls>(
    () => ({ current, playing, loading, error, volume, muted, play, toggle, pause, seek, setVolume, toggleMute, close, userId }),
    [current, playing, loading, error, volume, muted, play, toggle, pause, seek, setVolume, toggleMute, close, userId],
  );

  return (
    <ControlsContext.Provider value={controls}>
      <ClockContext.Provider value={clock}>
        {children}
        {/* biome-ignore lint/a11y/useMediaCaption: a music preview has no speech to caption */}
        <audio
          ref={audioRef}
          id="sb-player-audio"
          preload="none"
          hidden
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          onEnded={() => setPlaying(false)}
          onWaiting={() => setLoading(true)}
          onPlaying={() => setLoading(false)}
          onCanPlay={() => setLoading(false)}
          onTimeUpdate={(e) => setClock({ currentTime: e.currentTarget.currentTime, duration: durationOf(e.currentTarget) })}
          onDurationChange={(e) => {
            const duration = durationOf(e.currentTarget); // read now: the updater runs after the event
            setClock((c) => ({ ...c, duration }));
          }}
          onVolumeChange={(e) => setMuted(e.currentTarget.muted)}
          onError={(e) => {
            // An element without a source (after close) also reports an error: only a track's counts.
            if (!currentRef.current || !e.currentTarget.getAttribute("src")) return;
            setError(PREVIEW_ERROR);
            setPlaying(false);
            setLoading(false);
          }}
        />
      </ClockContext.Provider>
    </ControlsContext.Provider>
  );
}
