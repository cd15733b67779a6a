import { useCallback, useSyncExternalStore } from "react";
import { FAVORITES_UPDATED_EVENT, favoritesKey, subscribeFavorites } from "~/lib/favorites";

// Favorites, exactly as the spec keeps them: a JSON array of track ids in the browser's local
// storage under FAVORITES_KEY_PREFIX + the user id (~/lib/favorites, which the dashboard's
// 'Favorite Tracks' card reads for its length). Every change here dispatches `favorites-updated`
// on window (this tab); other tabs learn from the browser's `storage` event. Nothing is sent to
// the server. docs/decisions/0107.

/** At most this many favorites are kept (the oldest fall off); a URL of ids stays short enough. */
export const MAX_FAVORITES = 200;

const TRACK_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A stored value as a clean list: strings that look like ids, no duplicates; anything else → []. */
export function parseFavorites(raw: string | null | undefined): string[] {
  if (!raw) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  for (const item of value) if (typeof item === "string" && TRACK_ID.test(item)) seen.add(item);
  return [...seen];
}

/** The list with `trackId` added (at the front) or removed. */
export function toggledFavorites(list: readonly string[], trackId: string): string[] {
  if (list.includes(trackId)) return list.filter((id) => id !== trackId);
  return [trackId, ...list].slice(0, MAX_FAVORITES);
}

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null; // storage disabled (privacy settings): favorites are simply empty
  }
}

/** The stored string (null when none or unreadable). */
function rawFavorites(userId: string): string | null {
  try {
    return storage()?.getItem(favoritesKey(userId)) ?? null;
  } catch {
    return null;
  }
}

export function readFavorites(userId: string): string[] {
  return parseFavorites(rawFavorites(userId));
}

/** Stores the list and tells this tab (`favorites-updated`); false when the browser refused. */
export function writeFavorites(userId: string, list: readonly string[]): boolean {
  const store = storage();
  if (!store) return false;
  try {
    store.setItem(favoritesKey(userId), JSON.stringify(list));
  } catch {
    return false; // quota or privacy mode
  }
  window.dispatchEvent(new CustomEvent(FAVORITES_UPDATED_EVENT, { detail: { userId } }));
  return true;
}

/** Adds or removes one track; returns whether it is a favorite afterwards. */
export function toggleFavorite(userId: string, trackId: string): boolean {
  const next = toggledFavorites(readFavorites(userId), trackId);
  writeFavorites(userId, next);
  return next.includes(trackId);
}

const EMPTY = "[]";

/**
 * The user's favorites, live: re-read on `storage` and `favorites-updated`. The server (and the
 * first client render) see none, so hydration matches; the browser's list follows at once.
 */
export function useFavorites(userId: string | null | undefined) {
  const subscribe = useCallback((onChange: () => void) => (userId ? subscribeFavorites(userId, onChange) : () => {}), [userId]);
  // The snapshot is the stored string (stable between changes), parsed below.
  const raw = useSyncExternalStore(
    subscribe,
    () => (userId ? (rawFavorites(userId) ?? EMPTY) : EMPTY),
    () => EMPTY,
  );
  const ids = parseFavoritesCached(raw);
  const toggle = useCallback((trackId: string) => (userId ? toggleFavorite(userId, trackId) : false), [userId]);
  return { ids, has: (trackId: string) => ids.includes(trackId), toggle };
}

let cache: { raw: string; ids: string[] } = { raw: EMPTY, ids: [] };
function parseFavoritesCached(raw: string): string[] {
  if (cache.raw !== raw) cache = { raw, ids: parseFavorites(raw) };
  return cache.ids;
}
