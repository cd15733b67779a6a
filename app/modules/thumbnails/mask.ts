// The cut-out's mask and the brush that refines it (issue 31 §2, docs/decisions/0252). Pure and
// client-safe (unit-tested in tests/unit/thumbnails/mask.test.ts); ./editor draws what this computes.
//
// A mask is one alpha byte per pixel of the original image (0 = cut away, 255 = kept): the model's
// confidence turned into alpha, then painted by the brush. The cut-out is the original image with
// the mask as its alpha channel, so the mask is also the cut-out's own alpha.

import type { Point } from "./layers";

/** A confidence below this is cut away, above MASK_KEEP kept, in between blended (a soft edge). */
export const MASK_DROP = 0.3;
export const MASK_KEEP = 0.7;

/**
 * The model's confidence mask (maskW×maskH, 0..1) as alpha at the image's size (nearest sample):
 * below 0.3 gone, above 0.7 kept, blended in between.
 */
export function alphaFromConfidence(confidence: ArrayLike<number>, maskW: number, maskH: number, width: number, height: number): Uint8ClampedArray {
  const alpha = new Uint8ClampedArray(width * height);
  for (let y = 0; y < height; y++) {
    const my = Math.min(maskH - 1, Math.floor((y * maskH) / height));
    for (let x = 0; x < width; x++) {
      const mx = Math.min(maskW - 1, Math.floor((x * maskW) / width));
      const m = confidence[my * maskW + mx] ?? 0; // a sample the mask lacks is background
      const a = m <= MASK_DROP ? 0 : m >= MASK_KEEP ? 1 : (m - MASK_DROP) / (MASK_KEEP - MASK_DROP);
      alpha[y * width + x] = Math.round(a * 255);
    }
  }
  return alpha;
}

/**
 * Below this share of the image kept, the model found no subject (a landscape, an empty room): its
 * cut-out would erase nearly everything. A face filling a thumbnail keeps a third or more, a person
 * far away a few per cent (issue 42 §2).
 */
export const MIN_SUBJECT_SHARE = 0.015;

/** The share (0..1) of the image the confidence mask keeps, soft edges counted by their alpha. */
export function keptShare(confidence: ArrayLike<number>): number {
  if (confidence.length === 0) return 0;
  let kept = 0;
  for (let i = 0; i < confidence.length; i++) {
    const m = confidence[i] ?? 0;
    kept += m <= MASK_DROP ? 0 : m >= MASK_KEEP ? 1 : (m - MASK_DROP) / (MASK_KEEP - MASK_DROP);
  }
  return kept / confidence.length;
}

/** Whether the model found a subject to cut out (see MIN_SUBJECT_SHARE). */
export function foundSubject(confidence: ArrayLike<number>): boolean {
  return keptShare(confidence) >= MIN_SUBJECT_SHARE;
}

export type BrushMode = "restore" | "erase";
export type Brush = {
  mode: BrushMode /** Radius in image pixels. */;
  radius: number /** 0..1: the share of the radius that is fully painted; the rest fades out. */;
  hardness: number;
};
export type DirtyRect = { left: number; top: number; right: number; bottom: number };

/** Brush sizes offered (the diameter in screen-independent image pixels is `size`). */
export const BRUSH_SIZES = { min: 4, max: 200, default: 40 } as const;

/** How strongly a brush dab centred at (cx, cy) paints pixel (x, y): 1 inside the hard core, fading to 0 at the radius. */
export function dabStrength(x: number, y: number, cx: number, cy: number, radius: number, hardness: number): number {
  // Pixel centres: the pixel (x, y) covers [x, x+1).
  const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
  if (d >= radius) return 0;
  const core = radius * Math.max(0, Math.min(1, hardness));
  if (d <= core) return 1;
  return (radius - d) / (radius - core);
}

/**
 * Paints one stroke segment from `from` to `to` (image pixels) into `alpha` (width×height, changed in
 * place): "restore" raises alpha towards 255, "erase" lowers it towards 0, each pixel by the
 * strongest dab that reaches it. Dabs are spaced a quarter radius apart so a fast stroke leaves
 * no gaps. Returns the rectangle of pixels it may have changed (null when the stroke is outside the image).
 */
export function paintStroke(alpha: Uint8ClampedArray, width: number, height: number, from: Point, to: Point, brush: Brush): DirtyRect | null {
  const r = Math.max(0.5, brush.radius);
  const left = Math.max(0, Math.floor(Math.min(from.x, to.x) - r));
  const top = Math.max(0, Math.floor(Math.min(from.y, to.y) - r));
  const right = Math.min(width, Math.ceil(Math.max(from.x, to.x) + r));
  const bottom = Math.min(height, Math.ceil(Math.max(from.y, to.y) + r));
  if (left >= right || top >= bottom) return null;
  const length = Math.hypot(to.x - from.x, to.y - from.y);
  const steps = Math.max(1, Math.ceil(length / Math.max(0.5, r / 4)));
  const dabs: Point[] = [];
  for (let i = 0; i <= steps; i++) dabs.push({ x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps });
  for (let y = top; y < bottom; y++) {
    for (let x = left; x < right; x++) {
      let s = 0;
      for (const d of dabs) {
        s = Math.max(s, dabStrength(x, y, d.x, d.y, r, brush.hardness));
        if (s === 1) break;
      }
      if (s === 0) continue;
      const i = y * width + x;
      const target = brush.mode === "restore" ? 255 : 0;
      // Move towards the target by the strength: a soft edge blends, the core sets it.
      const current = alpha[i];
      if (current === undefined) continue; // outside the buffer: a typed array ignores the write anyway
      const next = current + (target - current) * s;
      alpha[i] = brush.mode === "restore" ? Math.max(current, Math.round(next)) : Math.min(current, Math.round(next));
    }
  }
  return { left, top, right, bottom };
}

/** The alpha channel of RGBA pixels (a cut-out's mask). */
export function alphaOf(rgba: Uint8ClampedArray): Uint8ClampedArray {
  const alpha = new Uint8ClampedArray(rgba.length / 4);
  for (let i = 0; i < alpha.length; i++) alpha[i] = rgba[i * 4 + 3] ?? 0;
  return alpha;
}

/** Writes `alpha` as the alpha channel of the original's RGBA pixels (changed in place), within `rect` (all by default). */
export function applyAlpha(rgba: Uint8ClampedArray, original: Uint8ClampedArray, alpha: Uint8ClampedArray, width: number, rect?: DirtyRect): void {
  const height = alpha.length / width;
  const r = rect ?? { left: 0, top: 0, right: width, bottom: height };
  for (let y = r.top; y < r.bottom; y++) {
    for (let x = r.left; x < r.right; x++) {
      const i = y * width + x;
      // A pixel missing from `original` or `alpha` reads 0: what the typed array stored for it before.
      rgba[i * 4] = original[i * 4] ?? 0;
      rgba[i * 4 + 1] = original[i * 4 + 1] ?? 0;
      rgba[i * 4 + 2] = original[i * 4 + 2] ?? 0;
      rgba[i * 4 + 3] = Math.round(((original[i * 4 + 3] ?? 0) * (alpha[i] ?? 0)) / 255);
    }
  }
}
