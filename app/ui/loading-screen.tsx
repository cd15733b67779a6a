import { useEffect, useState } from "react";
import { LOADING_HELP_MS } from "~/lib/constants";

/** A navigation shorter than this shows no spinner at all (no flash on fast pages). */
export const LOADING_SHOW_AFTER_MS = 300;

/** Where 'Reset Session' posts: the sign-out action ends this browser's session (only this one) and answers with /auth. */
export const RESET_SESSION_ACTION = "/auth/sign-out";

type NavigationLike = { state: "idle" | "loading" | "submitting"; location?: { pathname: string }; formMethod?: string };

/**
 * The page a navigation is loading when it is a move to another page (a link, a redirect after a
 * form), or undefined: idle, a form still submitting, or a reload of the page shown (filters,
 * revalidation) do not get the loading screen.
 */
export function pendingPage(navigation: NavigationLike, currentPathname: string): string | undefined {
  if (navigation.state !== "loading") return undefined;
  const target = navigation.location?.pathname;
  return target !== undefined && target !== currentPathname ? target : undefined;
}

/** Empties what this app keeps in the browser (both storages); storage that cannot be reached is skipped. */
export function clearBrowserStorage(storages: () => Array<Pick<Storage, "clear"> | null | undefined>) {
  let list: Array<Pick<Storage, "clear"> | null | undefined> = [];
  try {
    list = storages();
  } catch {
    return; // storage blocked (privacy settings): nothing to clear
  }
  for (const storage of list) {
    try {
      storage?.clear();
    } catch {
      // a storage that refuses (private mode) does not stop the reset
    }
  }
}

const browserStorages = () => [window.localStorage, window.sessionStorage];

/**
 * Empties both storages now and once more as the page goes: the router saves its scroll positions
 * to session storage on `pagehide`, and this listener, added later, runs after it.
 */
function resetBrowserStorage() {
  clearBrowserStorage(browserStorages);
  window.addEventListener("pagehide", () => clearBrowserStorage(browserStorages), { once: true });
}

/**
 * What the loading screen shows. `slow`: the 'Taking longer than usual?' help with 'Reset
 * Session', a plain form POST to the sign-out action (the server ends this session and redirects
 * to /auth); the browser's storage is emptied as the form leaves.
 */
export function LoadingPanel({ slow, overlay = false }: { slow: boolean; overlay?: boolean }) {
  return (
    <div
      className={
        overlay
          ? "fixed inset-0 z-[60] flex flex-col items-center justify-center gap-4 bg-white/85 p-8 backdrop-blur-[1px]"
          : "flex min-h-screen flex-col items-center justify-center gap-4 p-8"
      }
      data-loading-screen=""
    >
      <div role="status" aria-live="polite" className="flex flex-col items-center gap-4 text-center">
        <span className="h-10 w-10 animate-spin rounded-full border-4 border-slate-200 border-t-brand-600" aria-hidden="true" />
        <p className="text-slate-700">Loading...</p>
        {slow ? <p className="text-sm text-slate-700">Taking longer than usual?</p> : null}
      </div>
      {slow ? (
        <form method="post" action={RESET_SESSION_ACTION} onSubmit={resetBrowserStorage}>
          <button
            type="submit"
            className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-900 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          >
            Reset Session
          </button>
        </form>
      ) : null}
    </div>
  );
}

/**
 * The spec's loading screen: a centred 'Loading...' spinner; after 10 s it adds 'Taking longer
 * than usual?' and 'Reset Session'. `overlay` covers the page during a slow navigation and only
 * appears after `showAfterMs`; both clocks start when it mounts (key it by the navigation).
 */
export function LoadingScreen({ overlay = false, showAfterMs = 0 }: { overlay?: boolean; showAfterMs?: number }) {
  const [visible, setVisible] = useState(showAfterMs <= 0);
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timers = [window.setTimeout(() => setSlow(true), LOADING_HELP_MS)];
    if (showAfterMs > 0) timers.push(window.setTimeout(() => setVisible(true), showAfterMs));
    return () => {
      for (const t of timers) window.clearTimeout(t);
    };
  }, [showAfterMs]);
  return visible ? <LoadingPanel slow={slow} overlay={overlay} /> : null;
}
