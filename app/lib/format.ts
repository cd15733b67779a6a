// Number formatting, with its formatter made once per isolate: `n.toLocaleString("en-US")` builds
// a new Intl formatter on every call, which showed in the Worker's profile of list pages (issue 12).

const COUNT = new Intl.NumberFormat("en-US");

/** 1234567 → "1,234,567"; no number → "—". */
export function formatCount(n: number | null | undefined): string {
  return n === null || n === undefined ? "—" : COUNT.format(n);
}

/** A count with its noun: "1 statement line", "1,200 statement lines"; `plural` for a noun not made with "s". */
export function countOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${COUNT.format(n)} ${n === 1 ? noun : plural}`;
}
