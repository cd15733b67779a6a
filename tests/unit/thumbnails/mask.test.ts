import { describe, expect, it } from "vitest";
import { fitSize, type ImageLayer, placeImage, toImagePixels } from "~/modules/thumbnails/layers";
import { alphaFromConfidence, alphaOf, applyAlpha, dabStrength, foundSubject, keptShare, paintStroke } from "~/modules/thumbnails/mask";
import { present } from "../../helpers/present";

// Issue 31 §2: the brush that restores or erases parts of a cut-out's mask, and "fit" as well as
// "fill" when placing a photo (decision 0252).

const at = (alpha: Uint8ClampedArray, width: number, x: number, y: number) => alpha[y * width + x];

describe("the model's confidence as alpha", () => {
  it("cuts below 0.3, keeps above 0.7, blends between, and scales to the image", () => {
    // A 2×1 mask (0.1, 0.9) stretched over a 4×2 image; a 1×1 mask of 0.5 is half kept.
    const alpha = alphaFromConfidence([0.1, 0.9], 2, 1, 4, 2);
    expect(Array.from(alpha)).toEqual([0, 0, 255, 255, 0, 0, 255, 255]);
    expect(Array.from(alphaFromConfidence([0.5], 1, 1, 1, 1))).toEqual([128]);
  });
});

describe("a subject found, or none (issue 42 §2)", () => {
  it("counts the share the mask keeps, soft edges by their alpha", () => {
    expect(keptShare([0, 1, 0.5, 0.1])).toBeCloseTo((0 + 1 + 0.5 + 0) / 4, 5);
    expect(keptShare([])).toBe(0);
  });

  it("finds no subject when under 1.5 % of the image would be kept", () => {
    const mask = new Float32Array(10_000).fill(0.05);
    mask.fill(0.95, 0, 100); // 1 %: a few stray pixels
    expect(foundSubject(mask)).toBe(false);
    mask.fill(0.95, 0, 2_000); // 20 %: a person
    expect(foundSubject(mask)).toBe(true);
  });
});

describe("the brush", () => {
  it("paints fully inside its hard core and fades out to its radius", () => {
    expect(dabStrength(10, 10, 10.5, 10.5, 8, 0.5)).toBe(1);
    expect(dabStrength(10 + 6, 10, 10.5, 10.5, 8, 0.5)).toBeCloseTo(0.5, 5);
    expect(dabStrength(10 + 8, 10, 10.5, 10.5, 8, 0.5)).toBe(0);
  });

  it("restores a hole in the mask under a stroke and leaves the rest alone", () => {
    const w = 40;
    const h = 20;
    const alpha = new Uint8ClampedArray(w * h); // all cut away
    const rect = paintStroke(alpha, w, h, { x: 5, y: 10 }, { x: 35, y: 10 }, { mode: "restore", radius: 3, hardness: 1 });
    // Along the stroke (a fast one: two points 30 px apart) every pixel is kept; no gaps.
    for (let x = 5; x <= 34; x++) expect(at(alpha, w, x, 10)).toBe(255);
    // Away from it nothing changed.
    expect(at(alpha, w, 20, 2)).toBe(0);
    expect(at(alpha, w, 20, 17)).toBe(0);
    expect(rect).toEqual({ left: 2, top: 7, right: 38, bottom: 13 });
  });

  it("erases only downwards and restores only upwards", () => {
    const w = 10;
    const alpha = new Uint8ClampedArray(w * w).fill(100);
    paintStroke(alpha, w, w, { x: 5, y: 5 }, { x: 5, y: 5 }, { mode: "erase", radius: 4, hardness: 0 });
    expect(at(alpha, w, 5, 5)).toBeLessThan(100);
    expect(at(alpha, w, 0, 0)).toBe(100);
    expect(Math.max(...alpha)).toBe(100);
    const before = Array.from(alpha);
    paintStroke(alpha, w, w, { x: 5, y: 5 }, { x: 5, y: 5 }, { mode: "restore", radius: 4, hardness: 0 });
    expect(Array.from(alpha).every((a, i) => a >= present(before[i], `alpha ${i} before`))).toBe(true);
    expect(at(alpha, w, 5, 5)).toBeGreaterThan(present(before[5 * w + 5], "the centre's alpha before"));
  });

  it("does nothing outside the image", () => {
    const alpha = new Uint8ClampedArray(16).fill(7);
    expect(paintStroke(alpha, 4, 4, { x: -50, y: -50 }, { x: -40, y: -40 }, { mode: "erase", radius: 5, hardness: 1 })).toBeNull();
    expect(Array.from(alpha)).toEqual(new Array(16).fill(7));
  });

  it("makes the cut-out from the original and the mask, and reads the mask back from it", () => {
    const original = new Uint8ClampedArray([10, 20, 30, 255, 40, 50, 60, 255]);
    const out = new Uint8ClampedArray(8);
    applyAlpha(out, original, new Uint8ClampedArray([0, 255]), 2);
    expect(Array.from(out)).toEqual([10, 20, 30, 0, 40, 50, 60, 255]);
    expect(Array.from(alphaOf(out))).toEqual([0, 255]);
  });
});

describe("placing a photo: fit or fill", () => {
  const layer: ImageLayer = { id: "i", kind: "image", name: "Image", assetId: "a", x: 0, y: 0, width: 1, height: 1, rotation: 30, hidden: false };
  const portrait = { width: 1080, height: 1920 };

  it("fills a 16:9 frame with a portrait by cropping it (its head goes), or fits it whole", () => {
    const filled = placeImage(layer, portrait, "landscape", "fill");
    expect(filled).toMatchObject({ x: 640, y: 360, width: 1280, rotation: 0 });
    expect(filled.height).toBeCloseTo(2275.56, 1);
    // Filled, the photo's top 777 px (in frame pixels) are above the frame: the head is lost.
    expect(filled.y - filled.height / 2).toBeLessThan(-700);

    const fitted = placeImage(layer, portrait, "landscape", "fit");
    expect(fitted).toMatchObject({ x: 640, y: 360, height: 720, width: 405, rotation: 0 });
    // All of it is inside the frame.
    expect(fitted.y - fitted.height / 2).toBe(0);
    expect(fitted.x - fitted.width / 2).toBeGreaterThan(0);
  });

  it("fit and fill agree when the photo has the frame's shape", () => {
    expect(fitSize(1920, 1080, 1280, 720)).toEqual({ width: 1280, height: 720 });
    expect(placeImage(layer, { width: 1920, height: 1080 }, "landscape", "fill")).toMatchObject({ width: 1280, height: 720 });
  });

  it("maps a point on the canvas to the photo's own pixels, through move, scale and rotation", () => {
    const placed = { x: 640, y: 360, width: 405, height: 720, rotation: 0 };
    expect(toImagePixels(placed, portrait, { x: 640, y: 360 })).toEqual({ x: 540, y: 960 });
    expect(toImagePixels(placed, portrait, { x: 640 - 202.5, y: 0 })).toEqual({ x: 0, y: 0 });
    // Rotated a quarter turn: the canvas point right of the centre is the photo's top.
    const turned = { ...placed, rotation: 90 };
    const p = toImagePixels(turned, portrait, { x: 640 + 360, y: 360 });
    expect(p.x).toBeCloseTo(540, 6);
    expect(p.y).toBeCloseTo(0, 6);
  });
});
