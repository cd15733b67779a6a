/** The shape of a JSON value: its keys and value types, recursively, keys sorted (an array by its first item). */
export function jsonShape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [jsonShape(v[0])] : [];
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.entries(v)
        .map(([k, x]) => [k, jsonShape(x)])
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    );
  return typeof v;
}
