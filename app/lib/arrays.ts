// Reading an index that the code's own construction guarantees (two arrays built one entry per
// row, a table sized for its index). A miss is a bug in that construction, so it throws instead of
// carrying `undefined` on as a number: checked at runtime, unlike a `!`.

/** `items[index]`, or an Error naming `what` when the index is out of range. */
export function expectAt<T>(items: readonly T[], index: number, what: string): T {
  const item = items[index];
  if (item === undefined) throw new Error(`${what}: no entry at index ${index} of ${items.length}`);
  return item;
}
