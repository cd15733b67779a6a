import { type RefObject, useEffect } from "react";
import { useNavigate } from "react-router";

// Client-side navigation for the plain `<a href="/path" data-discover="true">` links inside one
// element (the sidebar's): one click listener instead of a React Router <Link> per link. A Link
// resolves its path, encodes it and sets up its own click handler while the server renders it:
// the sidebar's dozen or more NavLinks were about a tenth of a signed-in page's server CPU
// (docs/decisions/0230). `data-discover` keeps React Router's route discovery for them, as a
// Link's; a modified or non-primary click, or a link with a target, is left to the browser.

/** Follows same-origin links inside `ref` with React Router's navigation, as a <Link> would. */
export function useInAppLinks(ref: RefObject<HTMLElement | null>) {
  const navigate = useNavigate();
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const link = (event.target as Element | null)?.closest?.("a[href]");
      if (!(link instanceof HTMLAnchorElement) || !root.contains(link) || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      const url = new URL(link.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      const to = url.pathname + url.search + url.hash;
      navigate(to, { replace: to === window.location.pathname + window.location.search + window.location.hash });
    };
    root.addEventListener("click", onClick);
    return () => root.removeEventListener("click", onClick);
  }, [ref, navigate]);
}

/** Whether `path` is the page at `pathname` (a NavLink's `end` match: exact, any case, a trailing slash ignored). */
export function isCurrentPath(pathname: string, path: string): boolean {
  const here = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return here.toLowerCase() === path.toLowerCase();
}
