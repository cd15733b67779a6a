// Splitting never creates or loses a cent (issue 14): property tests over random amounts and shares,
// and the rounding rule of docs/decisions/0120 on fixed cases.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatBp, percentToBp, split, WHOLE_BP } from "~/lib/split";

const cents = fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 });
const share = fc.integer({ min: 0, max: WHOLE_BP });

describe("split", () => {
  it("the parts always add up to the whole", () => {
    fc.assert(
      fc.property(cents, share, (total, bp) => {
        const { share: s, rest } = split(total, bp);
        expect(Number.isSafeInteger(s) && Number.isSafeInteger(rest)).toBe(true);
        expect(s + rest).toBe(total);
      }),
      { numRuns: 5000 },
    );
  });

  it("the share part is the exact product rounded toward zero, never more than a cent from it", () => {
    fc.assert(
      fc.property(cents, share, (total, bp) => {
        const exact = (BigInt(total) * BigInt(bp) * 1000n) / 10_000n; // in thousandths of a cent
        const { share: s } = split(total, bp);
        const diff = exact - BigInt(s) * 1000n;
        expect(diff >= -999n && diff <= 999n).toBe(true);
        expect(Math.abs(s)).toBeLessThanOrEqual(Math.abs(total));
        if (total >= 0) expect(s).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 5000 },
    );
  });

  it("splitting the rest again (creator/platform, then clipper/creator) still adds up", () => {
    fc.assert(
      fc.property(cents, share, share, (total, a, b) => {
        const first = split(total, a);
        const second = split(first.share, b);
        expect(second.share + second.rest + first.rest).toBe(total);
      }),
    );
  });

  it("rounds the share part down and gives the remainder to the other side", () => {
    expect(split(1, 7000)).toEqual({ share: 0, rest: 1 });
    expect(split(999, 7000)).toEqual({ share: 699, rest: 300 });
    expect(split(1000, 7000)).toEqual({ share: 700, rest: 300 });
    expect(split(-999, 7000)).toEqual({ share: -699, rest: -300 });
    expect(split(12345, 10000)).toEqual({ share: 12345, rest: 0 });
    expect(split(12345, 0)).toEqual({ share: 0, rest: 12345 });
  });

  it("refuses fractions of a cent and shares outside 0..100%", () => {
    expect(() => split(1.5, 7000)).toThrow(RangeError);
    expect(() => split(100, 10001)).toThrow(RangeError);
    expect(() => split(100, -1)).toThrow(RangeError);
    expect(() => split(100, 70.5)).toThrow(RangeError);
  });
});

describe("shares in basis points", () => {
  it("converts the whole-percent setting exactly", () => {
    expect(percentToBp(70)).toBe(7000);
    expect(percentToBp(1)).toBe(100);
    expect(percentToBp(100)).toBe(10000);
    expect(() => percentToBp(70.5)).toThrow(RangeError);
    fc.assert(fc.property(fc.integer({ min: 0, max: 100 }), (p) => percentToBp(p) === p * 100 && Number.isInteger(percentToBp(p))));
  });

  it("formats", () => {
    expect(formatBp(7000)).toBe("70%");
    expect(formatBp(7050)).toBe("70.5%");
    expect(formatBp(3333)).toBe("33.33%");
  });
});
