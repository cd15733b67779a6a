// Favorites as the spec keeps them (section 3; issue 13): a JSON array of track ids in local
// storage under the fixed prefix + the user id; every change tells this tab with
// `favorites-updated`, other tabs hear the browser's `storage` event; the dashboard reads the
// length only. Node has no window: a minimal one (an EventTarget with a Map-backed storage).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FAVORITES_KEY_PREFIX } from "~/lib/constants";
import { FAVORITES_UPDATED_EVENT, favoritesKey, readFavoritesCount } from "~/lib/favorites";
import { subscribeFavorites } from "~/lib/favorites";
import { parseFavorites, readFavorites, toggleFavorite, toggledFavorites, writeFavorites } from "~/modules/music/favorites";

class MemoryStorage {
  map = new Map<string, string>();
  failWrites = false;
  getItem(k: string) {
    return this.map.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    if (this.failWrites) throw new DOMException("full", "QuotaExceededError");
    this.map.set(k, String(v));
  }
  removeItem(k: string) {
    this.map.delete(k);
  }
}

let store: MemoryStorage;
const g = globalThis as unknown as { window?: unknown };

beforeEach(() => {
  store = new MemoryStorage();
  g.window = Object.assign(new EventTarget(), { localStorage: store });
});
afterEach(() => {
  delete g.window;
});

const A = "0b4c6a62-1111-4c1e-9a3e-000000000001";
const B = "0b4c6a62-1111-4c1e-9a3e-000000000002";

describe("the storage key", () => {
  it("is the fixed favorites prefix followed by the user id", () => {
    expect(FAVORITES_KEY_PREFIX).toBe("shortbeat_favorites_");
    expect(favoritesKey("user-1")).toBe("shortbeat_favorites_user-1");
  });

  it("keeps each user's list apart", () => {
    toggleFavorite("user-1", A);
    toggleFavorite("user-2", B);
    expect(JSON.parse(store.getItem("shortbeat_favorites_user-1") ?? "")).toEqual([A]);
    expect(JSON.parse(store.getItem("shortbeat_favorites_user-2") ?? "")).toEqual([B]);
  });
});

describe("toggling", () => {
  it("adds at the front, removes on the second toggle, stores a JSON array of ids", () => {
    expect(toggleFavorite("u", A)).toBe(true);
    expect(toggleFavorite("u", B)).toBe(true);
    expect(readFavorites("u")).toEqual([B, A]);
    expect(store.getItem(favoritesKey("u"))).toBe(JSON.stringify([B, A]));
    expect(toggleFavorite("u", B)).toBe(false);
    expect(readFavorites("u")).toEqual([A]);
    expect(toggledFavorites([A, B], A)).toEqual([B]);
  });

  it("dispatches favorites-updated on every change, and the dashboard's count follows", () => {
    let events = 0;
    window.addEventListener(FAVORITES_UPDATED_EVENT, () => {
      events += 1;
    });
    expect(readFavoritesCount("u")).toBe(0);
    toggleFavorite("u", A);
    toggleFavorite("u", B);
    expect(events).toBe(2);
    expect(readFavoritesCount("u")).toBe(2);
    toggleFavorite("u", A);
    expect(events).toBe(3);
    expect(readFavoritesCount("u")).toBe(1);
  });

  it("a refused write (quota, private mode) changes nothing and sends no event", () => {
    let events = 0;
    window.addEventListener(FAVORITES_UPDATED_EVENT, () => {
      events += 1;
    });
    store.failWrites = true;
    expect(writeFavorites("u", [A])).toBe(false);
    expect(readFavorites("u")).toEqual([]);
    expect(events).toBe(0);
  });
});

describe("reading what is stored", () => {
  it.each([
    [null, []],
    ["", []],
    ["not json", []],
    ['{"a":1}', []],
    ["42", []],
    [JSON.stringify([A, A, 7, null, "", "bad id with spaces", B]), [A, B]],
  ])("%s → %j", (raw, expected) => {
    expect(parseFavorites(raw)).toEqual(expected);
  });
});

describe("subscribing", () => {
  it("hears favorites-updated in this tab and `storage` for this user's key (or a cleared storage) from other tabs", () => {
    let calls = 0;
    const stop = subscribeFavorites("u", () => {
      calls += 1;
    });
    toggleFavorite("u", A);
    expect(calls).toBe(1);
    window.dispatchEvent(Object.assign(new Event("storage"), { key: favoritesKey("u") }));
    expect(calls).toBe(2);
    window.dispatchEvent(Object.assign(new Event("storage"), { key: favoritesKey("someone-else") }));
    expect(calls).toBe(2);
    window.dispatchEvent(Object.assign(new Event("storage"), { key: null }));
    expect(calls).toBe(3);
    stop();
    toggleFavorite("u", B);
    expect(calls).toBe(3);
  });
});
