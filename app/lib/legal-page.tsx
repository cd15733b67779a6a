import type { ReactNode } from "react";
import { PublicLayout } from "~/components/public-layout";
import { AGREEMENT_EFFECTIVE_DATE } from "~/lib/agreements";

// The frame of the three legal pages (terms of service, privacy policy, music partner terms): the
// public layout, the `.prose-legal` column, the h1 and the effective date.

/** The class of a link inside a legal text. */
export const legalLinkClass = "font-medium text-brand-600 underline underline-offset-2 hover:text-brand-700";

/** A legal page's title and search description. */
export function legalMeta(title: string, description: string) {
  return [{ title: `${title} | Shortbeat` }, { name: "description", content: description }];
}

/** `effective`: the page's own effective date when it changed after the agreements' (the privacy policy, issue 28). */
export function LegalPage({ title, effective = AGREEMENT_EFFECTIVE_DATE, children }: { title: string; effective?: string; children: ReactNode }) {
  return (
    <PublicLayout>
      <main className="mx-auto max-w-3xl px-4 py-10 sm:px-6 prose-legal">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
        <p className="mt-2 text-sm text-slate-600">{`Effective ${effective}`}</p>
        {children}
      </main>
    </PublicLayout>
  );
}

/** The table of contents: one link per section, `[id, label]`. */
export function LegalContents({ items }: { items: [id: string, label: string][] }) {
  return (
    <nav aria-label="Contents" className="mt-6 rounded-lg border border-slate-200 bg-slate-50 p-4">
      <p className="font-semibold text-slate-900">Contents</p>
      <ol>
        {items.map(([id, label]) => (
          <li key={id}>
            <a href={`#${id}`} className={legalLinkClass}>
              {label}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** A numbered section of a legal text, named by its heading (`<id>-title`) and a target of the contents. */
export function LegalSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-6">
      <h2 id={`${id}-title`}>{title}</h2>
      {children}
    </section>
  );
}
