import { describe, expect, it } from "vitest";
import { barsPath } from "~/modules/music/components/waveform";

// The waveform's bars as one SVG path (a rectangle per bar), instead of a <rect> each.
describe("barsPath", () => {
  it("draws one closed rectangle per bar, 2 wide every 3 units, centred on 50, at least 4 high", () => {
    const d = barsPath([0, 0.5, 1]);
    expect(d).toBe("M0 48h2v4h-2zM3 25h2v50h-2zM6 0h2v100h-2z");
    expect(d.match(/z/g)).toHaveLength(3);
  });

  it("rounds to a tenth of a unit, and draws nothing for no bars", () => {
    expect(barsPath([1 / 3])).toBe("M0 33.4h2v33.3h-2z");
    expect(barsPath([])).toBe("");
  });
});
