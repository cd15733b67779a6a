import { useEffect, useId, useRef, type ReactNode } from "react";
import { Link, useLocation, useNavigate, useNavigation } from "react-router";

// Small building blocks of the admin console and the agency screens: badges, the confirm step
// (a dialog that is a plain page state, so it works without JavaScript), pagination, and the
// 'Verifying admin access...' guard screen.

type Tone = "slate" | "green" | "amber" | "red" | "blue" | "violet";

const TONES: Record<Tone, string> = {
  slate: "border-slate-300 bg-slate-100 text-slate-800",
  green: "border-green-300 bg-green-50 text-green-800",
  amber: "border-amber-300 bg-amber-50 text-amber-900",
  red: "border-red-300 bg-red-50 text-red-800",
  blue: "border-sky-300 bg-sky-50 text-sky-900",
  violet: "border-violet-300 bg-violet-50 text-violet-900",
};

export function Badge({ tone = "slate", children }: { tone?: Tone; children: ReactNode }) {
  return (
    <span className={`inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${TONES[tone]}`}>
      {children}
    </span>
  );
}

export function ApprovalBadge({ status }: { status: string }) {
  const tone: Tone = status === "approved" ? "green" : status === "rejected" ? "red" : "amber";
  return <Badge tone={tone}>{status.charAt(0).toUpperCase() + status.slice(1)}</Badge>;
}

export const buttonClass = {
  primary:
    "inline-flex items-center justify-center gap-1.5 rounded-md bg-slate-900 px-3 py-2 text-sm font-semibold text-white hover:bg-slate-700 disabled:opacity-50",
  secondary:
    "inline-flex items-center justify-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 disabled:opacity-50",
  danger:
    "inline-flex items-center justify-center gap-1.5 rounded-md bg-red-700 px-3 py-2 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-50",
  dangerOutline:
    "inline-flex items-center justify-center gap-1.5 rounded-md border border-red-300 bg-white px-3 py-2 text-sm font-medium text-red-800 hover:bg-red-50 disabled:opacity-50",
};

export const inputClass =
  "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400";

/**
 * The confirm step of a destructive or important action. It is a state of the page (a query
 * parameter), rendered as a modal dialog: without JavaScript it is simply there after the link
 * is followed; with it, focus moves in and Escape cancels.
 */
export function ConfirmDialog({
  title,
  cancelTo,
  children,
}: {
  title: string;
  cancelTo: string;
  children: ReactNode;
}) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = ref.current?.querySelector<HTMLElement>("textarea, input:not([type=hidden]), button[type=submit]");
    first?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") navigate(cancelTo, { preventScrollReset: true, replace: true });
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      previous?.focus?.();
    };
  }, [cancelTo, navigate]);
  return (
    <div className="fixed inset-0 z-50 flex items-end justify-center bg-slate-900/50 p-3 sm:items-center sm:p-6">
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="max-h-[90vh] w-full max-w-md overflow-y-auto rounded-xl border border-slate-200 bg-white p-5 shadow-xl"
      >
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <div className="mt-3">{children}</div>
      </div>
    </div>
  );
}

/** Previous/next links that keep the other query parameters. */
export function Pagination({
  page,
  pageCount,
  total,
  hrefFor,
  label,
  singular = label.replace(/s$/, ""),
}: {
  page: number;
  pageCount: number;
  total: number;
  hrefFor: (page: number) => string;
  label: string;
  singular?: string;
}) {
  if (pageCount <= 1) return <p className="mt-4 text-sm text-slate-600">{total === 1 ? `1 ${singular}` : `${total} ${label}`}</p>;
  return (
    <nav aria-label={`${label} pages`} className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm">
      <p className="text-slate-600">{`Page ${page} of ${pageCount} · ${total} ${label}`}</p>
      <div className="flex gap-2">
        {page > 1 ? (
          <Link className={buttonClass.secondary} to={hrefFor(page - 1)} preventScrollReset>
            Previous
          </Link>
        ) : (
          <span className={`${buttonClass.secondary} pointer-events-none opacity-50`} aria-disabled="true">
            Previous
          </span>
        )}
        {page < pageCount ? (
          <Link className={buttonClass.secondary} to={hrefFor(page + 1)} preventScrollReset>
            Next
          </Link>
        ) : (
          <span className={`${buttonClass.secondary} pointer-events-none opacity-50`} aria-disabled="true">
            Next
          </span>
        )}
      </div>
    </nav>
  );
}

export const ADMIN_PATH = /^\/(admin(\/|$)|chat-management$|user-retention$|ai-thumbnail-editor$)/;

/** The spec's admin guard screen, shown while the server checks admin access. */
export function AdminGuardScreen() {
  return (
    <div role="status" aria-live="polite" className="flex min-h-[50vh] flex-col items-center justify-center gap-4 p-8">
      <span className="h-10 w-10 animate-spin rounded-full border-4 border-slate-200 border-t-brand-600" aria-hidden="true" />
      <p className="text-slate-600">Verifying admin access...</p>
    </div>
  );
}

/**
 * While a navigation into an admin page is loading (its loaders run the admin guard), cover the
 * page with the guard screen. The server guard is the authority; this is only what the wait
 * looks like.
 */
export function AdminGuardPending() {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const target = navigation.state === "loading" ? navigation.location?.pathname : undefined;
  // A new admin page (not a filter or page change of this one, nor a form's reload).
  const entering = target !== undefined && target !== pathname && ADMIN_PATH.test(target) && navigation.formMethod === undefined;
  if (!entering) return null;
  // Below the header; the sidebar (z-40) stays usable above it.
  return (
    <div className="fixed inset-x-0 top-16 bottom-0 z-30 bg-slate-50">
      <AdminGuardScreen />
    </div>
  );
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "—" : d.toISOString().slice(0, 10);
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "—" : `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** The current page's URL with some query parameters changed (null removes one). */
export function hrefWith(pathname: string, search: string, changes: Record<string, string | number | null | undefined>): string {
  const params = new URLSearchParams(search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === undefined || v === "") params.delete(k);
    else params.set(k, String(v));
  }
  const qs = params.toString();
  return qs ? `${pathname}?${qs}` : pathname;
}
