import type { ReactNode } from "react";
import { Link } from "react-router";

/** What a page shows when it has nothing yet: a title, a word of explanation, the next step. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: { to: string; label: string } }) {
  return (
    <section className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center">
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {children ? <div className="mx-auto mt-2 max-w-xl text-slate-600">{children}</div> : null}
      {action ? (
        <Link to={action.to} className="mt-5 inline-block rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white hover:bg-slate-700">
          {action.label}
        </Link>
      ) : null}
    </section>
  );
}
