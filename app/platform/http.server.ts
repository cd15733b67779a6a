import { data } from "react-router";
import { type ActionFailure, DEFAULT_TITLE, DomainError } from "~/lib/errors";
import { submittedForm } from "./body.server";

// The one place a `DomainError` becomes an answer (`domainAction`, `domainLoader`,
// `domainResource`). Request bodies are read only by ./body.server.ts. See
// docs/how-a-request-flows.md.

type Titles = string | Partial<Record<string, string>>;

/** The answer an action gives for a DomainError: its status, the toast, field errors, values. */
export function failure(request: Request | null, error: DomainError, titles?: Titles) {
  const form = request ? submittedForm(request) : undefined;
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
