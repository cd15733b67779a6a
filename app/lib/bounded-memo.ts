/**
 * A per-isolate memory of values that never change for their key and are asked for on every
 * request (a track's waveform): `remember(key, make)` gives the value made for `key`, making it
 * once. At most `max` keys: when full, the oldest key goes first.
 */
export function boundedMemo<V>(max: number): (key: string, make: () => V) => V {
  const made = new Map<string, V>();
  return (key, make) => {
    const known = made.get(key);
    if (known !== undefined) return known;
    const value = make();
    if (made.size >= max) made.delete(made.keys().next().value as string);
    made.set(key, value);
    return value;
  };
}
