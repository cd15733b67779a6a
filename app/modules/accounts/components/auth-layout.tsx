import type { ReactNode } from "react";
import { Link } from "react-router";
import { useAppName } from "~/components/public-layout";

/** The sign-in layout: wordmark (to /) with the tagline, and a centred card. */
export function AuthLayout({
  title,
  subtitle,
  footer,
  children,
  banner,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  footer?: ReactNode;
  children: ReactNode;
  banner?: ReactNode;
}) {
  const appName = useAppName();
  return (
    <div className="flex min-h-screen flex-col items-center bg-gradient-to-b from-brand-50 to-slate-50 px-4 py-8 sm:py-12">
      <Link to="/" className="flex flex-col items-center gap-1 text-center" aria-label={`${appName} home`}>
        <span className="inline-flex items-center gap-2">
          <span aria-hidden="true" className="inline-flex h-9 w-9 items-center justify-center rounded-lg bg-brand-600 text-base font-black text-white">
            {appName.slice(0, 1).toUpperCase()}
          </span>
          <span className="text-2xl font-extrabold tracking-tight text-slate-900">{appName}</span>
        </span>
        <span className="text-sm text-slate-600">Empowering creators worldwide</span>
      </Link>
      <main className="mt-6 w-full max-w-lg">
        {banner}
        <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <h1 className="text-center text-2xl font-bold text-slate-900">{title}</h1>
          {subtitle ? <p className="mt-1 text-center text-slate-600">{subtitle}</p> : null}
          <div className="mt-6">{children}</div>
        </div>
        {footer ? <div className="mt-4 text-center text-sm text-slate-600">{footer}</div> : null}
      </main>
    </div>
  );
}

/** The footer link of the screens off the sign-in path (forgot password, reset, admin recovery). */
export function BackToSignIn({ className = "font-semibold text-brand-700 hover:underline" }: { className?: string }) {
  return (
    <Link to="/auth" className={className}>
      Back to sign in
    </Link>
  );
}
