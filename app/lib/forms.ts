import { z } from "zod";
// Every schema that parses in the browser comes through this file: zod must not probe `new Function` there.
import "./zod-config";
import type { FieldErrors } from "./errors";

// Client-safe form helpers shared by the browser (instant feedback) and `parseForm` (authority).

/** The first message per field, keyed by the field's path ("email", "items.0.name"). */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".") || "form";
    if (!(key in errors)) errors[key] = issue.message;
  }
  return errors;
}

/**
 * A FormData as a plain object: a name sent once gives its value, a name sent several times an
 * array of values (see `many`). Files stay File objects.
 */
export function formToObject(form: FormData): Record<string, FormDataEntryValue | FormDataEntryValue[]> {
  const out: Record<string, FormDataEntryValue | FormDataEntryValue[]> = {};
  for (const [key, value] of form.entries()) {
    const prev = out[key];
    if (prev === undefined) out[key] = value;
    else out[key] = Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/** A field that may be sent zero, one or several times (checkbox lists, multi-selects). */
export function many<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => (v === undefined || v === null || v === "" ? [] : Array.isArray(v) ? v : [v]), z.array(item));
}

/** A checkbox: present ("on", "true", "1") means ticked. */
export const checkbox = z
  .union([z.string(), z.boolean(), z.null()])
  .optional()
  .transform((v) => v === "on" || v === "true" || v === "1" || v === true);

/** Names whose values are never echoed back to refill a form. */
export const SECRET_FIELD = /password|token|secret|code_verifier/i;

/** The text values of a form worth echoing back (not secrets, not files). */
export function echoValues(raw: Record<string, unknown>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v === "string" && !SECRET_FIELD.test(k)) values[k] = v.slice(0, 2000);
  }
  return values;
}
