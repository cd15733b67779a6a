import { useId, type FormEvent, type TextareaHTMLAttributes } from "react";
import { toast } from "sonner";
import type { z } from "zod";
import { PASSWORD_RULES, fieldErrors, type FieldErrors } from "~/lib/auth-schemas";
import { agencyFieldTitle } from "~/lib/agency-schemas";

// Form pieces of the agency and music partner sign-up screens.

/** The live checklist of password requirements (spec section 2). */
export function PasswordChecklist({ password }: { password: string }) {
  return (
    <ul aria-label="Password requirements" className="mt-1 grid gap-0.5 sm:grid-cols-2">
      {PASSWORD_RULES.map((rule) => {
        const met = rule.test(password);
        return (
          <li key={rule.id} className={met ? "text-emerald-700" : "text-slate-600"}>
            <span aria-hidden="true">{met ? "✓" : "○"}</span> {rule.label}
            <span className="sr-only">{met ? " (met)" : " (not met)"}</span>
          </li>
        );
      })}
    </ul>
  );
}

export function TextArea({
  label,
  name,
  error,
  hint,
  ...rest
}: { label: string; name: string; error?: string; hint?: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`mt-1 block w-full rounded-md border px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-400 ${
          error ? "border-red-500" : "border-slate-300"
        }`}
        {...rest}
      />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled checkbox with its error linked. */
export function Checkbox({ name, error, children, ...rest }: { name: string; error?: string; children: React.ReactNode } & React.InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="space-y-1">
      <div className="flex items-start gap-2">
        <input
          id={id}
          name={name}
          type="checkbox"
          className="mt-1 h-4 w-4"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...rest}
        />
        <label htmlFor={id} className="text-sm text-slate-700">
          {children}
        </label>
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Instant feedback in the browser with the server's own schemas: on a problem, the submit is
 * stopped, the errors shown, the first field focused. The server checks again regardless.
 */
export function validateBeforeSubmit(
  e: FormEvent<HTMLFormElement>,
  schemas: z.ZodType[],
  setErrors: (errors: FieldErrors) => void,
): boolean {
  const values = Object.fromEntries(new FormData(e.currentTarget).entries());
  const errors: FieldErrors = {};
  for (const schema of schemas) {
    const parsed = schema.safeParse(values);
    if (!parsed.success) Object.assign(errors, { ...fieldErrors(parsed.error), ...errors });
  }
  setErrors(errors);
  const first = Object.entries(errors)[0];
  if (!first) return true;
  e.preventDefault();
  toast.error(agencyFieldTitle(first[0], first[1]), { description: first[1] });
  e.currentTarget.querySelector<HTMLElement>(`[name="${first[0]}"]`)?.focus();
  return false;
}
