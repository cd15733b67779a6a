import { useEffect } from "react";
import { useNavigate } from "react-router";

// Client-side navigation for plain `<a href="/path" data-discover="true">` links inside the elements
// marked `data-in-app-links` (the sidebar's list, the library's and the admin's rows, the admin
// tabs, the dashboard): one click listener for the signed-in shell instead of a React Router <Link>
// per link. A Link resolves its path, encodes it and sets up its own click handler while the server
// renders it: the sidebar's dozen or more NavLinks were about a tenth of a signed-in page's server
// CPU (docs/decisions/0230), a library page's twenty rows' links about 5 % (0346). `data-discover`
// keeps React Router's route discovery for them, as a Link's; a modified or non-primary click, or a
// link with a target or `download`, is left to the browser. `data-in-app-links="keep-scroll"` keeps
// the scroll position, as a Link's `preventScrollReset`.
//
// The listener is on the window and follows only a click nothing has handled yet: a <Link> inside a
// marked element handles its own click first (React listens on the document) and keeps its options.
// A link there that must load as a document (a resource route, `reloadDocument`) needs `download`,
// a target, or a place outside the marked element.

/** The attribute that marks an element whose plain links the shell follows client-side ("keep-scroll": without scrolling to the top). */
export const IN_APP_LINKS = "data-in-app-links";

/** Follows same-origin links inside marked elements with React Router's navigation, as a <Link> would. Called once, by the shell. */
export function useInAppLinks() {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const link = (event.target as Element | null)?.closest?.("a[href]");
      if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      const area = link.closest(`[${IN_APP_LINKS}]`);
      if (!area) return;
      const url = new URL(link.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      const to = url.pathname + url.search + url.hash;
      const here = window.location.pathname + window.location.search + window.location.hash;
      navigate(to, { replace: to === here, preventScrollReset: area.getAttribute(IN_APP_LINKS) === "keep-scroll" });
    };
    window.addEventListener("click", onClick);
    return () => window.removeEventListener("click", onClick);
  }, [navigate]);
}

/** Whether `path` is the page at `pathname` (a NavLink's `end` match: exact, any case, a trailing slash ignored). */
export function isCurrentPath(pathname: string, path: string): boolean {
  const here = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return here.toLowerCase() === path.toLowerCase();
}
