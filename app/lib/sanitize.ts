import { SANITIZER_CAP } from "./constants";

// The two sanitizers of spec section 5.

/** NUL and other control characters (tab, line feed and carriage return are text). */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

export function hasControlCharacters(input: string): boolean {
  return /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(input);
}

function sanitizeOnce(input: string): string {
  return input
    .replace(CONTROL, "")
    .replace(/[<>]/g, "")
    .replace(/javascript\s*:/gi, "")
    .replace(/vbscript\s*:/gi, "")
    .replace(/data\s*:\s*text\/html/gi, "")
    .replace(/\bon[a-z]+\s*=/gi, "");
}

/**
 * Removes control characters, angle brackets, script-style scheme prefixes and inline
 * event-handler patterns, repeated until nothing changes: one pass would turn
 * `javajavascript:script:` into `javascript:`.
 */
export function sanitizeText(input: string): string {
  let current = input;
  for (let i = 0; i < 100; i++) {
    const next = sanitizeOnce(current);
    if (next === current) return next;
    current = next;
  }
  // Each pass that changes something makes the string shorter, so this is never reached for
  // inputs under 100 removals deep; refuse to return anything half-cleaned.
  return "";
}

/**
 * Every control character (C0 including tab, line feed and carriage return, DEL, C1) and the
 * Unicode line and paragraph separators: none of them belongs in one line of text.
 */
const LINE_BREAKING = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;
const LINE_BREAKING_RUN = /[\s\u0000-\u001F\u007F-\u009F\u2028\u2029]*[\u0000-\u001F\u007F-\u009F\u2028\u2029][\s\u0000-\u001F\u007F-\u009F\u2028\u2029]*/g;

/**
 * Text as one line (docs/decisions/0287): each run of control characters (line breaks and tabs
 * included) and the spaces around it becomes one space; trimmed. For names and titles where they
 * are stored, for what a person typed when it goes into an e-mail, and for every header value.
 */
export function oneLine(input: string): string {
  return LINE_BREAKING.test(input) ? input.replace(LINE_BREAKING_RUN, " ").trim() : input.trim();
}

/** A name or title as stored (docs/decisions/0287): the basic sanitizer, then one line of text. */
export function sanitizeLine(input: string): string {
  return oneLine(sanitizeText(input));
}

export type StrictResult = { ok: true; value: string } | { ok: false; reason: "pattern_mismatch" };

/**
 * The stricter sanitizer: also removes every scheme prefix and every character other than word
 * characters, whitespace and @ . , ! ? -; trims; truncates to 1000 characters; and when patterns
 * are supplied requires at least one to match (the caller logs INVALID_INPUT_REJECTED otherwise).
 */
export function sanitizeStrict(input: string, patterns?: RegExp[]): StrictResult {
  const value = sanitizeText(input)
    .replace(/\b[a-z][a-z0-9+.-]*:\/\//gi, "")
    .replace(/\b(?:javascript|vbscript|data|file|about|blob)\s*:/gi, "")
    .replace(/[^\w\s@.,!?-]/g, "")
    .trim()
    .slice(0, SANITIZER_CAP);
  if (patterns && patterns.length > 0 && !patterns.some((p) => p.test(value))) {
    return { ok: false, reason: "pattern_mismatch" };
  }
  return { ok: true, value };
}

/** The spec's length check: 'Input too long' / '{label} must be {max} characters or less.' */
export function checkLength(value: string, max: number, label: string): { title: string; description: string } | null {
  if (value.length <= max) return null;
  return { title: "Input too long", description: `${label} must be ${max} characters or less.` };
}
