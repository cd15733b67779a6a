// HTTP Range parsing for the audio preview route (app/lib/http-range.ts, used by serveObject).
import { describe, expect, it } from "vitest";
import { parseRange } from "~/lib/http-range";

describe("parseRange", () => {
  it.each([
    ["bytes=0-9", { offset: 0, length: 10 }],
    ["bytes=90-", { offset: 90, length: 10 }],
    ["bytes=-5", { offset: 95, length: 5 }],
    ["bytes=-500", { offset: 0, length: 100 }],
    ["bytes=50-500", { offset: 50, length: 50 }],
    ["bytes=99-99", { offset: 99, length: 1 }],
    [" bytes=0-0 ", { offset: 0, length: 1 }],
  ])("%s of 100 bytes → %j", (header, expected) => {
    expect(parseRange(header, 100)).toEqual(expected);
  });

  it.each(["bytes=100-", "bytes=100-200", "bytes=-0", "bytes=999999999999999999999-"])("%s of 100 bytes → unsatisfiable (416)", (header) => {
    expect(parseRange(header, 100)).toBe("unsatisfiable");
  });

  it("any range of an empty file is unsatisfiable", () => {
    expect(parseRange("bytes=0-", 0)).toBe("unsatisfiable");
  });

  it.each([
    null,
    "",
    "bytes=0-1,5-6",
    "items=0-5",
    "bytes=-",
    "bytes=abc",
    "bytes=20-10",
    "bytes=1.5-3",
  ])("%j → null: the whole file with 200 (several ranges, other units and malformed headers are ignored)", (header) => {
    expect(parseRange(header, 100)).toBeNull();
  });
});
