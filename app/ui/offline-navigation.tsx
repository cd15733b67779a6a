import { useEffect, useState } from "react";
import { useLocation, useNavigate, useRevalidator } from "react-router";

// Offline, a link inside the signed-in shell keeps the person in the shell (issue 42 §2,
// docs/decisions/0313). Left to React Router, a page whose code the browser has not loaded yet
// makes it reload the document ("Error loading route module …, reloading page"), which offline is
// the browser's own "No internet" page; a page already loaded fails on its data fetch and showed
// the error screen. So while the browser says it is offline, a click on an in-app link does not
// start a navigation: the shell shows OfflinePage in place of the page and follows the link by
// itself as soon as the browser is back online.

export const OFFLINE_TITLE = "You're offline — this page needs a connection";

/** The path a plain primary click on a same-origin link inside the page leads to, else null. */
function inAppTarget(event: MouseEvent): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return null;
  const link = (event.target as Element | null)?.closest?.("a[href]");
  if (!(link instanceof HTMLAnchorElement) || (link.target && link.target !== "_self") || link.hasAttribute("download")) return null;
  const url = new URL(link.href);
  if (url.origin !== window.location.origin) return null;
  return url.pathname + url.search + url.hash;
}

/**
 * The page an offline click asked for (null when none): the shell renders OfflinePage instead of
 * its page while it is set, and navigates there once the browser is online again.
 */
export function useOfflineNavigation(): { waitingFor: string | null } {
  const navigate = useNavigate();
  const location = useLocation();
  const [waitingFor, setWaitingFor] = useState<string | null>(null);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (navigator.onLine) return;
      const to = inAppTarget(event);
      if (to === null) return;
      // Capture phase, before React Router's own handlers (a <Link>'s, the sidebar's listener).
      event.preventDefault();
      event.stopPropagation();
      const here = window.location.pathname + window.location.search + window.location.hash;
      setWaitingFor(to === here ? null : to);
    };
    document.addEventListener("click", onClick, true);
    return () => document.removeEventListener("click", onClick, true);
  }, []);

  useEffect(() => {
    if (waitingFor === null) return;
    const online = () => {
      setWaitingFor(null);
      navigate(waitingFor);
    };
    if (navigator.onLine) online();
    window.addEventListener("online", online);
    return () => window.removeEventListener("online", online);
  }, [waitingFor, navigate]);

  // Any other navigation (back button, a redirect) drops the wait.
  const [seenKey, setSeenKey] = useState(location.key);
  if (seenKey !== location.key) {
    setSeenKey(location.key);
    if (waitingFor !== null) setWaitingFor(null);
  }

  return { waitingFor };
}

/** Whether a thrown value is a fetch that could not reach the server (offline, or the network gone). */
export function isNetworkError(error: unknown): boolean {
  if (typeof navigator !== "undefined" && navigator.onLine === false) return true;
  return error instanceof TypeError && /failed to fetch|networkerror|load failed|network connection/i.test(error.message);
}

/**
 * "You're offline — this page needs a connection", inside the shell. With `retry`, it re-reads the
 * page when the browser is back online (a route's error boundary, after a data fetch failed).
 */
export function OfflinePage({ retry = false }: { retry?: boolean }) {
  return (
    <section aria-labelledby="offline-title" className="mx-auto max-w-lg py-16 text-center">
      <h1 id="offline-title" className="text-2xl font-semibold text-slate-900">
        {OFFLINE_TITLE}
      </h1>
      <p className="mt-3 text-slate-600">It opens by itself as soon as the network is back. What you had open elsewhere is kept.</p>
      {retry ? <RetryWhenOnline /> : null}
    </section>
  );
}

function RetryWhenOnline() {
  const revalidator = useRevalidator();
  useEffect(() => {
    const online = () => void revalidator.revalidate();
    window.addEventListener("online", online);
    return () => window.removeEventListener("online", online);
  }, [revalidator]);
  return null;
}
