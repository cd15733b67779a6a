import { type RefObject, useEffect } from "react";
import { useNavigate } from "react-router";

// Client-side navigation for the plain `<a href="/path" data-discover="true">` links inside one
// element (the sidebar's, a table's rows, the dashboard's cards: InAppLink): one click listener
// instead of a React Router <Link> per link. A Link resolves its path, encodes it and sets up its own
// click handler while the server renders it: the sidebar's dozen or more NavLinks were about a tenth
// of a signed-in page's server CPU (docs/decisions/0230), a library page's twenty rows' links about
// 5 % (0346). `data-discover` keeps React Router's route discovery for them, as a Link's; a modified
// or non-primary click, or a link with a target or `download`, is left to the browser.
//
// The listener is on the window and follows only a click nothing has handled yet: a <Link> inside
// the element handles its own click first (React listens on the document) and keeps its options.
// A link there that must load as a document (a resource route, `reloadDocument`) needs `download`,
// a target, or a place outside the element.

/** Follows same-origin links inside `ref` with React Router's navigation, as a <Link> would (with `preventScrollReset` as a Link's prop). */
export function useInAppLinks(ref: RefObject<HTMLElement | null>, { preventScrollReset = false }: { preventScrollReset?: boolean } = {}) {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const root = ref.current;
      if (!root || event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const link = (event.target as Element | null)?.closest?.("a[href]");
      if (!(link instanceof HTMLAnchorElement) || !root.contains(link) || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      const url = new URL(link.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      const to = url.pathname + url.search + url.hash;
      navigate(to, { replace: to === window.location.pathname + window.location.search + window.location.hash, preventScrollReset });
    };
    window.addEventListener("click", onClick);
    return () => window.removeEventListener("click", onClick);
  }, [ref, navigate, preventScrollReset]);
}

/** Whether `path` is the page at `pathname` (a NavLink's `end` match: exact, any case, a trailing slash ignored). */
export function isCurrentPath(pathname: string, path: string): boolean {
  const here = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return here.toLowerCase() === path.toLowerCase();
}
