import { useEffect, useRef, useSyncExternalStore } from "react";
import { useRevalidator } from "react-router";

// Background work must never take a page down (issue 26): a revalidation whose fetch fails
// ("Failed to fetch" while the network is gone) is a route error, and the error screen replaces the
// page, with its unsaved work (a chat draft, the editor's canvas). So a background re-read
//   - is skipped while the browser says it is offline, or the tab is hidden;
//   - first asks the server's cheapest route (/healthz) whether it is reachable, and is skipped
//     (the state turns "offline") when it is not — the network can be gone while the browser still
//     says online;
//   - runs once as soon as the browser is back online.
// A person's own navigation is not background work: it goes through as usual.

const PROBE_TIMEOUT_MS = 5_000;

let reachable = true;
const listeners = new Set<() => void>();
function setReachable(value: boolean) {
  if (reachable === value) return;
  reachable = value;
  for (const l of listeners) l();
}

/** Whether the server answered the last probe and the browser says it is online. */
function connectivity(): boolean {
  return reachable && navigator.onLine;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("online", listener);
  window.addEventListener("offline", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("online", listener);
    window.removeEventListener("offline", listener);
  };
}

/** True while the app cannot reach its server (for the quiet "offline" state); false on the server's HTML. */
export function useOffline(): boolean {
  return !useSyncExternalStore(subscribe, connectivity, () => true);
}

/** Asks /healthz whether the server is reachable now; remembers the answer for useOffline(). */
export async function serverReachable(): Promise<boolean> {
  if (!navigator.onLine) {
    setReachable(false);
    return false;
  }
  const abort = new AbortController();
  const timer = window.setTimeout(() => abort.abort(), PROBE_TIMEOUT_MS);
  try {
    const res = await fetch("/healthz", { cache: "no-store", signal: abort.signal });
    setReachable(res.ok);
    return res.ok;
  } catch {
    setReachable(false);
    return false;
  } finally {
    window.clearTimeout(timer);
  }
}

/**
 * Re-reads the page's data every `everyMs` while the tab is visible and the server reachable, and
 * once when the browser comes back online (and once `firstAfterMs` after arriving, when given).
 * Pair it with useOffline() to show the state.
 */
export function useBackgroundRevalidation(everyMs: number, opts: { firstAfterMs?: number } = {}): void {
  const revalidator = useRevalidator();
  const current = useRef(revalidator);
  current.current = revalidator;

  useEffect(() => {
    let running = false;
    const reread = async () => {
      if (running || document.visibilityState !== "visible" || current.current.state !== "idle") return;
      running = true;
      try {
        if (await serverReachable()) await current.current.revalidate();
      } finally {
        running = false;
      }
    };
    const id = window.setInterval(() => void reread(), everyMs);
    const first = opts.firstAfterMs === undefined ? undefined : window.setTimeout(() => void reread(), opts.firstAfterMs);
    const online = () => void reread();
    const offline = () => setReachable(false);
    window.addEventListener("online", online);
    window.addEventListener("offline", offline);
    return () => {
      window.clearInterval(id);
      window.clearTimeout(first);
      window.removeEventListener("online", online);
      window.removeEventListener("offline", offline);
    };
  }, [everyMs, opts.firstAfterMs]);
}
