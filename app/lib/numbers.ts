// Numbers people type into forms, read only when they are unambiguous (docs/decisions/0203).
// "1234.56" and "1,234.56" are fine (commas, spaces or underscores between groups of three digits);
// "2,50" is refused, never read as 250: a decimal comma (most of Europe) would make an amount 100×
// too high. Pure and client-safe: the forms' zod schemas use it in the browser and on the server.

export type NumberReading =
  | { ok: true; whole: string; fraction: string }
  /** decimalComma: "2,50", "1.234,56"; grouping: commas not between groups of three ("1,00,000"); format: anything else. */
  | { ok: false; problem: "decimalComma" | "grouping" | "format" };

/** Digits, optionally in groups of three split by one kind of separator (',' ' ' '_', no-break spaces). */
const NUMBER = /^(\d+|\d{1,3}(?:([, _\u00a0\u202f])\d{3}(?:\2\d{3})*))(?:\.(\d+))?$/;

/** Reads a non-negative decimal number as typed: its whole digits and its fraction digits. */
export function readNumber(raw: string): NumberReading {
  const v = raw.trim();
  const m = NUMBER.exec(v);
  const digits = m?.[1];
  if (digits !== undefined) return { ok: true, whole: digits.replace(/\D/g, "").replace(/^0+(?=\d)/, ""), fraction: m?.[3] ?? "" };
  // A comma before the last one or two digits, after digits and maybe dots or spaces: a decimal comma.
  if (/^\d[\d.\s\u00a0\u202f]*,\d{1,2}$/.test(v)) return { ok: false, problem: "decimalComma" };
  if (/^[\d,.\s_\u00a0\u202f]+$/.test(v) && v.includes(",")) return { ok: false, problem: "grouping" };
  return { ok: false, problem: "format" };
}

/** An amount in dollars ("12", "12.5", "1,234.50", "$12.50") as whole cents, or why it cannot be read. */
export function readCents(raw: string): { ok: true; cents: number } | { ok: false; problem: "decimalComma" | "grouping" | "format" | "decimals" } {
  const r = readNumber(raw.trim().replace(/^\$\s*/, ""));
  if (!r.ok) return r;
  if (r.fraction.length > 2) return { ok: false, problem: "decimals" };
  if (r.whole.length > 13) return { ok: false, problem: "format" };
  return { ok: true, cents: Number(r.whole) * 100 + Number(r.fraction.padEnd(2, "0")) };
}

/** A whole number ("1250", "1,250,000"), or why it cannot be read. */
export function readWholeNumber(raw: string): { ok: true; value: number } | { ok: false; problem: "decimalComma" | "grouping" | "format" } {
  const r = readNumber(raw);
  if (!r.ok) return r;
  if (r.fraction !== "" || r.whole.length > 15) return { ok: false, problem: "format" };
  return { ok: true, value: Number(r.whole) };
}

/** What a person reads when a number is refused for its commas. */
export const NUMBER_MESSAGES = {
  decimalComma: (label: string) => `${label}: use a dot for decimals, e.g. 2.50.`,
  grouping: (label: string) => `${label}: put commas only between thousands, e.g. 1,250,000.`,
  wholeComma: (label: string) => `${label} must be a whole number: commas only between thousands, e.g. 1,250,000.`,
} as const;
