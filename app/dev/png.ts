// The seed draws its cover images in code with the app's PNG encoder (app/lib/png.ts); the colours here.
export { encodePng } from "../lib/png.ts";

/** An RGB colour from hue (degrees), saturation and lightness (0–1), for the drawn demo images. */
export function hsl(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}
