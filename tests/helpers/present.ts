/**
 * With `noUncheckedIndexedAccess` on, `rows[0]`, `list.find(...)`, `map.get(...)` and regex groups are typed
 * `T | undefined`. A test that needs the value states that it must exist: when it doesn't, the failure names
 * what was missing instead of a later "cannot read properties of undefined".
 */
export function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`expected ${what} to be present, got undefined`);
  return value;
}
