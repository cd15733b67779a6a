import { data } from "react-router";
import type { z } from "zod";
import { type ActionFailure, DEFAULT_TITLE, DomainError } from "~/lib/errors";
import { echoValues, fieldErrorsOf, formToObject } from "~/lib/forms";

// The HTTP edge of every domain: the only code that reads a request body (`readForm`), the one
// place a `DomainError` becomes an answer (`domainAction`, `domainLoader`, `errorResponse`).
// See docs/how-a-request-flows.md.

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/** The intent and text values of the last form read from a request, for the failure answer. */
const submitted = new WeakMap<Request, { intent?: string; values: Record<string, string> }>();

/**
 * Reads a form body. Anything that is not a form (JSON, text, no body) is 415; a form that cannot
 * be read (broken multipart, truncated body) is 400. Nothing has changed when either is thrown.
 */
export async function readForm(request: Request): Promise<FormData> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (!FORM_TYPES.has(type)) {
    throw new DomainError("unsupported_media_type", "Send this form from the page.", {
      title: "Unsupported content type",
    });
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new DomainError("invalid_input", "The form could not be read. Please try again.", { title: "Invalid form" });
  }
  const intent = form.get("intent");
  submitted.set(request, {
    intent: typeof intent === "string" ? intent : undefined,
    values: echoValues(formToObject(form)),
  });
  return form;
}

/** Validates a form already read against its zod schema: 400 with per-field messages otherwise. */
export function parseFields<S extends z.ZodType>(form: FormData, schema: S): z.output<S> {
  const raw = formToObject(form);
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const fieldErrors = fieldErrorsOf(parsed.error);
  const first = Object.values(fieldErrors)[0] ?? "Please check the form.";
  throw new DomainError("invalid_input", first, { fieldErrors });
}

/** `readForm` then `parseFields`: the usual first line of an action after its guard. */
export async function parseForm<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  return parseFields(await readForm(request), schema);
}

type Titles = string | Partial<Record<string, string>>;

/** The answer an action gives for a DomainError: its status, the toast, field errors, values. */
export function failure(request: Request | null, error: DomainError, titles?: Titles) {
  const form = request ? submitted.get(request) : undefined;
  const intent = form?.intent;
  const routeTitle = typeof titles === "string" ? titles : intent ? titles?.[intent] : undefined;
  const body: ActionFailure = {
    ok: false,
    code: error.code,
    intent,
    toast: { title: error.title ?? routeTitle ?? DEFAULT_TITLE[error.code], description: error.message },
    errors: error.fieldErrors,
    values: form?.values,
    details: error.details,
  };
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  if (error.retryAfterSeconds) headers.set("Retry-After", String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
  return data(body, { status: error.status, headers });
}

/**
 * Wraps a route action: a thrown DomainError becomes `failure(...)` (the component reads it with
 * useActionData); redirects and other Responses pass through; anything else is unexpected and
 * reaches the error boundary (logged with the request id by entry.server's handleError).
 * `titles` names the toast title per form intent (or one for all).
 */
export function domainAction<A extends { request: Request }, R>(fn: (args: A) => Promise<R>, titles?: Titles) {
  return onDomainError(fn, (error, args) => failure(args.request, error, titles));
}

/** Runs `fn`; a DomainError it throws is handed to `handle` (which answers or throws), anything else is rethrown. */
function onDomainError<A, R, F>(fn: (args: A) => Promise<R>, handle: (error: DomainError, args: A) => F) {
  return async (args: A): Promise<R | F> => {
    try {
      return await fn(args);
    } catch (error) {
      if (error instanceof DomainError) return handle(error, args);
      throw error;
    }
  };
}

/** Wraps a loader: a DomainError becomes a thrown route error response (403/404/...) for the boundary. */
export function domainLoader<A extends { request: Request }, R>(fn: (args: A) => Promise<R>) {
  return onDomainError(fn, (error): never => {
    throw errorResponse(error);
  });
}

/** A DomainError as a JSON Response, for resource routes (APIs, sockets, downloads). */
export function errorResponse(error: DomainError): Response {
  const headers = new Headers({ "Content-Type": "application/json", "Cache-Control": "private, no-store" });
  if (error.retryAfterSeconds) headers.set("Retry-After", String(Math.max(1, Math.ceil(error.retryAfterSeconds))));
  return new Response(JSON.stringify({ ok: false, code: error.code, error: error.message, errors: error.fieldErrors }), {
    status: error.status,
    headers,
  });
}

/** Wraps a resource-route handler: DomainError → JSON answer with its status. */
export function domainResource<A, R>(fn: (args: A) => Promise<R>) {
  return onDomainError(fn, errorResponse);
}
