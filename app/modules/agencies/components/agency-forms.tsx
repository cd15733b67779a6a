import { useId, type FormEvent } from "react";
import { toast } from "sonner";
import type { z } from "zod";
import type { FieldErrors } from "~/lib/errors";
import { fieldErrorsOf } from "~/lib/forms";
import { agencyFieldTitle } from "~/modules/agencies/schema";

// Form pieces of the agency and music partner sign-up screens.

export { TextArea } from "~/components/forms";

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
    if (!parsed.success) Object.assign(errors, { ...fieldErrorsOf(parsed.error), ...errors });
  }
  setErrors(errors);
  const first = Object.entries(errors)[0];
  if (!first) return true;
  e.preventDefault();
  toast.error(agencyFieldTitle(first[0], first[1]), { description: first[1] });
  e.currentTarget.querySelector<HTMLElement>(`[name="${first[0]}"]`)?.focus();
  return false;
}
