import type { z } from "zod";
import { DomainError } from "~/lib/errors";
import { parseForm } from "~/platform/body.server";
import { titleForField } from "./schema";

// The account screens pair each field's message with a toast title of its own (spec section 8:
// 'Password requirements not met', 'Invalid email', 'Terms Required', ...). This is parseForm
// with that title on the 400; everything else (415, unreadable form) is parseForm's answer.

export async function parseAccountForm<S extends z.ZodType>(
  request: Request,
  schema: S,
  titleFor: (field: string, message: string) => string = titleForField,
): Promise<z.output<S>> {
  try {
    return await parseForm(request, schema);
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== "invalid_input" || error.title) throw error;
    const [field, message] = Object.entries(error.fieldErrors)[0] ?? [];
    if (!field || message === undefined) throw error;
    throw new DomainError("invalid_input", message, { title: titleFor(field, message), fieldErrors: error.fieldErrors });
  }
}
