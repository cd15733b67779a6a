import { Heart } from "~/ui/icons";
import { useEffect, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { useFavorites } from "../favorites";
import { IDS_MAX, LIBRARY_PARAMS } from "../library";
import { usePlayer } from "./player-provider";

// The heart of a track (aria-pressed) and the library's 'Favorites' view toggle. Favorites live
// in this browser (../favorites.ts); the view asks the library for those ids with `?ids=a,b,c`
// (the newest IDS_MAX), so search, filters, sort and pagination still work on the server; with no
// favorites it asks for NO_FAVORITES, an id no track has. Both need JavaScript and stay disabled
// until hydrated. docs/decisions/0107.

/** The `ids` value of an empty Favorites view: the nil UUID, which matches no track. */
export const NO_FAVORITES = "00000000-0000-0000-0000-000000000000";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The `ids` parameter of a Favorites view: the newest IDS_MAX favorites (track ids only), or NO_FAVORITES. */
export function favoritesParam(ids: readonly string[]): string {
  const list = ids
    .map((id) => id.toLowerCase())
    .filter((id) => UUID.test(id))
    .slice(0, IDS_MAX);
  return list.length ? list.join(",") : NO_FAVORITES;
}

/** Whether a library URL shows the Favorites view (its `ids` parameter is set). */
export function isFavoritesView(params: URLSearchParams): boolean {
  return params.has(LIBRARY_PARAMS.ids);
}

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** `className` adds to the look; `size` replaces the default 40 px square. */
export function FavoriteButton({ trackId, title, className = "", size = "h-10 w-10" }: { trackId: string; title: string; className?: string; size?: string }) {
  const { userId } = usePlayer();
  const favorites = useFavorites(userId);
  const hydrated = useHydrated();
  const pressed = favorites.has(trackId);
  return (
    <button
      type="button"
      disabled={!hydrated || !userId}
      aria-pressed={pressed}
      aria-label={`Favorite ${title}`}
      title={pressed ? "Remove from favorites" : "Add to favorites"}
      onClick={() => favorites.toggle(trackId)}
      className={`inline-flex ${size} shrink-0 items-center justify-center rounded-full border border-slate-200 bg-white hover:bg-slate-100 disabled:opacity-50 ${className}`.trim()}
    >
      <Heart className={`h-4 w-4 ${pressed ? "fill-brand-600 text-brand-600" : "text-slate-600"}`} aria-hidden="true" />
    </button>
  );
}

/**
 * The 'Favorites' toggle of /music. On: `?ids=…` (other filters kept, page reset); off: removed.
 * While on, a heart removed here (or in another tab) updates the ids (the page is kept).
 */
export function FavoritesToggle({ className = "" }: { className?: string }) {
  const { userId } = usePlayer();
  const favorites = useFavorites(userId);
  const hydrated = useHydrated();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const on = isFavoritesView(params);
  const wanted = favoritesParam(favorites.ids);

  const go = (next: boolean, opts: { replace?: boolean; keepPage?: boolean } = {}) => {
    const search = new URLSearchParams(params);
    if (!opts.keepPage) search.delete(LIBRARY_PARAMS.page);
    if (next) search.set(LIBRARY_PARAMS.ids, wanted);
    else search.delete(LIBRARY_PARAMS.ids);
    const qs = search.toString();
    navigate({ search: qs ? `?${qs}` : "" }, { replace: opts.replace, preventScrollReset: true });
  };

  // Keep the view's ids in step with the stored favorites (also for a shared or bookmarked URL).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the ids differ, not when `go` changes identity
  useEffect(() => {
    if (hydrated && on && params.get(LIBRARY_PARAMS.ids) !== wanted) go(true, { replace: true, keepPage: true });
  }, [hydrated, on, wanted, params]);

  return (
    <button
      type="button"
      disabled={!hydrated || !userId}
      aria-pressed={on}
      onClick={() => go(!on)}
      className={`inline-flex items-center gap-1.5 rounded-md border px-3 py-2 text-sm font-medium disabled:opacity-50 ${
        on ? "border-brand-600 bg-brand-50 text-brand-700" : "border-slate-300 bg-white text-slate-800 hover:bg-slate-100"
      } ${className}`.trim()}
    >
      <Heart className={`h-4 w-4 ${on ? "fill-brand-600 text-brand-600" : ""}`} aria-hidden="true" />
      Favorites
      <span className="rounded-full bg-slate-100 px-1.5 text-xs text-slate-700">
        {hydrated ? favorites.ids.length : 0}
        <span className="sr-only"> saved</span>
      </span>
    </button>
  );
}
