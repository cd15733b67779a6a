import type { z } from "zod";
import { DomainError } from "~/lib/errors";
import { echoValues, fieldErrorsOf, formToObject } from "~/lib/forms";

// The only code that reads a request body. Forms go through `readForm`/`parseForm` (415 for a body
// that is not a form, 400 for one that cannot be read or has bad fields, nothing changed either
// way); the few non-form bodies (browser CSP reports, the stand-in provider's token endpoint)
// through `readText`, which stops at a size cap. tests/unit/architecture.test.ts keeps it so.

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/** The intent and text values of the last form read from a request, for the failure answer. */
const submitted = new WeakMap<Request, { intent?: string; values: Record<string, string> }>();

/**
 * Reads a form body. Anything that is not a form (JSON, text, no body) is 415; a form that cannot
 * be read (broken multipart, truncated body) is 400. Nothing has changed when either is thrown.
 */
export async function readForm(request: Request, limit?: BodyLimit): Promise<FormData> {
  const [mediaType = ""] = (request.headers.get("Content-Type") ?? "").split(";");
  const type = mediaType.trim().toLowerCase();
  if (!FORM_TYPES.has(type)) {
    throw new DomainError("unsupported_media_type", "Send this form from the page.", {
      title: "Unsupported content type",
    });
  }
  let form: FormData;
  try {
    form = await (limit ? capped(request, limit) : request).formData();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    if (limit && error instanceof Error && error.message === TOO_LARGE) throw limit.tooLarge;
    throw new DomainError("invalid_input", "The form could not be read. Please try again.", { title: "Invalid form" });
  }
  const intent = form.get("intent");
  submitted.set(request, {
    intent: typeof intent === "string" ? intent : undefined,
    values: echoValues(formToObject(form)),
  });
  return form;
}

/**
 * A size cap for a form with files (a track upload): a declared Content-Length above `maxBytes`
 * is refused before anything is read, and a body without one stops being read at the cap.
 * `tooLarge` is the answer either way (docs/decisions/0110).
 */
export type BodyLimit = { maxBytes: number; tooLarge: DomainError };

const TOO_LARGE = "body exceeds its cap";

function capped(request: Request, limit: BodyLimit): Request {
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > limit.maxBytes) throw limit.tooLarge;
  if (!request.body || (Number.isFinite(declared) && request.headers.has("Content-Length"))) return request;
  let seen = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > limit.maxBytes) controller.error(new Error(TOO_LARGE));
      else controller.enqueue(chunk);
    },
  });
  return new Request(request.url, { method: request.method, headers: request.headers, body: request.body.pipeThrough(counter) });
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

/** The intent and echoed text values of the form `readForm` read from this request, if any. */
export function submittedForm(request: Request): { intent?: string; values: Record<string, string> } | undefined {
  return submitted.get(request);
}

/**
 * Reads a non-form body as text, at most `maxBytes` (the rest is never read): for bodies whose
 * sender is not our page, such as a browser's CSP violation report.
 */
export async function readText(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value.subarray(0, maxBytes - size));
      size += Math.min(value.byteLength, maxBytes - size);
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Reads to its end a body that the answer left unread (a refusal before parsing: cross-origin,
 * signed out, not allowed). Vite's dev server proxies requests to workerd and turns an answer sent
 * before the body was consumed into its own 500 "fetch failed"; read, the Worker's own answer gets
 * through. The body has been sent anyway, so this costs what receiving it cost (decision 0190).
 */
export async function drainUnreadBody(request: Request): Promise<void> {
  if (request.body && !request.bodyUsed) await request.body.pipeTo(new WritableStream()).catch(() => {});
}
