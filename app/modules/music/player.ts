// The persistent player's pure parts (client-safe, unit-tested): what a playable track is, the
// preview URLs, seeking by key, time labels and the waveform's bars. The React side is
// components/player-provider.tsx (usePlayer) and components/player-bar.tsx. docs/decisions/0106.

/** What the player needs to know about a track; a library row's LibraryTrack is one (`play(track)`). */
export type PlayerTrack = {
  id: string;
  title: string;
  artist: string;
  durationSeconds: number;
  /** Waveform peaks: 0..255 integers (an array, or the stored JSON text). */
  peaks?: readonly number[] | string | null;
  /** The cover's address (the library's LibraryTrack.coverUrl: /music/cover/:id), or null for the placeholder. */
  coverUrl?: string | null;
};

// The time label and the waveform's bars are shared with the library list (../library.ts, which
// Node loads on its own for the seed and the bench, so it imports nothing).
export { barsFrom, formatTime, parsePeaks } from "./library";

export const audioUrl = (trackId: string) => `/music/audio/${encodeURIComponent(trackId)}`;

/** Arrow keys move this many seconds; Page Up/Down six times as far. */
export const SEEK_STEP_SECONDS = 5;
export const VOLUME_STORAGE_KEY = "shortbeat_player_volume";

/** Where a key on the seek slider moves to; null for a key the slider does not handle. */
export function seekTargetForKey(key: string, current: number, duration: number): number | null {
  const end = Number.isFinite(duration) && duration > 0 ? duration : 0;
  const clamp = (t: number) => Math.min(end, Math.max(0, t));
  switch (key) {
    case "ArrowRight":
    case "ArrowUp":
      return clamp(current + SEEK_STEP_SECONDS);
    case "ArrowLeft":
    case "ArrowDown":
      return clamp(current - SEEK_STEP_SECONDS);
    case "PageUp":
      return clamp(current + SEEK_STEP_SECONDS * 6);
    case "PageDown":
      return clamp(current - SEEK_STEP_SECONDS * 6);
    case "Home":
      return 0;
    case "End":
      return end;
    default:
      return null;
  }
}

/** The fraction (0..1) of a bar at `clientX`, for a pointer on an element spanning `left`..`left + width`. */
export function fractionAt(clientX: number, left: number, width: number): number {
  if (!(width > 0)) return 0;
  return Math.min(1, Math.max(0, (clientX - left) / width));
}

/** A stored volume (0..1), or 1 when none or malformed. */
export function parseVolume(raw: string | null): number {
  const v = raw === null ? Number.NaN : Number(raw);
  return Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 1;
}
