import type { FieldErrors } from "~/lib/errors";
import { fieldErrors, signInSchema, signUpSchema } from "~/modules/accounts/schema";

// The browser's instant check of the sign-in and sign-up forms, with the same schemas the action
// uses. auth-form-submit.ts loads this module with import() when a form is first focused or submitted,
// so zod is not part of /auth's first load (docs/decisions/0086).

/** The first message per field, or null when the form may be sent. */
export function authFormErrors(kind: "signin" | "signup", values: Record<string, unknown>): FieldErrors | null {
  const parsed = (kind === "signin" ? signInSchema : signUpSchema).safeParse(values);
  return parsed.success ? null : fieldErrors(parsed.error);
}
