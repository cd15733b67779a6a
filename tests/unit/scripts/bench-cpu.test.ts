import { describe, expect, it } from "vitest";
import { type CpuProfile, sampleSpacing, samplesPerWindow } from "../../../scripts/bench-cpu.mjs";
import { present } from "../../helpers/present";

// How bench:pages turns workerd's V8 profile into CPU time per request (docs/decisions/0286): a busy
// sample counts for the samples' median spacing, not the interval asked for, and each sample belongs
// to the request in flight at its timestamp.

const BUSY = 1;
const IDLE = 2;

/** A profile whose samples come at these gaps (µs) from `startTime`, busy or idle. */
function profile(samples: { gap: number; busy: boolean }[], startTime = 1_000): CpuProfile {
  return {
    nodes: [
      { id: BUSY, callFrame: { functionName: "render" } },
      { id: IDLE, callFrame: { functionName: "(idle)" } },
    ],
    samples: samples.map((s) => (s.busy ? BUSY : IDLE)),
    timeDeltas: samples.map((s) => s.gap),
    startTime,
  };
}

describe("bench-cpu: samples to milliseconds", () => {
  it("the spacing is the samples' median gap, not the interval asked for, and a few long gaps (another isolate running) do not move it", () => {
    const gaps = [...Array(40).fill(195), 5_000, 8_000, ...Array(40).fill(200), 12_000];
    expect(sampleSpacing(profile(gaps.map((gap) => ({ gap, busy: true }))))).toBe(200);
    expect(sampleSpacing(profile(Array.from({ length: 50 }, () => ({ gap: 100, busy: false }))))).toBe(100);
  });

  it("the first delta (from the profile's start) is not a spacing", () => {
    expect(sampleSpacing(profile([{ gap: 90_000, busy: true }, ...Array.from({ length: 3 }, () => ({ gap: 190, busy: true }))]))).toBe(190);
  });

  it("counts each window's busy samples by timestamp; idle samples and samples outside the windows do not count", () => {
    // Samples at 1,200 1,400 … 3,000 (every 200 µs from startTime 1,000); the ones at 1,800 and 2,400 are idle.
    const p = profile(Array.from({ length: 10 }, (_, i) => ({ gap: 200, busy: ![3, 6].includes(i) })));
    // Windows [1,300, 2,000) and [2,000, 2,900): 1,200 is before the first and 3,000 after the last;
    // the first holds 1,400, 1,600 (and the idle 1,800), the second 2,000, 2,200, 2,600, 2,800 (and the idle 2,400).
    expect(samplesPerWindow(p, [1_300, 2_000, 2_900])).toEqual([2, 4]);
  });

  it("a request's CPU time is its busy samples × the spacing: 10 samples 195 µs apart are 1.95 ms, where × 100 µs read 1.0", () => {
    const p = profile(Array.from({ length: 12 }, () => ({ gap: 195, busy: true })));
    const [n] = samplesPerWindow(p, [1_100, 1_000 + 11 * 195]);
    expect(n).toBe(10);
    expect((present(n, "the window's busy samples") * sampleSpacing(p)) / 1000).toBeCloseTo(1.95, 5);
  });
});
