import type { FormEvent } from "react";
import { validateBeforeSubmit as checkBeforeSubmit } from "~/ui/validate-before-submit";
import type { z } from "zod";
import type { FieldErrors } from "~/lib/errors";
import { agencyFieldTitle } from "~/modules/agencies/messages";

// Form pieces of the agency and music partner sign-up screens.

export { TextArea } from "~/ui/textarea";
export { Checkbox } from "~/modules/accounts/components/account-fields";

/** The shared browser check (app/ui/validate-before-submit.ts), with the agency screens' toast titles. */
export function validateBeforeSubmit(e: FormEvent<HTMLFormElement>, load: () => Promise<z.ZodType[]>, setErrors: (errors: FieldErrors) => void): void {
  checkBeforeSubmit(e, load, setErrors, agencyFieldTitle);
}
