import { devToolsEnabled } from "./env.server";

// What a failed send means and when the outbox tries again (email-delivery.server.ts sends): the
// service's permanent refusals, the account's refusals (quota, sender) that pause sending, the
// backoff between attempts.
//
// The binding throws "standard Error objects with a `code` property"; the codes are the Workers API
// table: https://developers.cloudflare.com/email-service/api/send-emails/workers-api/ (read 2026-12-06).

export const MAX_ATTEMPTS = 5;
/** The wait after the n-th failed attempt (n = 1 … MAX_ATTEMPTS - 1). */
export const BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const;
/** The service's refusals that another try cannot change (the Workers API's error codes). */
const PERMANENT_CODES = new Set([
  "E_VALIDATION_ERROR",
  "E_FIELD_MISSING",
  "E_TOO_MANY_RECIPIENTS",
  "E_RECIPIENT_NOT_ALLOWED",
  "E_RECIPIENT_SUPPRESSED",
  "E_CONTENT_TOO_LARGE",
  "E_HEADER_NOT_ALLOWED",
  "E_HEADER_USE_API_FIELD",
  "E_HEADER_VALUE_INVALID",
  "E_HEADER_VALUE_TOO_LONG",
  "E_HEADER_NAME_INVALID",
  "E_HEADERS_TOO_LARGE",
  "E_HEADERS_TOO_MANY",
]);

/**
 * Refusals that are about the account, not the message: another try of the same row before the
 * operator (or the clock) fixes it is wasted. E_DAILY_LIMIT_EXCEEDED: "Daily sending quota reached";
 * E_SENDER_NOT_VERIFIED: "Attempting to send from unverified domain"; E_SENDER_DOMAIN_NOT_AVAILABLE:
 * "Domain not onboarded to Email Service" (the Workers API table above).
 */
export const QUOTA_CODE = "E_DAILY_LIMIT_EXCEEDED";
export const SENDER_CODES = new Set(["E_SENDER_NOT_VERIFIED", "E_SENDER_DOMAIN_NOT_AVAILABLE"]);
/** How long sending waits after a sender refusal before one row tries again (the operator may have fixed it). */
export const SENDER_PAUSE_MS = 30 * 60_000;
/** Optional mail without an https APP_ORIGIN: not sent, and why (List-Unsubscribe needs an https link, RFC 8058). */
export const NO_HTTPS_ORIGIN = "Not sent: optional e-mail needs APP_ORIGIN to be an https:// origin for its one-click unsubscribe link (List-Unsubscribe).";

export type SendFailure = { code: string | null; message: string; permanent: boolean };

/**
 * When the daily quota is back. Cloudflare's limits page says "daily" without naming the hour
 * (https://developers.cloudflare.com/email-service/platform/limits/, read 2026-12-06): we take the
 * next 00:00 UTC, plus a minute; a row that is refused again simply waits for the next one.
 */
export function quotaResetAfter(now: number): string {
  const d = new Date(now);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1, 0, 1)).toISOString();
}

/**
 * Whether optional mail (with its unsubscribe link) may leave from this origin: https, or — with the
 * development tools on — a loopback origin, whose mail only ever reaches the local mailbox.
 */
export function originAllowsOptionalMail(origin: string, local = devToolsEnabled()): boolean {
  if (origin.startsWith("https://")) return true;
  return local && /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(origin);
}

/** What a thrown send error means: its code (the binding's `code` property), a short message, and whether to try again. */
export function classifySendError(error: unknown): SendFailure {
  const code = typeof (error as { code?: unknown })?.code === "string" ? (error as { code: string }).code : null;
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 300);
  return { code, message, permanent: code !== null && PERMANENT_CODES.has(code) };
}

/** When a row that failed its `attempts`-th try is tried again, or null: it has failed for good. */
export function nextAttemptAfter(attempts: number, failure: SendFailure, now: number): string | null {
  if (failure.permanent || attempts >= MAX_ATTEMPTS) return null;
  const delay = BACKOFF_MS[Math.min(attempts, BACKOFF_MS.length) - 1];
  if (delay === undefined) throw new RangeError(`nextAttemptAfter: attempt ${attempts} (the first try is attempt 1)`);
  return new Date(now + delay).toISOString();
}
