import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useLocation } from "react-router";

// Toasts: short messages in the top-right corner, below the 4rem header, so that an error toast (it
// stays until dismissed) never covers the bell or the account menu. A small store and one region instead of a toast
// library: it is on every page's first load (docs/decisions/0086).
//
//   toast("Saved")                                a message
//   toast.success(title, { description, id })     success / error / info
//   toast.dismiss(id?)                            one, or all
//
// The region is a polite live region that is always in the page, so screen readers announce each
// toast as it is added; errors are role="alert". A toast stays while the pointer is on it or
// focus is in it, and has a close button.
//
// An error stays until it is dismissed (read at one's own pace, not gone in 4 s), and only on the
// page it was about: moving to another page takes the old errors away, so a refusal on one page is
// never shown beside the next page's message (issue 42 §4, docs/decisions/0315). Other toasts go
// away on their own.

export type ToastType = "message" | "success" | "error" | "info";
export type ToastOptions = { id?: string; description?: string; duration?: number };
/** `duration` in ms, Infinity for "until dismissed"; `path` the page it was shown on. */
export type ToastItem = { id: string; type: ToastType; title: string; description?: string; duration: number; path: string };

const DEFAULT_DURATION_MS = 4000;
const MAX_VISIBLE = 3;

let items: ToastItem[] = [];
const listeners = new Set<() => void>();
let counter = 0;
/** The page shown now (the Toaster tells the store on each navigation). */
let currentPath = "";

function emit() {
  for (const l of listeners) l();
}

function add(type: ToastType, title: string, options: ToastOptions = {}): string {
  const id = options.id ?? `t${++counter}`;
  const duration = options.duration ?? (type === "error" ? Number.POSITIVE_INFINITY : DEFAULT_DURATION_MS);
  const item: ToastItem = { id, type, title, description: options.description, duration, path: currentPath };
  // The same id replaces the toast in place (a flash toast shown again after a revalidation).
  items = [...items.filter((t) => t.id !== id), item].slice(-MAX_VISIBLE);
  emit();
  return id;
}

function dismiss(id?: string) {
  items = id === undefined ? [] : items.filter((t) => t.id !== id);
  emit();
}

/** A navigation to `pathname`: the error toasts of other pages go. */
export function pageShown(pathname: string) {
  currentPath = pathname;
  // A toast added before the first navigation was known belongs to the first page.
  const adopted = items.map((t) => (t.path === "" ? { ...t, path: pathname } : t));
  const kept = adopted.filter((t) => t.type !== "error" || t.path === pathname);
  if (kept.length === items.length && adopted.every((t, i) => t === items[i])) return;
  items = kept;
  emit();
}

/** The toasts shown now (tests read the store through it). */
export function shownToasts(): readonly ToastItem[] {
  return items;
}

export const toast = Object.assign((title: string, options?: ToastOptions) => add("message", title, options), {
  message: (title: string, options?: ToastOptions) => add("message", title, options),
  success: (title: string, options?: ToastOptions) => add("success", title, options),
  error: (title: string, options?: ToastOptions) => add("error", title, options),
  info: (title: string, options?: ToastOptions) => add("info", title, options),
  dismiss,
});

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
const EMPTY: ToastItem[] = [];

const TONE: Record<ToastType, { border: string; title: string }> = {
  message: { border: "border-slate-300", title: "text-slate-900" },
  info: { border: "border-sky-300", title: "text-slate-900" },
  success: { border: "border-emerald-300", title: "text-emerald-800" },
  error: { border: "border-red-300", title: "text-red-800" },
};

function ToastCard({ item }: { item: ToastItem }) {
  const [paused, setPaused] = useState(false);
  const remaining = useRef(item.duration);
  useEffect(() => {
    if (paused || !Number.isFinite(remaining.current)) return;
    const started = Date.now();
    const timer = window.setTimeout(() => dismiss(item.id), remaining.current);
    return () => {
      window.clearTimeout(timer);
      remaining.current = Math.max(1000, remaining.current - (Date.now() - started));
    };
  }, [paused, item.id]);
  const tone = TONE[item.type];
  return (
    <li
      data-toast={item.type}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      className={`pointer-events-auto flex w-full items-start gap-3 rounded-lg border bg-white p-4 text-sm text-slate-900 shadow-lg ${tone.border}`}
    >
      {/* An error is also an alert (on the content: a list item must stay a list item). */}
      <div role={item.type === "error" ? "alert" : undefined} className="min-w-0 flex-1">
        <p className={`font-semibold ${tone.title}`}>{item.title}</p>
        {item.description ? <p className="mt-0.5 text-slate-700">{item.description}</p> : null}
      </div>
      <button
        type="button"
        aria-label="Close toast"
        onClick={() => dismiss(item.id)}
        className="-m-1 rounded p-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round">
          <path d="M18 6 6 18M6 6l12 12" />
        </svg>
      </button>
    </li>
  );
}

/** The one toast region; render it once, in the root layout. */
export function Toaster() {
  const { pathname } = useLocation();
  useEffect(() => pageShown(pathname), [pathname]);
  const list = useSyncExternalStore(
    subscribe,
    () => items,
    () => EMPTY,
  );
  return (
    <section
      data-toaster
      aria-label="Notifications"
      aria-live="polite"
      aria-relevant="additions text"
      className="pointer-events-none fixed top-20 right-4 left-4 z-[100] sm:left-auto sm:w-[356px]"
    >
      <ol className="flex flex-col gap-2">
        {list.map((item) => (
          <ToastCard key={item.id} item={item} />
        ))}
      </ol>
    </section>
  );
}
