// The library's pure helpers that the list, the player and the review screens share: one time
// label, one reduction of stored peaks to bars, one line of a track's facts.
import { describe, expect, it } from "vitest";
import { formatDuration, libraryPeaks, resamplePeaks, trackFactsLine } from "~/modules/music/library";
import { barsFrom, formatTime, parsePeaks } from "~/modules/music/player";

describe("resamplePeaks", () => {
  it("keeps each span's loudest peak as a whole number 0..255, the player's bars scaled back", () => {
    expect(resamplePeaks("[0,255,10,20.6]", 2)).toEqual([255, 21]);
    expect(resamplePeaks([300, -4, 7], 3)).toEqual([255, 0, 7]);
    const stored = Array.from({ length: 500 }, (_, i) => (i * 37) % 256);
    expect(resamplePeaks(JSON.stringify(stored), 64)).toEqual(barsFrom(parsePeaks(stored), 64).map((h) => Math.round(h * 255)));
  });

  it("is empty for no peaks or unreadable ones (the list then draws a flat line)", () => {
    expect(resamplePeaks("[]")).toEqual([]);
    expect(resamplePeaks("not json")).toEqual([]);
    expect(resamplePeaks('{"a":1}')).toEqual([]);
  });
});

describe("libraryPeaks", () => {
  it("is the library's 64 bars as JSON text, the same text for the same stored peaks", () => {
    const stored = JSON.stringify(Array.from({ length: 700 }, (_, i) => (i * 53) % 256));
    const text = libraryPeaks(stored);
    expect(JSON.parse(text)).toEqual(resamplePeaks(stored, 64));
    expect(libraryPeaks(stored)).toBe(text);
    expect(libraryPeaks(`${stored} `)).toBe(text);
    expect(libraryPeaks("[]")).toBe("[]");
    expect(libraryPeaks("not json")).toBe("[]");
  });
});

describe("formatDuration", () => {
  it("is the player's clock on whole seconds", () => {
    expect(formatDuration(95)).toBe("1:35");
    expect(formatDuration(59.6)).toBe("1:00");
    expect(formatDuration(-3)).toBe("0:00");
    for (const s of [0, 1, 61, 599, 3599]) expect(formatDuration(s)).toBe(formatTime(s));
  });
});

describe("trackFactsLine", () => {
  it("joins what is known: genre, mood, BPM and, when asked, the length", () => {
    const t = { genre: "Pop", mood: "Happy", bpm: 120, durationSeconds: 95 };
    expect(trackFactsLine(t)).toBe("Pop · Happy · 120 BPM");
    expect(trackFactsLine(t, true)).toBe("Pop · Happy · 120 BPM · 1:35");
    expect(trackFactsLine({ genre: null, mood: null, bpm: null, durationSeconds: 30 }, true)).toBe("0:30");
  });
});
