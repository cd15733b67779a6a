import { Link, useRouteLoaderData } from "react-router";
import { Wordmark } from "./wordmark";

type RootData = { appName: string };

export function useAppName(): string {
  return useRouteLoaderData<RootData>("root")?.appName ?? "Shortbeat";
}

/** Header and footer shared by the landing and legal pages. */
export function PublicLayout({ children }: { children: React.ReactNode }) {
  const appName = useAppName();
  return (
    <div className="flex min-h-screen flex-col bg-white">
      <header className="border-b border-slate-200">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-4 sm:px-6">
          <Wordmark appName={appName} />
          <nav aria-label="Account" className="flex items-center gap-2 sm:gap-3">
            <Link to="/auth" className="rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
              Sign in
            </Link>
            <Link to="/auth?mode=signup" className="rounded-md bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700">
              Sign up
            </Link>
          </nav>
        </div>
      </header>
      <div className="flex-1">{children}</div>
      <footer className="border-t border-slate-200 bg-slate-50">
        <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p>
            © {new Date().getUTCFullYear()} {appName}. Empowering creators worldwide.
          </p>
          <nav aria-label="Legal" className="flex flex-wrap gap-x-4 gap-y-2">
            <Link className="hover:text-slate-900 hover:underline" to="/terms-of-service">
              Terms of Service
            </Link>
            <Link className="hover:text-slate-900 hover:underline" to="/privacy-policy">
              Privacy Policy
            </Link>
            <Link className="hover:text-slate-900 hover:underline" to="/music-partner-terms">
              Music Partner Terms
            </Link>
            <Link className="hover:text-slate-900 hover:underline" to="/music-signup">
              For music partners
            </Link>
          </nav>
        </div>
      </footer>
    </div>
  );
}
