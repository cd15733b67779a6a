import { describe, expect, it } from "vitest";
import { boundedMemo } from "~/lib/bounded-memo";

// The per-isolate memory of waveforms (library peaks, drawn paths): made once per key, the oldest
// key forgotten first when full.
describe("boundedMemo", () => {
  it("makes a key's value once, and forgets the oldest key when full", () => {
    const remember = boundedMemo<string>(2);
    let made = 0;
    const value = (key: string) => remember(key, () => `${key}:${++made}`);
    expect(value("a")).toBe("a:1");
    expect(value("a")).toBe("a:1");
    expect(value("b")).toBe("b:2");
    expect(value("c")).toBe("c:3");
    // "a" was the oldest: made again; "c" is still known.
    expect(value("a")).toBe("a:4");
    expect(value("c")).toBe("c:3");
    expect(made).toBe(4);
  });
});
