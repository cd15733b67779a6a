import { describe, expect, it } from "vitest";
import {
  autoCrop,
  bounds,
  changeFormat,
  commit,
  contains,
  corners,
  coverSize,
  emptyDocument,
  exportFilename,
  exportSpec,
  filterOf,
  historyOf,
  HISTORY_LIMIT,
  hitTest,
  type ImageLayer,
  type Layer,
  maskBounds,
  redo,
  reorder,
  resizeTo,
  rotateTowards,
  snapMove,
  undo,
} from "~/modules/thumbnails/layers";
import { present } from "../../helpers/present";

const shape = (over: Partial<Layer> = {}): Layer =>
  ({ id: "s", kind: "shape", name: "S", shape: "rect", fill: "#ffffff", x: 100, y: 100, width: 100, height: 50, rotation: 0, hidden: false, ...over }) as Layer;
const image = (over: Partial<ImageLayer> = {}): ImageLayer => ({
  id: "i",
  kind: "image",
  name: "I",
  assetId: "a",
  x: 640,
  y: 360,
  width: 1280,
  height: 720,
  rotation: 0,
  hidden: false,
  ...over,
});
const close = (a: number, b: number) => expect(a).toBeCloseTo(b, 6);

describe("geometry", () => {
  it("corners and bounds of a rotated layer", () => {
    const l = shape({ rotation: 90 });
    const cs = corners(l);
    const first = present(cs[0], "the first corner");
    close(first.x, 125);
    close(first.y, 50);
    const b = bounds(l);
    close(b.left, 75);
    close(b.right, 125);
    close(b.top, 50);
    close(b.bottom, 150);
  });

  it("hit tests respect rotation, order and hidden layers", () => {
    const bottom = shape({ id: "a" });
    const top = shape({ id: "b", rotation: 90 });
    expect(contains(top, { x: 140, y: 100 })).toBe(false); // outside the rotated 50-wide box
    expect(contains(bottom, { x: 140, y: 100 })).toBe(true);
    expect(hitTest([bottom, top], { x: 100, y: 100 })?.id).toBe("b");
    expect(hitTest([bottom, { ...top, hidden: true }], { x: 100, y: 100 })?.id).toBe("a");
    expect(hitTest([bottom, top], { x: 500, y: 500 })).toBeNull();
  });

  it("resizing from a corner keeps the opposite corner fixed", () => {
    const l = shape();
    const r = resizeTo(l, "se", { x: 250, y: 200 }, false);
    const b = bounds(r);
    close(b.left, 50);
    close(b.top, 75);
    close(b.right, 250);
    close(b.bottom, 200);
  });

  it("resizing a rotated layer keeps the opposite corner fixed, with the aspect ratio", () => {
    const l = shape({ rotation: 30 });
    const before = present(corners(l)[0], "the first corner before");
    const r = resizeTo(l, "se", { x: 300, y: 300 }, true);
    const after = present(corners(r)[0], "the first corner after");
    close(after.x, before.x);
    close(after.y, before.y);
    close(r.width / r.height, 2);
  });

  it("never shrinks below the minimum size", () => {
    const r = resizeTo(shape(), "se", { x: 0, y: 0 }, false);
    expect(r.width).toBe(8);
    expect(r.height).toBe(8);
  });

  it("rotates towards the pointer, in 15° steps with Shift", () => {
    expect(rotateTowards(shape(), { x: 200, y: 100 }).rotation).toBe(90);
    expect(rotateTowards(shape(), { x: 100, y: 0 }).rotation).toBe(0);
    expect(rotateTowards(shape(), { x: 200, y: 90 }, 15).rotation).toBe(90);
    expect(rotateTowards(shape(), { x: 0, y: 100 }).rotation).toBe(-90);
  });
});

describe("snapping", () => {
  const frame = { width: 1280, height: 720 };
  it("snaps the centre to the frame's centre and reports the guides", () => {
    const l = shape({ x: 600, y: 300 });
    const { layer, guides } = snapMove(l, 37, 57, frame, [], 8);
    expect(layer.x).toBe(640);
    expect(layer.y).toBe(360);
    expect(guides).toEqual([
      { axis: "x", at: 640 },
      { axis: "y", at: 360 },
    ]);
  });
  it("snaps an edge to another layer's edge, and not beyond the distance", () => {
    const other = shape({ id: "o", x: 400, y: 400 }); // left edge at 350
    const l = shape({ x: 250, y: 200 }); // right edge 300
    expect(snapMove(l, 46, 0, frame, [other], 8).layer.x).toBe(300); // right edge 346 → 350
    expect(snapMove(l, 30, 0, frame, [other], 8).layer.x).toBe(280);
  });
});

describe("layers and formats", () => {
  it("reorders", () => {
    const ls = ["a", "b", "c"].map((id) => shape({ id }));
    expect(reorder(ls, "a", "up").map((l) => l.id)).toEqual(["b", "a", "c"]);
    expect(reorder(ls, "c", "up").map((l) => l.id)).toEqual(["a", "b", "c"]);
    expect(reorder(ls, "c", "back").map((l) => l.id)).toEqual(["c", "a", "b"]);
    expect(reorder(ls, "a", "front").map((l) => l.id)).toEqual(["b", "c", "a"]);
    expect(reorder(ls, "b", "down").map((l) => l.id)).toEqual(["b", "a", "c"]);
  });

  it("covers the frame and re-covers it when the crop changes to 9:16", () => {
    expect(coverSize(1000, 1000, 1280, 720)).toEqual({ width: 1280, height: 1280 });
    const doc = { ...emptyDocument("landscape"), layers: [image() as Layer, shape({ x: 640, y: 360 })] };
    const portrait = changeFormat(doc, "portrait");
    expect(portrait.format).toBe("portrait");
    const img = present(portrait.layers[0], "the image layer");
    expect(img.height).toBe(1920);
    expect(img.width).toBeCloseTo(3413.33, 1);
    expect(img.x).toBe(540);
    expect(portrait.layers[1]).toMatchObject({ x: 540, y: 960, width: 100 });
  });

  it("finds the subject in a mask and centres it while covering the frame", () => {
    const w = 10;
    const mask = new Float32Array(100);
    for (let y = 2; y < 6; y++) for (let x = 6; x < 9; x++) mask[y * w + x] = 0.9;
    expect(maskBounds(mask, 10, 10)).toEqual({ left: 6, top: 2, right: 9, bottom: 6 });
    expect(maskBounds(new Float32Array(100), 10, 10)).toBeNull();

    const cropped = autoCrop(
      image({ width: 1280, height: 1280 }),
      { width: 2000, height: 2000 },
      { left: 800, top: 200, right: 1200, bottom: 1000 },
      "landscape",
    );
    const b = bounds(cropped);
    expect(b.left).toBeLessThanOrEqual(0);
    expect(b.top).toBeLessThanOrEqual(0);
    expect(b.right).toBeGreaterThanOrEqual(1280);
    expect(b.bottom).toBeGreaterThanOrEqual(720);
    // Subject 800 px tall fills 80% of 720 → scale 0.72; its centre (1000, 600)·0.72 lands at the frame's centre.
    const scale = cropped.width / 2000;
    close(scale, 0.72);
    close(b.left + 1000 * scale, 640);
    close(b.top + 600 * scale, 360);
  });
});

describe("export sizes", () => {
  it("are the formats' exact sizes", () => {
    expect(exportSpec("landscape", "image/png")).toMatchObject({ width: 1280, height: 720, extension: "png" });
    expect(exportSpec("portrait", "image/jpeg")).toMatchObject({ width: 1080, height: 1920, extension: "jpg", quality: 0.92 });
    expect(exportFilename("My Big Video!", "portrait", "image/png")).toBe("my-big-video-1080x1920.png");
    expect(exportFilename("***", "landscape", "image/jpeg")).toBe("thumbnail-1280x720.jpg");
  });
  it("filters clamp to 0–200%", () => {
    expect(filterOf({ brightness: 120, contrast: 300, saturation: -5 })).toBe("brightness(120%) contrast(200%) saturate(0%)");
  });
});

describe("undo history", () => {
  it("undoes and redoes; a new change clears redo; the stack is capped", () => {
    let h = historyOf(0);
    h = commit(h, 1);
    h = commit(h, 2);
    h = undo(h);
    expect(h.present).toBe(1);
    h = redo(h);
    expect(h.present).toBe(2);
    h = undo(h);
    h = commit(h, 5);
    expect(h.future).toEqual([]);
    expect(redo(h)).toBe(h);
    expect(undo(historyOf(0))).toEqual(historyOf(0));
    let big = historyOf(0);
    for (let i = 1; i <= HISTORY_LIMIT + 20; i++) big = commit(big, i);
    expect(big.past.length).toBe(HISTORY_LIMIT);
  });
});
