import type { ReactNode } from "react";

/** A page section named by its own `<h2>` (aria-labelledby points at the heading's `id`). */
export function Section({
  id,
  title,
  className,
  headingClassName = "text-lg font-semibold text-slate-900",
  children,
}: {
  id: string;
  title: ReactNode;
  className?: string;
  headingClassName?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <h2 id={id} className={headingClassName}>
        {title}
      </h2>
      {children}
    </section>
  );
}
