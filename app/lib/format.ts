// Number formatting made once per isolate. `n.toLocaleString("en-US")` builds a new Intl formatter
// on every call, which showed in the Worker's profile of list pages (issue 12); these are the
// same output.

const COUNT = new Intl.NumberFormat("en-US");

/** 1234567 → "1,234,567". */
export function formatCount(n: number): string {
  return COUNT.format(n);
}
