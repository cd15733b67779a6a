// The agreement's dates (spec section 1; docs/decisions/0127, 0128): terms of 12 months from the
// first channel link, notice effective at the end of the first term ending ≥ 90 days later, and the
// part of a month earned when an agreement ends in it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, earnedPart, noticeEndsOn, termOn } from "~/modules/payments/calendar";

describe("terms and notice", () => {
  it("renews every 12 months from the anchor", () => {
    expect(termOn("2025-10-07", "2025-10-07")).toEqual({ currentStart: "2025-10-07", renewsOn: "2026-10-07" });
    expect(termOn("2025-10-07", "2026-10-06")).toEqual({ currentStart: "2025-10-07", renewsOn: "2026-10-07" });
    expect(termOn("2025-10-07", "2026-10-07")).toEqual({ currentStart: "2026-10-07", renewsOn: "2027-10-07" });
  });

  it("a notice takes effect at the end of the first term ending at least 90 days after it", () => {
    // Term 1 ends 2026-10-06. Notice on 2026-07-08 is exactly 90 days before: that term.
    expect(noticeEndsOn("2025-10-07", "2026-07-08")).toBe("2026-10-06");
    // One day later: fewer than 90 days remain, so the next term's end.
    expect(noticeEndsOn("2025-10-07", "2026-07-09")).toBe("2027-10-06");
    // Early in a term: that term's end.
    expect(noticeEndsOn("2025-10-07", "2025-11-01")).toBe("2026-10-06");
    // No term yet (no channel linked): 90 days after the notice.
    expect(noticeEndsOn(null, "2026-01-01")).toBe("2026-04-01");
  });

  it("property: the end is a term's last day, at least 90 and fewer than 90 + 366 days after the notice", () => {
    const day = fc.integer({ min: 0, max: 3650 }).map((n) => addDays("2025-01-01", n));
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 3000 }), (anchor, offset) => {
        const notice = addDays(anchor, offset);
        const ends = noticeEndsOn(anchor, notice);
        expect(ends >= addDays(notice, 90)).toBe(true);
        expect(ends < addDays(notice, 90 + 366)).toBe(true);
        // The next day starts a new term: it is an anniversary of the anchor.
        expect(termOn(anchor, addDays(ends, 1)).currentStart).toBe(addDays(ends, 1));
      }),
    );
  });
});

describe("earnings around the end date", () => {
  it("whole months before, nothing after, the end month pro rata rounded toward zero", () => {
    expect(earnedPart(30000, "2040-05", "2040-06-15")).toEqual({ netCents: 30000, days: null });
    expect(earnedPart(30000, "2040-06", "2040-06-15")).toEqual({ netCents: 15000, days: 15 });
    expect(earnedPart(30000, "2040-07", "2040-06-15")).toEqual({ netCents: 0, days: 0 });
    expect(earnedPart(1000, "2040-07", "2040-07-01")).toEqual({ netCents: 32, days: 1 }); // 1000 × 1/31 = 32.26
    expect(earnedPart(1000, "2040-07", "2040-07-31")).toEqual({ netCents: 1000, days: null });
    expect(earnedPart(1000, "2040-07", null)).toEqual({ netCents: 1000, days: null });
  });

  it("property: the earned part never exceeds the whole and is never negative", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), fc.integer({ min: 1, max: 28 }), (net, d) => {
        const { netCents } = earnedPart(net, "2041-02", `2041-02-${String(d).padStart(2, "0")}`);
        expect(netCents).toBeGreaterThanOrEqual(0);
        expect(netCents).toBeLessThanOrEqual(net);
        expect(netCents).toBe(Math.floor((net * d) / 28));
      }),
    );
  });
});
