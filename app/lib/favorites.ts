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
