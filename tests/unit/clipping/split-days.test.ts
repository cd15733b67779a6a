// The clip split (issue 16, docs/decisions/0150): never creates or loses a cent, applies a split
// only from the UTC day after its confirmation, and shares a month pro rata by UTC days.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bpsAt, daySegments, daysInMonth, splitClipMonth } from "~/modules/clipping/split-days";
import { split } from "~/lib/split";

const month = fc.tuple(fc.integer({ min: 2024, max: 2030 }), fc.integer({ min: 1, max: 12 })).map(([y, m]) => `${y}-${String(m).padStart(2, "0")}`);
const bps = fc.integer({ min: 0, max: 10_000 });
const cents = fc.integer({ min: 0, max: 100_000_000_00 });
/** Changes at random instants from the month before to the month after. */
const changes = (m: string) =>
  fc.array(
    fc.record({
      at: fc
        .integer({ min: Date.UTC(Number(m.slice(0, 4)), Number(m.slice(5)) - 2, 1), max: Date.UTC(Number(m.slice(0, 4)), Number(m.slice(5)) + 1, 1) })
        .map((t) => new Date(t).toISOString()),
      bps,
    }),
    { maxLength: 5 },
  );

describe("splitClipMonth", () => {
  it("clipper + creator is exactly the creator's share of the clip revenue, for every month, split history and amount", () => {
    fc.assert(
      fc.property(
        month.chain((m) => fc.tuple(fc.constant(m), changes(m))),
        cents,
        bps,
        bps,
        ([m, ch], net, creatorShare, initial) => {
          const r = splitClipMonth(net, creatorShare, m, ch, initial);
          expect(r.poolCents).toBe(split(net, creatorShare).share);
          expect(r.clipperCents + r.creatorCents).toBe(r.poolCents);
          expect(r.segments.reduce((s, x) => s + x.poolCents, 0)).toBe(r.poolCents);
          expect(r.clipperCents).toBeGreaterThanOrEqual(0);
          expect(r.creatorCents).toBeGreaterThanOrEqual(0);
          expect(r.segments.reduce((s, x) => s + x.toDay - x.fromDay + 1, 0)).toBe(daysInMonth(m));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("without a change the whole month is the default 70/30", () => {
    const r = splitClipMonth(10_000, 7000, "2026-03", [], 7000);
    expect(r).toMatchObject({ poolCents: 7000, clipperCents: 4900, creatorCents: 2100 });
    expect(r.segments).toEqual([{ fromDay: 1, toDay: 31, bps: 7000, poolCents: 7000, clipperCents: 4900 }]);
  });

  it("a split confirmed during a day applies from the next UTC day: pro rata by days before and after, to the cent", () => {
    // Confirmed 2026-04-10 15:00 UTC: days 1–10 at 70%, days 11–30 at 80%. Pool 1000.00 → 333.33 and 666.67.
    const r = splitClipMonth(1_000_000, 1000, "2026-04", [{ at: "2026-04-10T15:00:00.000Z", bps: 8000 }], 7000);
    expect(r.poolCents).toBe(100_000);
    expect(r.segments).toEqual([
      { fromDay: 1, toDay: 10, bps: 7000, poolCents: 33_333, clipperCents: 23_333 },
      { fromDay: 11, toDay: 30, bps: 8000, poolCents: 66_667, clipperCents: 53_333 },
    ]);
    expect(r.clipperCents).toBe(76_666);
    expect(r.creatorCents).toBe(23_334);
  });

  it("a split confirmed at 00:00 UTC applies from that day", () => {
    expect(daySegments("2026-04", [{ at: "2026-04-11T00:00:00.000Z", bps: 8000 }], 7000)).toEqual([
      { fromDay: 1, toDay: 10, bps: 7000 },
      { fromDay: 11, toDay: 30, bps: 8000 },
    ]);
  });

  it("a split confirmed after the month does not touch it; one confirmed before applies to all of it", () => {
    expect(splitClipMonth(1000, 10_000, "2026-02", [{ at: "2026-03-01T00:00:01.000Z", bps: 9000 }], 7000).clipperCents).toBe(700);
    expect(splitClipMonth(1000, 10_000, "2026-02", [{ at: "2026-01-31T23:59:59.000Z", bps: 9000 }], 7000).clipperCents).toBe(900);
  });

  it("the latest change at or before an instant is in force", () => {
    const ch = [
      { at: "2026-01-05T00:00:00.000Z", bps: 7500 },
      { at: "2026-01-20T00:00:00.000Z", bps: 8000 },
    ];
    expect(bpsAt(ch, 7000, Date.UTC(2026, 0, 4))).toBe(7000);
    expect(bpsAt(ch, 7000, Date.UTC(2026, 0, 5))).toBe(7500);
    expect(bpsAt(ch, 7000, Date.UTC(2026, 0, 25))).toBe(8000);
  });

  it("February of a leap year has 29 days", () => {
    expect(daysInMonth("2028-02")).toBe(29);
    expect(daysInMonth("2026-02")).toBe(28);
  });
});
