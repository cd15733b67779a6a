import { FAVORITES_KEY_PREFIX } from "./constants";

export const FAVORITES_UPDATED_EVENT = "favorites-updated";

export function favoritesKey(userId: string): string {
  return `${FAVORITES_KEY_PREFIX}${userId}`;
}

/** Number of favorites stored in this browser for the user (only the length is read). */
export function readFavoritesCount(userId: string): number {
  try {
    const raw = window.localStorage.getItem(favoritesKey(userId));
    const list = raw ? JSON.parse(raw) : [];
    return Array.isArray(list) ? list.length : 0;
  } catch {
    return 0;
  }
}

/** Calls `onChange` when the user's favorites change in this tab (`favorites-updated`) or another one (`storage`). */
export function subscribeFavorites(userId: string, onChange: () => void): () => void {
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key === favoritesKey(userId)) onChange();
  };
  window.addEventListener("storage", onStorage);
  window.addEventListener(FAVORITES_UPDATED_EVENT, onChange);
  return () => {
    window.removeEventListener("storage", onStorage);
    window.removeEventListener(FAVORITES_UPDATED_EVENT, onChange);
  };
}
