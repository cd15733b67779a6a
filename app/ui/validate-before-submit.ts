import type { FormEvent } from "react";
import type { z } from "zod";
import type { FieldErrors } from "~/lib/errors";
import { toast } from "~/ui/toaster";

/** Forms whose current submission has passed the browser's check: React Router sends them. */
const checked = new WeakSet<HTMLFormElement>();

/**
 * Instant feedback in the browser with the server's own schemas: on a problem, the submit is
 * stopped, the errors shown, the first field focused. The server checks again regardless.
 * `load` imports the schemas on first submit, so zod is not on the page's first load
 * (docs/decisions/0086); if they cannot load, the form goes to the server, which checks the same.
 * `titleOf` names the toast of the first problem.
 */
export function validateBeforeSubmit(
  e: FormEvent<HTMLFormElement>,
  load: () => Promise<z.ZodType[]>,
  setErrors: (errors: FieldErrors) => void,
  titleOf: (field: string, message: string) => string = () => "Please check the form",
): void {
  const form = e.currentTarget;
  if (checked.delete(form)) return;
  e.preventDefault();
  const submitter = (e.nativeEvent as SubmitEvent).submitter;
  const values = Object.fromEntries(new FormData(form).entries());
  Promise.all([load(), import("~/lib/forms")])
    .then(([schemas, { fieldErrorsOf }]) => {
      const errors: FieldErrors = {};
      for (const schema of schemas) {
        const parsed = schema.safeParse(values);
        if (!parsed.success) Object.assign(errors, { ...fieldErrorsOf(parsed.error), ...errors });
      }
      return errors;
    })
    .catch((): FieldErrors => ({}))
    .then((errors) => {
      setErrors(errors);
      const first = Object.entries(errors)[0];
      if (!first) {
        checked.add(form);
        form.requestSubmit(submitter && form.contains(submitter) ? submitter : undefined);
        return;
      }
      toast.error(titleOf(first[0], first[1]), { description: first[1] });
      form.querySelector<HTMLElement>(`[name="${first[0]}"]`)?.focus();
    });
}
