import { useEffect, useState } from "react";

export const LOADING_HELP_AFTER_MS = 10_000;

/** Clears everything the browser keeps for this app and starts again at sign-in. */
export function resetSession() {
  try {
    window.localStorage.clear();
    window.sessionStorage.clear();
  } catch {
    // storage may be unavailable (private mode); going to /auth still helps
  }
  window.location.assign("/auth");
}

/** The spinner shown while a page loads on demand (spec section 2, guard screens). */
export function LoadingScreen({ fullScreen = true }: { fullScreen?: boolean }) {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setSlow(true), LOADING_HELP_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, []);
  return (
    <div className={`flex flex-col items-center justify-center gap-4 p-8 ${fullScreen ? "min-h-screen" : "min-h-[50vh]"}`} role="status" aria-live="polite">
      <span className="h-10 w-10 animate-spin rounded-full border-4 border-slate-200 border-t-brand-600" aria-hidden="true" />
      <p className="text-slate-600">Loading...</p>
      {slow ? (
        <div className="flex flex-col items-center gap-2">
          <p className="text-sm text-slate-500">Taking longer than usual?</p>
          <button
            type="button"
            onClick={resetSession}
            className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100"
          >
            Reset Session
          </button>
        </div>
      ) : null}
    </div>
  );
}
