import { Link } from "react-router";

/** The product wordmark; always links home (spec: the sign-in layout's wordmark goes to /). */
export function Wordmark({ appName, className = "" }: { appName: string; className?: string }) {
  return (
    <Link to="/" className={`inline-flex items-center gap-2 font-bold tracking-tight text-slate-900 ${className}`}>
      <span aria-hidden="true" className="inline-flex h-8 w-8 items-center justify-center rounded-lg bg-brand-600 text-sm font-black text-white">
        {appName.slice(0, 1).toUpperCase()}
      </span>
      <span className="text-xl">{appName}</span>
    </Link>
  );
}
