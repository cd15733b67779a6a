// The thumbnail editor's document and its maths: formats, layers, hit tests, move/resize/rotate,
// snapping, reordering, undo history, export sizes, subject-aware crop. Pure and client-safe
// (unit-tested in tests/unit/thumbnails/); the canvas code in ./editor only draws what this says.

export const FORMATS = {
  landscape: { width: 1280, height: 720, label: "16:9 (1280×720)" },
  portrait: { width: 1080, height: 1920, label: "9:16 (1080×1920)" },
} as const;
export type Format = keyof typeof FORMATS;

export const FONTS = [
  { id: "Anton", label: "Anton", weight: 400 },
  { id: "Inter", label: "Inter", weight: 800 },
  { id: "Bebas Neue", label: "Bebas Neue", weight: 400 },
] as const;
export type FontId = (typeof FONTS)[number]["id"];

type Base = {
  id: string;
  name: string;
  /** Centre of the layer in document pixels. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Degrees, clockwise. */
  rotation: number;
  hidden: boolean;
};
export type ImageLayer = Base & { kind: "image"; assetId: string };
export type TextLayer = Base & {
  kind: "text";
  text: string;
  font: FontId;
  size: number;
  color: string;
  outlineColor: string;
  outlineWidth: number;
  shadow: boolean;
};
export type ShapeLayer = Base & { kind: "shape"; shape: "rect" | "ellipse"; fill: string };
export type Layer = ImageLayer | TextLayer | ShapeLayer;

export type Adjustments = { brightness: number; contrast: number; saturation: number };
export type ThumbnailDocument = {
  format: Format;
  /** A colour, or "transparent". */
  background: string;
  adjust: Adjustments;
  layers: Layer[];
};

export const NEUTRAL: Adjustments = { brightness: 100, contrast: 100, saturation: 100 };

export function emptyDocument(format: Format = "landscape"): ThumbnailDocument {
  return { format, background: "transparent", adjust: { ...NEUTRAL }, layers: [] };
}

/** The CSS/canvas filter of the adjustments (percent, 100 = unchanged). */
export function filterOf(a: Adjustments): string {
  const clamp = (v: number) => Math.max(0, Math.min(200, Math.round(v)));
  return `brightness(${clamp(a.brightness)}%) contrast(${clamp(a.contrast)}%) saturate(${clamp(a.saturation)}%)`;
}

// ---------------------------------------------------------------------------------------------
// Geometry
// ---------------------------------------------------------------------------------------------

export type Point = { x: number; y: number };
const rad = (deg: number) => (deg * Math.PI) / 180;

export function rotatePoint(p: Point, center: Point, deg: number): Point {
  const c = Math.cos(rad(deg));
  const s = Math.sin(rad(deg));
  const dx = p.x - center.x;
  const dy = p.y - center.y;
  return { x: center.x + dx * c - dy * s, y: center.y + dx * s + dy * c };
}

/** The layer's four corners (top-left, top-right, bottom-right, bottom-left) after rotation. */
export function corners(l: Pick<Layer, "x" | "y" | "width" | "height" | "rotation">): [Point, Point, Point, Point] {
  const hw = l.width / 2;
  const hh = l.height / 2;
  const at = (x: number, y: number) => rotatePoint({ x, y }, l, l.rotation);
  return [at(l.x - hw, l.y - hh), at(l.x + hw, l.y - hh), at(l.x + hw, l.y + hh), at(l.x - hw, l.y + hh)];
}

/** Axis-aligned bounds of a (possibly rotated) layer. */
export function bounds(l: Pick<Layer, "x" | "y" | "width" | "height" | "rotation">) {
  const cs = corners(l);
  const xs = cs.map((p) => p.x);
  const ys = cs.map((p) => p.y);
  return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
}

/** Whether a document point lies inside the (rotated) layer. */
export function contains(l: Layer, p: Point): boolean {
  const local = rotatePoint(p, l, -l.rotation);
  return Math.abs(local.x - l.x) <= l.width / 2 && Math.abs(local.y - l.y) <= l.height / 2;
}

/** The topmost visible layer under a point (layers are drawn first to last). */
export function hitTest(layers: Layer[], p: Point): Layer | null {
  for (const l of [...layers].reverse()) {
    if (!l.hidden && contains(l, p)) return l;
  }
  return null;
}

export type Handle = "nw" | "ne" | "se" | "sw";
const HANDLE_SIGN: Record<Handle, Point> = { nw: { x: -1, y: -1 }, ne: { x: 1, y: -1 }, se: { x: 1, y: 1 }, sw: { x: -1, y: 1 } };
export const MIN_SIZE = 8;

/**
 * Resizes by dragging a corner handle to `p` (document coordinates): the opposite corner stays
 * put; `keepAspect` keeps the width:height ratio (Shift, and always for images).
 */
export function resizeTo<L extends Layer>(l: L, handle: Handle, p: Point, keepAspect: boolean): L {
  const sign = HANDLE_SIGN[handle];
  const anchorLocal = { x: l.x - (sign.x * l.width) / 2, y: l.y - (sign.y * l.height) / 2 };
  const anchor = rotatePoint(anchorLocal, l, l.rotation);
  // The pointer in the layer's own (unrotated) frame, relative to the fixed corner.
  const local = rotatePoint(p, anchor, -l.rotation);
  let w = Math.max(MIN_SIZE, (local.x - anchor.x) * sign.x);
  let h = Math.max(MIN_SIZE, (local.y - anchor.y) * sign.y);
  if (keepAspect) {
    const ratio = l.width / l.height;
    if (w / h > ratio) h = w / ratio;
    else w = h * ratio;
  }
  const centreLocal = { x: anchor.x + (sign.x * w) / 2, y: anchor.y + (sign.y * h) / 2 };
  const centre = rotatePoint(centreLocal, anchor, l.rotation);
  return { ...l, x: centre.x, y: centre.y, width: w, height: h };
}

/** Rotation so the layer's top points towards `p`; with `step` (Shift) snapped to 15°. */
export function rotateTowards<L extends Layer>(l: L, p: Point, step = 0): L {
  let deg = (Math.atan2(p.y - l.y, p.x - l.x) * 180) / Math.PI + 90;
  if (step > 0) deg = Math.round(deg / step) * step;
  deg = ((deg % 360) + 360) % 360;
  if (deg > 180) deg -= 360;
  return { ...l, rotation: Math.round(deg * 10) / 10 };
}

// ---------------------------------------------------------------------------------------------
// Snapping
// ---------------------------------------------------------------------------------------------

export type Guide = { axis: "x" | "y"; at: number };
export const SNAP_DISTANCE = 8;

/**
 * Moves a layer by (dx, dy) from `start`, snapping its left/centre/right (top/middle/bottom) to
 * the frame's edges and centre and to the other visible layers' edges and centres within
 * `distance` document pixels. Returns the moved layer and the guides to draw.
 */
export function snapMove<L extends Layer>(
  start: L,
  dx: number,
  dy: number,
  frame: { width: number; height: number },
  others: Layer[],
  distance = SNAP_DISTANCE,
) {
  const moved = { ...start, x: start.x + dx, y: start.y + dy };
  const b = bounds(moved);
  const targetsX = [0, frame.width / 2, frame.width];
  const targetsY = [0, frame.height / 2, frame.height];
  for (const o of others) {
    if (o.hidden || o.id === start.id) continue;
    const ob = bounds(o);
    targetsX.push(ob.left, o.x, ob.right);
    targetsY.push(ob.top, o.y, ob.bottom);
  }
  const guides: Guide[] = [];
  const best = (edges: number[], targets: number[]) => {
    let found: { delta: number; at: number } | null = null;
    for (const e of edges)
      for (const t of targets) {
        const d = t - e;
        if (Math.abs(d) <= distance && (!found || Math.abs(d) < Math.abs(found.delta))) found = { delta: d, at: t };
      }
    return found;
  };
  const sx = best([b.left, moved.x, b.right], targetsX);
  if (sx) {
    moved.x += sx.delta;
    guides.push({ axis: "x", at: sx.at });
  }
  const sy = best([b.top, moved.y, b.bottom], targetsY);
  if (sy) {
    moved.y += sy.delta;
    guides.push({ axis: "y", at: sy.at });
  }
  return { layer: moved as L, guides };
}

// ---------------------------------------------------------------------------------------------
// Layer list
// ---------------------------------------------------------------------------------------------

/** Moves a layer one step up (towards the front) or down, or to the front/back. */
export function reorder(layers: Layer[], id: string, to: "up" | "down" | "front" | "back"): Layer[] {
  const i = layers.findIndex((l) => l.id === id);
  if (i < 0) return layers;
  const out = layers.slice();
  const [l] = out.splice(i, 1);
  if (!l) return layers;
  const j = to === "front" ? out.length : to === "back" ? 0 : to === "up" ? Math.min(out.length, i + 1) : Math.max(0, i - 1);
  out.splice(j, 0, l);
  return out;
}

export function updateLayer(doc: ThumbnailDocument, id: string, patch: Partial<Layer>): ThumbnailDocument {
  return { ...doc, layers: doc.layers.map((l) => (l.id === id ? ({ ...l, ...patch } as Layer) : l)) };
}

export function removeLayer(doc: ThumbnailDocument, id: string): ThumbnailDocument {
  return { ...doc, layers: doc.layers.filter((l) => l.id !== id) };
}

/** Image size that covers the frame (centre crop), as a new image layer's size. */
export function coverSize(imageW: number, imageH: number, frameW: number, frameH: number) {
  const scale = Math.max(frameW / imageW, frameH / imageH);
  return { width: imageW * scale, height: imageH * scale };
}

/** Image size that fits inside the frame (the whole photo shows; bands at the sides or top). */
export function fitSize(imageW: number, imageH: number, frameW: number, frameH: number) {
  const scale = Math.min(frameW / imageW, frameH / imageH);
  return { width: imageW * scale, height: imageH * scale };
}

/**
 * How a photo is placed (issue 31 §2): "fill" covers the frame (centre crop: a portrait in 16:9
 * loses its top and bottom), "fit" shows all of it inside the frame (docs/decisions/0252).
 */
export type Placement = "fill" | "fit";

/** The layer placed in the frame: centred, unrotated, filling or fitting it. */
export function placeImage<L extends Layer>(layer: L, image: { width: number; height: number }, format: Format, placement: Placement): L {
  const frame = FORMATS[format];
  const size = (placement === "fit" ? fitSize : coverSize)(image.width, image.height, frame.width, frame.height);
  return { ...layer, ...size, x: frame.width / 2, y: frame.height / 2, rotation: 0 };
}

/** A document point in an image layer's own pixels (the layer may be moved, scaled and rotated). */
export function toImagePixels(layer: Pick<Layer, "x" | "y" | "width" | "height" | "rotation">, image: { width: number; height: number }, p: Point): Point {
  const local = rotatePoint(p, layer, -layer.rotation);
  return {
    x: ((local.x - (layer.x - layer.width / 2)) * image.width) / layer.width,
    y: ((local.y - (layer.y - layer.height / 2)) * image.height) / layer.height,
  };
}

/**
 * Changes the format (the crop): every layer keeps its position relative to the frame's centre;
 * an image that covered the old frame is scaled to cover the new one.
 */
export function changeFormat(doc: ThumbnailDocument, format: Format): ThumbnailDocument {
  const from = FORMATS[doc.format];
  const to = FORMATS[format];
  const layers = doc.layers.map((l) => {
    const moved = { ...l, x: l.x - from.width / 2 + to.width / 2, y: l.y - from.height / 2 + to.height / 2 };
    if (l.kind === "image" && l.width >= from.width - 1 && l.height >= from.height - 1) {
      const s = coverSize(l.width, l.height, to.width, to.height);
      return { ...moved, ...s };
    }
    return moved;
  });
  return { ...doc, format, layers };
}

// ---------------------------------------------------------------------------------------------
// Safe areas (drawn on screen, never exported)
// ---------------------------------------------------------------------------------------------

export type Rect = { x: number; y: number; width: number; height: number; label: string };

/** Where a Short's or a video's overlays cover the thumbnail: keep faces and text out of these. */
export function safeAreas(format: Format): Rect[] {
  const { width, height } = FORMATS[format];
  if (format === "landscape") {
    // The duration badge sits bottom-right; a 5% margin is title-safe everywhere.
    return [
      { x: width * 0.05, y: height * 0.05, width: width * 0.9, height: height * 0.9, label: "Title safe" },
      { x: width - 200, y: height - 90, width: 180, height: 70, label: "Duration" },
    ];
  }
  // Shorts: the top bar, the title/channel block at the bottom and the action column on the right.
  return [
    { x: width * 0.05, y: height * 0.1, width: width * 0.8, height: height * 0.6, label: "Safe area" },
    { x: 0, y: height * 0.75, width, height: height * 0.25, label: "Title and channel" },
    { x: width * 0.85, y: height * 0.45, width: width * 0.15, height: height * 0.45, label: "Actions" },
  ];
}

// ---------------------------------------------------------------------------------------------
// Subject-aware crop (from the segmentation mask)
// ---------------------------------------------------------------------------------------------

/** The bounding box of mask values ≥ threshold (mask is row-major, one value 0..1 per pixel). */
export function maskBounds(mask: ArrayLike<number>, width: number, height: number, threshold = 0.5) {
  let left = width;
  let top = height;
  let right = -1;
  let bottom = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const m = mask[y * width + x];
      if (m !== undefined && m >= threshold) {
        if (x < left) left = x;
        if (x > right) right = x;
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
    }
  }
  if (right < 0) return null;
  return { left, top, right: right + 1, bottom: bottom + 1 };
}

/**
 * Places an (unrotated) image layer so that the subject box (in the image's own pixels) sits in the
 * frame's safe area: the subject fills at most `fill` of the frame height, the image still covers
 * the frame, and the subject's centre is as near the frame's centre as covering allows.
 */
export function autoCrop(
  layer: ImageLayer,
  image: { width: number; height: number },
  subject: { left: number; top: number; right: number; bottom: number },
  format: Format,
  fill = 0.8,
): ImageLayer {
  const frame = FORMATS[format];
  const sw = subject.right - subject.left;
  const sh = subject.bottom - subject.top;
  const cover = Math.max(frame.width / image.width, frame.height / image.height);
  const scale = Math.max(cover, Math.min((frame.height * fill) / sh, (frame.width * fill) / sw));
  const width = image.width * scale;
  const height = image.height * scale;
  // Subject centre in layer-local pixels from the image's top-left.
  const cx = ((subject.left + subject.right) / 2) * scale;
  const cy = ((subject.top + subject.bottom) / 2) * scale;
  // Image's top-left so the subject centre is at the frame centre, clamped so it still covers.
  const left = Math.min(0, Math.max(frame.width - width, frame.width / 2 - cx));
  const top = Math.min(0, Math.max(frame.height - height, frame.height / 2 - cy));
  return { ...layer, rotation: 0, width, height, x: left + width / 2, y: top + height / 2 };
}

// ---------------------------------------------------------------------------------------------
// Export
// ---------------------------------------------------------------------------------------------

export type ExportType = "image/png" | "image/jpeg";

export function exportSpec(format: Format, type: ExportType) {
  const { width, height } = FORMATS[format];
  return { width, height, type, extension: type === "image/png" ? "png" : "jpg", quality: type === "image/jpeg" ? 0.92 : undefined };
}

/** A download name from the project name: letters, digits and dashes; never empty. */
export function exportFilename(name: string, format: Format, type: ExportType): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "thumbnail";
  const { width, height, extension } = exportSpec(format, type);
  return `${base}-${width}x${height}.${extension}`;
}

// ---------------------------------------------------------------------------------------------
// Undo history
// ---------------------------------------------------------------------------------------------

export type History<T> = { past: T[]; present: T; future: T[] };
export const HISTORY_LIMIT = 100;

export const historyOf = <T>(present: T): History<T> => ({ past: [], present, future: [] });

/** A new state: the old one goes on the undo stack (capped), the redo stack is cleared. */
export function commit<T>(h: History<T>, next: T): History<T> {
  if (next === h.present) return h;
  return { past: [...h.past, h.present].slice(-HISTORY_LIMIT), present: next, future: [] };
}

export function undo<T>(h: History<T>): History<T> {
  const present = h.past.at(-1);
  if (present === undefined) return h;
  return { past: h.past.slice(0, -1), present, future: [h.present, ...h.future] };
}

export function redo<T>(h: History<T>): History<T> {
  const [present, ...future] = h.future;
  if (present === undefined) return h;
  return { past: [...h.past, h.present], present, future };
}
