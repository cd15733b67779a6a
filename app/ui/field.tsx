import { type InputHTMLAttributes, type ReactNode, useId } from "react";

// The labelled form controls (field.tsx, textarea.tsx, select.tsx) share one frame: the label
// above, the hint and the error below, both linked to the control with aria-describedby.

export type Described = { id: string; describedBy: string | undefined; error?: string; hint?: ReactNode };

/** Ids for a control and its hint and error, and the aria-describedby that links them. */
export function useDescribed(error?: string, hint?: ReactNode): Described {
  const id = useId();
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return { id, describedBy, error, hint };
}

/** The control's look; red border when it has an error. */
export const controlClass = (error?: string) =>
  `mt-1 block w-full rounded-md border px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-400 ${error ? "border-red-500" : "border-slate-300"}`;

/** The compact control look of filter bars and dialogs (admin console, agency screens). */
export const inputClass = "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400";

/** Label above, hint and error below, both linked to the control (aria-describedby). */
export function FieldFrame({ d, label, className, children }: { d: Described; label: ReactNode; className?: string; children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={d.id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {d.hint ? (
        <div id={`${d.id}-hint`} className="mt-1 text-xs text-slate-600">
          {d.hint}
        </div>
      ) : null}
      {d.error ? (
        <p id={`${d.id}-error`} className="mt-1 text-sm text-red-700">
          {d.error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled input (the text field) with its error announced and linked (aria-describedby). */
export function Field({
  label,
  name,
  error,
  hint,
  className = "",
  ...input
}: { label: ReactNode; name: string; error?: string; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const d = useDescribed(error, hint);
  return (
    <FieldFrame d={d} label={label} className={className}>
      <input id={d.id} name={name} aria-invalid={error ? true : undefined} aria-describedby={d.describedBy} className={controlClass(error)} {...input} />
    </FieldFrame>
  );
}
