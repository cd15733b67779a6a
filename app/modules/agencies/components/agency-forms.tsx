import type { FormEvent } from "react";
import { toast } from "sonner";
import type { z } from "zod";
import type { FieldErrors } from "~/lib/errors";
import { fieldErrorsOf } from "~/lib/forms";
import { agencyFieldTitle } from "~/modules/agencies/schema";

// Form pieces of the agency and music partner sign-up screens.

export { TextArea } from "~/ui/textarea";
export { Checkbox } from "~/modules/accounts/components/account-fields";

/**
 * Instant feedback in the browser with the server's own schemas: on a problem, the submit is
 * stopped, the errors shown, the first field focused. The server checks again regardless.
 */
export function validateBeforeSubmit(e: FormEvent<HTMLFormElement>, schemas: z.ZodType[], setErrors: (errors: FieldErrors) => void): boolean {
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
