// The one failure shape of the whole app (client-safe: components read `ActionFailure`).
// Modules throw `DomainError`; `app/platform/http.server.ts` turns it into the HTTP answer in one
// place. See docs/how-a-request-flows.md.

export type ErrorCode =
  | "invalid_input" // 400: a field or the form is wrong; `fieldErrors` says which
  | "unauthenticated" // 401: no session (resource routes; pages redirect instead)
  | "forbidden" // 403: signed in, but this actor may not do this
  | "not_found" // 404: no such thing, or not this actor's to see (never reveal which)
  | "conflict" // 409: the state changed under the request (already decided, duplicate)
  | "unsupported_media_type" // 415: the body is not a form
  | "rate_limited" // 429: with Retry-After
  | "unavailable"; // 503: a dependency (provider, configuration) is missing

export const STATUS_OF: Record<ErrorCode, number> = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
};

/** Toast titles when neither the module nor the route names one. */
export const DEFAULT_TITLE: Record<ErrorCode, string> = {
  invalid_input: "Please check the form",
  unauthenticated: "User not authenticated",
  forbidden: "Access Denied",
  not_found: "Not found",
  conflict: "Action failed",
  unsupported_media_type: "Action failed",
  rate_limited: "Rate limit exceeded",
  unavailable: "Action failed",
};

export type FieldErrors = Record<string, string>;

export type DomainErrorOptions = {
  /** Toast title; the route's per-intent title or the code's default otherwise. */
  title?: string;
  fieldErrors?: FieldErrors;
  /** For 429: seconds until the next attempt is allowed. */
  retryAfterSeconds?: number;
  /** Extra facts the screen needs (e.g. `reconnect: true`); never secrets. */
  details?: Record<string, string | number | boolean | null>;
};

/** A failure to show the user: `message` is what they read (the toast's description). */
export class DomainError extends Error {
  readonly status: number;
  readonly title?: string;
  readonly fieldErrors: FieldErrors;
  readonly retryAfterSeconds?: number;
  readonly details?: DomainErrorOptions["details"];

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: DomainErrorOptions = {},
  ) {
    super(message);
    this.name = "DomainError";
    this.status = STATUS_OF[code];
    this.title = options.title;
    this.fieldErrors = options.fieldErrors ?? {};
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.details = options.details;
  }
}

export const invalid = (message: string, options?: DomainErrorOptions) => new DomainError("invalid_input", message, options);
export const forbidden = (message = "Admin privileges required to access this area.", options?: DomainErrorOptions) =>
  new DomainError("forbidden", message, options);
export const notFound = (message: string, options?: DomainErrorOptions) => new DomainError("not_found", message, options);
export const conflict = (message: string, options?: DomainErrorOptions) => new DomainError("conflict", message, options);
export const rateLimited = (retryAfterSeconds: number, message = "Please wait before trying again.", title = "Rate limit exceeded") =>
  new DomainError("rate_limited", message, { title, retryAfterSeconds });

/** What an action returns when it refuses: the component shows `toast` and `errors`. */
export type ActionFailure = {
  ok: false;
  code: ErrorCode;
  /** The form's `intent`, when the page has several forms. */
  intent?: string;
  toast: { title: string; description: string };
  /** Per-field messages, keyed by field name. */
  errors: FieldErrors;
  /** The submitted text values (never passwords, tokens or files), to refill the form. */
  values?: Record<string, string>;
  details?: DomainErrorOptions["details"];
};

export function isActionFailure(value: unknown): value is ActionFailure {
  return typeof value === "object" && value !== null && (value as { ok?: unknown }).ok === false && "toast" in value;
}
