import antonUrl from "@fontsource/anton/files/anton-latin-400-normal.woff2?url";
import bebasUrl from "@fontsource/bebas-neue/files/bebas-neue-latin-400-normal.woff2?url";
import interUrl from "@fontsource/inter/files/inter-latin-800-normal.woff2?url";
import { alphaFromConfidence, applyAlpha } from "../mask";
import { corners, FONTS, filterOf, FORMATS, type Guide, type Layer, safeAreas, type TextLayer, type ThumbnailDocument } from "../layers";

// Drawing the document on a 2D canvas: the same code for the screen (with selection, guides and
// safe areas) and the export (without them). Fonts are bundled (@fontsource, OFL-1.1), loaded from
// our own origin with the FontFace API only on this page.

/**
 * An image of the document. A cut-out made in this page also carries its original pixels (RGBA) and
 * its mask (one alpha byte per pixel), which the brush paints (decision 0252).
 */
export type Asset = {
  image: ImageBitmap | HTMLImageElement | OffscreenCanvas;
  width: number;
  height: number;
  blob?: Blob;
  cutout?: { original: Uint8ClampedArray; alpha: Uint8ClampedArray };
};

const FONT_FILES: Record<string, string> = { Anton: antonUrl, "Bebas Neue": bebasUrl, Inter: interUrl };
/** The bundled fonts' files (kept for offline use with the page's other files). */
export const FONT_URLS = Object.values(FONT_FILES);
let fontsLoading: Promise<void> | null = null;

export function loadFonts(): Promise<void> {
  fontsLoading ??= Promise.all(
    FONTS.map(async (f) => {
      const face = new FontFace(f.id, `url(${FONT_FILES[f.id]})`, { weight: String(f.weight) });
      await face.load();
      document.fonts.add(face);
    }),
  ).then(
    () => undefined,
    () => undefined,
  );
  return fontsLoading;
}

export function fontOf(l: Pick<TextLayer, "font" | "size">): string {
  const weight = FONTS.find((f) => f.id === l.font)?.weight ?? 400;
  return `${weight} ${l.size}px "${l.font}", sans-serif`;
}

const LINE = 1.15;

/** The box a text layer needs for its text at its size. */
export function measureText(ctx: CanvasRenderingContext2D, l: TextLayer): { width: number; height: number } {
  ctx.save();
  ctx.font = fontOf(l);
  const lines = l.text.split("\n");
  const width = Math.max(...lines.map((s) => ctx.measureText(s).width), l.size * 0.5);
  ctx.restore();
  const pad = l.outlineWidth + (l.shadow ? l.size * 0.08 : 0);
  return { width: Math.ceil(width + pad * 2 + 4), height: Math.ceil(lines.length * l.size * LINE + pad * 2) };
}

function drawLayer(ctx: CanvasRenderingContext2D, l: Layer, doc: ThumbnailDocument, assets: ReadonlyMap<string, Asset>) {
  ctx.save();
  ctx.translate(l.x, l.y);
  ctx.rotate((l.rotation * Math.PI) / 180);
  if (l.kind === "image") {
    const a = assets.get(l.assetId);
    ctx.filter = filterOf(doc.adjust);
    if (a) ctx.drawImage(a.image, -l.width / 2, -l.height / 2, l.width, l.height);
  } else if (l.kind === "shape") {
    ctx.fillStyle = l.fill;
    if (l.shape === "rect") ctx.fillRect(-l.width / 2, -l.height / 2, l.width, l.height);
    else {
      ctx.beginPath();
      ctx.ellipse(0, 0, l.width / 2, l.height / 2, 0, 0, Math.PI * 2);
      ctx.fill();
    }
  } else {
    ctx.font = fontOf(l);
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    const lines = l.text.split("\n");
    const top = (-(lines.length - 1) * l.size * LINE) / 2;
    lines.forEach((line, i) => {
      const y = top + i * l.size * LINE;
      if (l.shadow) {
        ctx.shadowColor = "rgba(0,0,0,0.6)";
        ctx.shadowBlur = l.size * 0.12;
        ctx.shadowOffsetX = l.size * 0.05;
        ctx.shadowOffsetY = l.size * 0.05;
      }
      if (l.outlineWidth > 0) {
        ctx.strokeStyle = l.outlineColor;
        ctx.lineWidth = l.outlineWidth * 2;
        ctx.strokeText(line, 0, y);
        ctx.shadowColor = "transparent";
      }
      ctx.fillStyle = l.color;
      ctx.fillText(line, 0, y);
    });
  }
  ctx.restore();
}

/** Draws the thumbnail itself (what is exported). */
export function renderDocument(ctx: CanvasRenderingContext2D, doc: ThumbnailDocument, assets: ReadonlyMap<string, Asset>, opaque = false) {
  const { width, height } = FORMATS[doc.format];
  ctx.clearRect(0, 0, width, height);
  if (doc.background !== "transparent" || opaque) {
    ctx.fillStyle = doc.background === "transparent" ? "#ffffff" : doc.background;
    ctx.fillRect(0, 0, width, height);
  }
  for (const l of doc.layers) if (!l.hidden) drawLayer(ctx, l, doc, assets);
}

export const HANDLE_SIZE = 14;

/** The screen-only overlay: checkerboard is CSS; here the safe areas, snapping guides and selection. */
export function renderOverlay(
  ctx: CanvasRenderingContext2D,
  doc: ThumbnailDocument,
  selected: Layer | null,
  guides: Guide[],
  showSafe: boolean,
  scale: number,
) {
  const { width, height } = FORMATS[doc.format];
  const px = (n: number) => n / scale;
  if (showSafe) {
    ctx.save();
    ctx.setLineDash([px(6), px(4)]);
    ctx.lineWidth = px(1.5);
    ctx.font = `${px(12)}px sans-serif`;
    for (const r of safeAreas(doc.format)) {
      ctx.strokeStyle = "rgba(14,165,233,0.9)";
      ctx.strokeRect(r.x, r.y, r.width, r.height);
      ctx.fillStyle = "rgba(14,165,233,0.9)";
      ctx.fillText(r.label, r.x + px(4), r.y + px(14));
    }
    ctx.restore();
  }
  ctx.save();
  ctx.strokeStyle = "#ec4899";
  ctx.lineWidth = px(1.5);
  for (const g of guides) {
    ctx.beginPath();
    if (g.axis === "x") {
      ctx.moveTo(g.at, 0);
      ctx.lineTo(g.at, height);
    } else {
      ctx.moveTo(0, g.at);
      ctx.lineTo(width, g.at);
    }
    ctx.stroke();
  }
  ctx.restore();
  if (!selected || selected.hidden) return;
  const cs = corners(selected);
  ctx.save();
  ctx.strokeStyle = "#2563eb";
  ctx.lineWidth = px(2);
  ctx.beginPath();
  ctx.moveTo(cs[0].x, cs[0].y);
  for (const p of cs.slice(1)) ctx.lineTo(p.x, p.y);
  ctx.closePath();
  ctx.stroke();
  ctx.fillStyle = "#ffffff";
  const h = px(HANDLE_SIZE);
  for (const p of cs) {
    ctx.fillRect(p.x - h / 2, p.y - h / 2, h, h);
    ctx.strokeRect(p.x - h / 2, p.y - h / 2, h, h);
  }
  const r = rotationHandle(selected, scale);
  ctx.beginPath();
  ctx.arc(r.x, r.y, h / 2, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
  ctx.restore();
}

/** The rotation handle: above the top edge's middle, in the layer's rotation. */
export function rotationHandle(l: Layer, scale: number) {
  const [tl, tr] = corners(l);
  const mid = { x: (tl.x + tr.x) / 2, y: (tl.y + tr.y) / 2 };
  const rad = (l.rotation * Math.PI) / 180;
  const d = 30 / scale;
  return { x: mid.x + Math.sin(rad) * d, y: mid.y - Math.cos(rad) * d };
}

/**
 * A cut-out: the image with the model's mask as its alpha (the mask's confidence at any size,
 * 0..1). The original pixels and the mask stay with it, so the brush can restore or erase parts
 * of the mask later (../mask.ts, decision 0252).
 */
export async function cutOut(
  image: Asset["image"],
  width: number,
  height: number,
  mask: Float32Array,
  maskW: number,
  maskH: number,
): Promise<Asset & { blob: Blob }> {
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext("2d") as OffscreenCanvasRenderingContext2D;
  ctx.drawImage(image, 0, 0, width, height);
  const pixels = ctx.getImageData(0, 0, width, height);
  const original = new Uint8ClampedArray(pixels.data);
  const alpha = alphaFromConfidence(mask, maskW, maskH, width, height);
  applyAlpha(pixels.data, original, alpha, width);
  ctx.putImageData(pixels, 0, 0);
  const blob = await canvas.convertToBlob({ type: "image/png" });
  return { image: canvas, width, height, blob, cutout: { original, alpha } };
}

/** The brush's outline where the pointer is (screen only), `radius` in document pixels. */
export function renderBrush(ctx: CanvasRenderingContext2D, at: { x: number; y: number }, radius: number, scale: number) {
  ctx.save();
  ctx.lineWidth = 1.5 / scale;
  for (const [colour, r] of [
    ["#ffffff", radius],
    ["#0f172a", radius + 1.5 / scale],
  ] as const) {
    ctx.strokeStyle = colour;
    ctx.beginPath();
    ctx.arc(at.x, at.y, r, 0, Math.PI * 2);
    ctx.stroke();
  }
  ctx.restore();
}
