import type { FormEvent } from "react";
import type { FieldErrors } from "~/lib/errors";
import { authFieldTitle } from "~/modules/accounts/messages";
import { toast } from "~/ui/toaster";
import type { AuthScreenParams } from "./auth-screen";

/** What the sign-in and sign-up forms of the auth screen receive. */
export type FormProps = {
  params: AuthScreenParams;
  errors: FieldErrors;
  setErrors: (e: FieldErrors) => void;
  action?: string;
};

/** The zod check of the forms, loaded on first focus or submit (not on the first load, docs/decisions/0086). */
const loadValidation = () => import("./auth-validation");
export const preloadValidation = () => {
  loadValidation().catch(() => undefined);
};
/** Forms whose current submission has passed the browser's check: React Router sends them. */
const checked = new WeakSet<HTMLFormElement>();

export function validateOnSubmit(e: FormEvent<HTMLFormElement>, kind: "signin" | "signup", setErrors: (e: FieldErrors) => void) {
  const form = e.currentTarget;
  if (checked.delete(form)) return;
  e.preventDefault();
  const submitter = (e.nativeEvent as SubmitEvent).submitter;
  const values = Object.fromEntries(new FormData(form).entries());
  loadValidation()
    .then(({ authFormErrors }) => authFormErrors(kind, values))
    // The check could not load (offline, a new deployment): the server checks the same rules.
    .catch(() => null)
    .then((errs) => {
      const [field, message] = Object.entries(errs ?? {})[0] ?? [];
      if (errs && field !== undefined && message !== undefined) {
        setErrors(errs);
        toast.error(authFieldTitle(kind, field, message), { description: message });
        form.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();
        return;
      }
      setErrors({});
      checked.add(form);
      form.requestSubmit(submitter && form.contains(submitter) ? submitter : undefined);
    });
}
