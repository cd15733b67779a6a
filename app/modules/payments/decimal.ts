// Exact decimal amounts for the revenue files (docs/decisions/0220-revenue-amounts-and-rounding.md).
// Client-safe and pure. A platform's report carries amounts with any number of decimals
// ("0.125", "1.234567"); they are kept exact as an integer numerator over a power of ten (BigInt,
// never a float), summed at full precision and rounded to the cent once, at the end.

/** An exact decimal: `n / 10^s`. Amounts of a revenue file are never negative. */
export type Dec = { n: bigint; s: number };

export const ZERO: Dec = { n: 0n, s: 0 };

const POWERS: bigint[] = [];
export function pow10(s: number): bigint {
  if (s < 64) {
    POWERS[s] ??= 10n ** BigInt(s);
    return POWERS[s];
  }
  return 10n ** BigInt(s);
}

/** a + b, exactly (at the finer of the two scales). */
export function addDec(a: Dec, b: Dec): Dec {
  if (a.s === b.s) return { n: a.n + b.n, s: a.s };
  return a.s > b.s ? { n: a.n + b.n * pow10(a.s - b.s), s: a.s } : { n: a.n * pow10(b.s - a.s) + b.n, s: b.s };
}

/** The same value at scale `s` (s ≥ d.s). */
export function atScale(d: Dec, s: number): bigint {
  return d.s === s ? d.n : d.n * pow10(s - d.s);
}

/** Whole cents, rounding half up (0.005 → 0.01, 0.0049 → 0.00). For non-negative amounts. */
export function centsHalfUp(d: Dec): bigint {
  if (d.s <= 2) return d.n * pow10(2 - d.s);
  const div = pow10(d.s - 2);
  const q = d.n / div;
  return 2n * (d.n % div) >= div ? q + 1n : q;
}

/** Whole cents rounded down (toward zero for non-negative amounts). */
export function centsDown(d: Dec): bigint {
  return d.s <= 2 ? d.n * pow10(2 - d.s) : d.n / pow10(d.s - 2);
}

/** "1234.5678", with at least two decimals and no trailing zeros beyond them; negative values keep their sign. */
export function formatDec(d: Dec): string {
  const negative = d.n < 0n;
  const abs = negative ? -d.n : d.n;
  const s = Math.max(d.s, 2);
  const digits = atScale({ n: abs, s: d.s }, s)
    .toString()
    .padStart(s + 1, "0");
  let frac = digits.slice(digits.length - s);
  while (frac.length > 2 && frac.endsWith("0")) frac = frac.slice(0, -1);
  return `${negative ? "-" : ""}${digits.slice(0, digits.length - s)}.${frac}`;
}

/** a − b (may be negative): the sub-cent remainder of a rounding. */
export function subDec(a: Dec, b: Dec): Dec {
  return addDec(a, { n: -b.n, s: b.s });
}

export const centsToDec = (cents: number | bigint): Dec => ({ n: BigInt(cents), s: 2 });

/**
 * Largest-remainder apportionment (Hamilton's method): `total` whole units shared among parts in
 * proportion to their exact values `parts` (numerators over one common denominator `denominator`).
 * Each part gets its exact value rounded down, and the units left over go one each to the parts
 * with the largest remainders (ties: the earlier part). So the parts add up to `total` exactly and
 * each is its exact value rounded down or up — within one unit of it.
 * Needs sum(parts) / denominator to be within the number of parts of `total` (true when `total`
 * is the rounded sum of the parts, and when it is a rounded share of that sum).
 */
export function apportion(total: bigint, parts: readonly bigint[], denominator: bigint): bigint[] {
  const out = parts.map((p) => p / denominator);
  const left = total - out.reduce((s, v) => s + v, 0n);
  if (left === 0n) return out;
  if (left < 0n || left > BigInt(parts.length)) throw new RangeError(`apportion: ${total} cannot be shared among these ${parts.length} parts`);
  const order = parts.map((p, i) => ({ i, r: p % denominator })).sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  // The `left` parts with the largest remainders get one more unit each.
  const bumped = new Set(order.slice(0, Number(left)).map(({ i }) => i));
  return out.map((v, i) => (bumped.has(i) ? v + 1n : v));
}

/** Cents of each exact part, adding up to `totalCents` exactly (largest remainder over the parts' exact values). */
export function apportionCents(totalCents: bigint, parts: readonly Dec[]): bigint[] {
  if (parts.length === 0) return [];
  const s = Math.max(2, ...parts.map((p) => p.s));
  // A part's value in cents is atScale(p, s) / 10^(s−2).
  return apportion(
    totalCents,
    parts.map((p) => atScale(p, s)),
    pow10(s - 2),
  );
}

// ---------------------------------------------------------------------------------------------
// Reading an amount as a person or a spreadsheet wrote it
// ---------------------------------------------------------------------------------------------

/** The decimal separator of a file: a point ("1,234.56"), or a comma in files from a comma locale ("1.234,56", ';'-separated). */
export type DecimalStyle = "point" | "comma";

export type AmountReading =
  | { ok: true; value: Dec; currency: string | null }
  | { ok: false; problem: "missing" | "negative" | "malformed" | "too_precise" }
  | { ok: false; problem: "currency"; currency: string };

/** Symbols read as a currency; "$" alone is taken as US dollars (the ledger's currency). */
const SYMBOLS: Record<string, string> = { $: "USD", US$: "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW", C$: "CAD", A$: "AUD", R$: "BRL" };
const SYMBOL_PATTERN = /^(US\$|C\$|A\$|R\$|[$€£¥₹₩])/i;
const CODE_PATTERN = /^[A-Z]{3}$/i;
/** At most this many decimals: far beyond any report's precision, and a bound on the work per cell. */
export const MAX_DECIMALS = 30;

/** Takes a leading or trailing currency symbol or ISO code off an amount. */
function splitCurrency(text: string): { rest: string; currency: string | null } | null {
  let rest = text;
  let currency: string | null = null;
  const take = (code: string) => {
    if (currency && currency !== code) return false;
    currency = code;
    return true;
  };
  const lead = /^([A-Za-z]{3})\s*(?=[-(\d.,$€£¥₹₩])/.exec(rest);
  const leadCode = lead?.[1];
  if (lead && leadCode && CODE_PATTERN.test(leadCode)) {
    if (!take(leadCode.toUpperCase())) return null;
    rest = rest.slice(lead[0].length);
  }
  const trail = /(?<=[\d.,)])\s*([A-Za-z]{3})$/.exec(rest);
  const trailCode = trail?.[1];
  if (trail && trailCode) {
    if (!take(trailCode.toUpperCase())) return null;
    rest = rest.slice(0, rest.length - trail[0].length);
  }
  // A symbol before or after the sign ("$-1.00", "-$1.00"), or after the number ("5 €").
  const symbolAt = (s: string) => SYMBOL_PATTERN.exec(s)?.[1];
  const signed = /^([-+(]?)\s*(.*)$/.exec(rest);
  if (signed) {
    const [, sign = "", body = ""] = signed;
    const sym = symbolAt(body);
    if (sym) {
      if (!take(SYMBOLS[sym.toUpperCase()] ?? SYMBOLS[sym] ?? "USD")) return null;
      rest = `${sign}${body.slice(sym.length).trimStart()}`;
    }
  }
  const tailSym = /\s*([$€£¥₹₩])$/.exec(rest);
  const tailCode = SYMBOLS[tailSym?.[1] ?? ""];
  if (tailSym && tailCode) {
    if (!take(tailCode)) return null;
    rest = rest.slice(0, rest.length - tailSym[0].length);
  }
  return { rest: rest.trim(), currency };
}

/** "1,234,567" with `sep`: groups of three after a first group of 1–3 digits that is not a bare leading zero. */
function isGrouped(text: string, sep: string): boolean {
  const parts = text.split(sep);
  if (parts.length < 2) return false;
  const [first = "", ...rest] = parts;
  return /^[1-9]\d{0,2}$/.test(first) && rest.every((p) => /^\d{3}$/.test(p));
}

/**
 * Reads an amount: any number of decimals, thousands separators (",", ".", spaces, "'"), a leading
 * or trailing currency symbol or ISO code. "7.5", "8", "0.125", "1,234.56", "$9.99", "9.99 USD",
 * "1.234,56" (comma style). Negative amounts ("-1.00", "(1.00)", "$-1") are reported as such; an
 * exponent ("1e3") or stray characters are malformed. Never a float.
 */
const PLAIN = /^(\d{1,30})(?:\.(\d{1,30}))?$/;

export function parseAmount(raw: string, style: DecimalStyle = "point"): AmountReading {
  // The common case first: plain digits with a point ("12.34", "0.125000"), as most files write them.
  const plain = style === "point" ? PLAIN.exec(raw) : null;
  if (plain) {
    const frac = plain[2] ?? "";
    return { ok: true, value: { n: BigInt(plain[1] + frac), s: frac.length }, currency: null };
  }
  let text = raw.replace(/[\u00a0\u202f\u2009]/g, " ").trim();
  if (text === "") return { ok: false, problem: "missing" };
  if (text.length > 64) return { ok: false, problem: "malformed" };
  const split = splitCurrency(text);
  if (!split) return { ok: false, problem: "malformed" };
  const { currency } = split;
  text = split.rest;
  if (/^-|^\(.*\)$|-$/.test(text)) return { ok: false, problem: "negative" };
  if (text.startsWith("+")) text = text.slice(1).trimStart();
  // Thousands written with spaces or apostrophes ("1 234,56", "1'234.56").
  text = text.replace(/(?<=\d)[ '’](?=\d{3}(\D|$))/g, "");
  if (!/^[\d.,]+$/.test(text) || !/\d/.test(text)) return { ok: false, problem: "malformed" };

  const decimalSep = style === "point" ? "." : ",";
  const groupSep = style === "point" ? "," : ".";
  let intPart: string;
  let fracPart = "";
  const hasPoint = text.includes(".");
  const hasComma = text.includes(",");
  if (hasPoint && hasComma) {
    // Both: the last one is the decimal separator, the other groups thousands.
    const dec = text.lastIndexOf(".") > text.lastIndexOf(",") ? "." : ",";
    const group = dec === "." ? "," : ".";
    const at = text.lastIndexOf(dec);
    intPart = text.slice(0, at);
    fracPart = text.slice(at + 1);
    if (intPart.includes(dec) || !isGrouped(intPart, group)) return { ok: false, problem: "malformed" };
    intPart = intPart.split(group).join("");
  } else if (hasPoint || hasComma) {
    const sep = hasPoint ? "." : ",";
    const count = text.split(sep).length - 1;
    if (sep === groupSep && isGrouped(text, sep)) {
      intPart = text.split(sep).join("");
    } else if (count === 1) {
      // The file's decimal separator, or the other one where it cannot be grouping ("7,5" in a point file).
      const [whole = "", fraction = ""] = text.split(sep); // count === 1: exactly two parts
      intPart = whole;
      fracPart = fraction;
    } else if (sep === decimalSep && isGrouped(text, sep)) {
      // "1.234.567" in a point file: only a comma-locale grouping reads that way.
      intPart = text.split(sep).join("");
    } else {
      return { ok: false, problem: "malformed" };
    }
  } else {
    intPart = text;
  }
  if (!/^\d*$/.test(intPart) || !/^\d*$/.test(fracPart) || intPart.length + fracPart.length === 0) return { ok: false, problem: "malformed" };
  if (fracPart.length > MAX_DECIMALS) return { ok: false, problem: "too_precise" };
  if (currency && currency !== "USD") return { ok: false, problem: "currency", currency };
  return { ok: true, value: { n: BigInt(`${intPart || "0"}${fracPart}`), s: fracPart.length }, currency };
}
