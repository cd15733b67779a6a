// The player's pure parts: seeking by key (±5 s, Home/End), pointer position, time labels,
// waveform bars from stored peaks, the stored volume; and the Favorites view's ids parameter.
import { describe, expect, it } from "vitest";
import { favoritesParam, isFavoritesView, NO_FAVORITES } from "~/modules/music/components/favorite-button";
import { IDS_MAX } from "~/modules/music/library";
import { audioUrl, barsFrom, formatTime, fractionAt, parsePeaks, parseVolume, SEEK_STEP_SECONDS, seekTargetForKey } from "~/modules/music/player";

describe("seekTargetForKey", () => {
  it("moves ±5 s with the arrow keys, clamped to the track", () => {
    expect(SEEK_STEP_SECONDS).toBe(5);
    expect(seekTargetForKey("ArrowRight", 10, 60)).toBe(15);
    expect(seekTargetForKey("ArrowUp", 10, 60)).toBe(15);
    expect(seekTargetForKey("ArrowLeft", 10, 60)).toBe(5);
    expect(seekTargetForKey("ArrowDown", 10, 60)).toBe(5);
    expect(seekTargetForKey("ArrowLeft", 3, 60)).toBe(0);
    expect(seekTargetForKey("ArrowRight", 58, 60)).toBe(60);
  });

  it("Home goes to the start, End to the end, Page Up/Down ±30 s; other keys are not the slider's", () => {
    expect(seekTargetForKey("Home", 42, 60)).toBe(0);
    expect(seekTargetForKey("End", 42, 60)).toBe(60);
    expect(seekTargetForKey("PageUp", 10, 120)).toBe(40);
    expect(seekTargetForKey("PageDown", 10, 120)).toBe(0);
    expect(seekTargetForKey(" ", 10, 60)).toBeNull();
    expect(seekTargetForKey("a", 10, 60)).toBeNull();
  });

  it("an unknown length (NaN before metadata) never seeks past 0", () => {
    expect(seekTargetForKey("ArrowRight", 0, Number.NaN)).toBe(0);
    expect(seekTargetForKey("End", 0, Number.POSITIVE_INFINITY)).toBe(0);
  });
});

describe("fractionAt", () => {
  it("maps a pointer to 0..1 across the bar, clamped outside it", () => {
    expect(fractionAt(150, 100, 200)).toBe(0.25);
    expect(fractionAt(50, 100, 200)).toBe(0);
    expect(fractionAt(400, 100, 200)).toBe(1);
    expect(fractionAt(150, 100, 0)).toBe(0);
  });
});

describe("formatTime", () => {
  it.each([
    [0, "0:00"],
    [5.9, "0:05"],
    [65, "1:05"],
    [3725, "1:02:05"],
    [Number.NaN, "0:00"],
    [-3, "0:00"],
  ])("%s → %s", (s, label) => expect(formatTime(s)).toBe(label));
});

describe("waveform bars", () => {
  it("reads peaks from an array or the stored JSON; malformed → none", () => {
    expect(parsePeaks("[0,128,255]")).toEqual([0, 128, 255]);
    expect(parsePeaks([300, -1, 10])).toEqual([255, 0, 10]);
    expect(parsePeaks("oops")).toEqual([]);
    expect(parsePeaks(null)).toEqual([]);
  });

  it("reduces peaks to the bar count by each share's maximum, scaled to 0..1", () => {
    expect(barsFrom([0, 255, 0, 51], 2)).toEqual([1, 0.2]);
    expect(barsFrom([255], 3)).toEqual([1, 1, 1]);
    expect(barsFrom([], 4)).toEqual([0, 0, 0, 0]);
    expect(
      barsFrom(
        Array.from({ length: 1024 }, (_, i) => i % 256),
        64,
      ),
    ).toHaveLength(64);
  });
});

it("the stored volume is a number 0..1, else full volume", () => {
  expect(parseVolume("0.4")).toBe(0.4);
  expect(parseVolume("7")).toBe(1);
  expect(parseVolume("-1")).toBe(0);
  expect(parseVolume("loud")).toBe(1);
  expect(parseVolume(null)).toBe(1);
});

it("the audio URL is the preview route", () => {
  expect(audioUrl("abc")).toBe("/music/audio/abc");
});

describe("the Favorites view's ids parameter", () => {
  const id = (n: number) => `0b4c6a62-1111-4c1e-9a3e-${String(n).padStart(12, "0")}`;

  it("lists the newest favorites (track ids only, at most IDS_MAX), or the nil id when there are none", () => {
    expect(favoritesParam([id(2), id(1)])).toBe(`${id(2)},${id(1)}`);
    expect(favoritesParam(["not-an-id", id(3).toUpperCase()])).toBe(id(3));
    expect(favoritesParam([])).toBe(NO_FAVORITES);
    expect(favoritesParam(Array.from({ length: IDS_MAX + 10 }, (_, i) => id(i))).split(",")).toHaveLength(IDS_MAX);
  });

  it("is on exactly when the URL has an ids parameter", () => {
    expect(isFavoritesView(new URLSearchParams(`ids=${NO_FAVORITES}`))).toBe(true);
    expect(isFavoritesView(new URLSearchParams("q=rain"))).toBe(false);
  });
});
