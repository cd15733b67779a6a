import { useState } from "react";
import { Link, isRouteErrorResponse, useNavigate, useRouteError, useRouteLoaderData } from "react-router";
import { OfflinePage, isNetworkError } from "~/ui/offline-navigation";

export const STACK_PREVIEW_CHARS = 500;

/** Message and stack preview of any thrown value, as the spec's 'Error details' shows them. */
export function describeError(error: unknown): { message: string; stack: string } {
  if (error instanceof Error) {
    return { message: error.message, stack: (error.stack ?? "").slice(0, STACK_PREVIEW_CHARS) };
  }
  if (isRouteErrorResponse(error)) {
    const detail = typeof error.data === "string" ? error.data : error.statusText;
    return { message: `${error.status} ${detail}`.trim(), stack: "" };
  }
  return { message: String(error), stack: "" };
}

/** Stack traces are shown in development only (`npm run dev`, tests); never in a production build. */
export const SHOW_STACK = import.meta.env.DEV;

/**
 * The id of the request that rendered this page (the root loader returns it; workers/app.ts sends
 * it as X-Request-Id and the server logs the error under it), so a report can be matched to its log.
 */
function useRequestId(): string | undefined {
  const root = useRouteLoaderData("root") as { requestId?: unknown } | undefined;
  return typeof root?.requestId === "string" ? root.requestId : undefined;
}

/**
 * The root error screen of spec section 2. 'Error details' holds the message and, in development,
 * the first 500 characters of the stack; in production the request id takes the stack's place.
 */
export function ErrorScreen({ error }: { error: unknown }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const { message, stack } = describeError(error);
  const requestId = useRequestId();
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="w-full max-w-lg rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-2xl font-semibold text-slate-900">Something went wrong</h1>
        <p className="mt-2 text-slate-600">An unexpected error occurred. Please try the actions below.</p>
        <div className="mt-4">
          <button
            type="button"
            aria-expanded={open}
            aria-controls="error-details"
            onClick={() => setOpen((v) => !v)}
            className="text-sm font-medium text-slate-700 underline underline-offset-2"
          >
            Error details
          </button>
          <div id="error-details" hidden={!open} className="mt-2 rounded-md bg-slate-100 p-3 text-left">
            <p className="text-sm font-medium break-words text-slate-800">{message}</p>
            {SHOW_STACK && stack ? <pre className="mt-2 max-h-60 overflow-auto text-xs whitespace-pre-wrap text-slate-600">{stack}</pre> : null}
            {requestId ? (
              <p className="mt-2 text-xs text-slate-600">
                Request ID: <code className="font-mono break-all text-slate-800">{requestId}</code>
              </p>
            ) : null}
          </div>
        </div>
        <div className="mt-6 flex flex-wrap gap-3">
          <button
            type="button"
            onClick={() => navigate(".", { replace: true })}
            className="rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700"
          >
            Try Again
          </button>
          <button
            type="button"
            onClick={() => window.location.reload()}
            className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100"
          >
            Reload Page
          </button>
        </div>
      </div>
    </main>
  );
}

export function NotFoundScreen() {
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="max-w-md text-center">
        <p className="text-sm font-semibold tracking-wide text-brand-600">404</p>
        <h1 className="mt-2 text-3xl font-bold text-slate-900">Page not found</h1>
        <p className="mt-3 text-slate-600">The page you are looking for does not exist or has moved.</p>
        <Link to="/" className="mt-6 inline-block rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700">
          Back to home
        </Link>
      </div>
    </main>
  );
}

export function ForbiddenScreen({ message }: { message?: string }) {
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <div className="max-w-md text-center">
        <p className="text-sm font-semibold tracking-wide text-brand-600">403</p>
        <h1 className="mt-2 text-3xl font-bold text-slate-900">Access Denied</h1>
        <p className="mt-3 text-slate-600">{message ?? "You do not have permission to view this page."}</p>
        <Link to="/dashboard" className="mt-6 inline-block rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700">
          Go to dashboard
        </Link>
      </div>
    </main>
  );
}

/**
 * The general boundary every route re-exports: per-status renderings, else the error screen. A
 * fetch that could not reach the server (offline) is not an error of the page: a page's boundary
 * renders inside the shell, so it says so there and re-reads the page when the network is back
 * (decision 0313).
 */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  if (isNetworkError(error)) return <OfflinePage retry />;
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundScreen />;
  if (isRouteErrorResponse(error) && error.status === 403) {
    return <ForbiddenScreen message={typeof error.data === "string" ? error.data : undefined} />;
  }
  return <ErrorScreen error={error} />;
}
