import { type Dispatch, type PointerEvent, type RefObject, useEffect, useRef, useState } from "react";
import {
  contains,
  corners,
  FORMATS,
  type Guide,
  type Handle,
  hitTest,
  type ImageLayer,
  type Layer,
  type Point,
  resizeTo,
  rotateTowards,
  snapMove,
  toImagePixels,
} from "../layers";
import { applyAlpha, type BrushMode, paintStroke } from "../mask";
import { type EditorAction, type EditorState, newId } from "./document";
import { HANDLE_SIZE, renderBrush, renderDocument, renderOverlay, rotationHandle } from "./render";

// The canvas: draws the document, selects, moves, resizes and rotates layers with the pointer
// (snapping to guides), and paints a cut-out's mask with the brush (decision 0252).

const HANDLES: Handle[] = ["nw", "ne", "se", "sw"];

type Drag =
  | { kind: "move"; start: Layer; from: { x: number; y: number } }
  | { kind: "resize"; start: Layer; handle: Handle }
  | { kind: "rotate"; start: Layer };

/** A brush stroke on a cut-out's mask: painted into a copy, shown live, one undo step (decision 0252). */
type Stroke = {
  layer: ImageLayer;
  assetId: string;
  canvas: OffscreenCanvas;
  ctx: OffscreenCanvasRenderingContext2D;
  work: ImageData;
  original: Uint8ClampedArray;
  alpha: Uint8ClampedArray;
  width: number;
  height: number;
  last: Point;
};

type Props = {
  state: EditorState;
  dispatch: Dispatch<EditorAction>;
  canvasRef: RefObject<HTMLCanvasElement | null>;
  selected: Layer | null;
  /** The selected cut-out when the brush paints it; null otherwise. */
  brushLayer: ImageLayer | null;
  brush: { mode: BrushMode; size: number };
  showSafe: boolean;
  fontsReady: boolean;
  onImageFile: (file: File) => void;
};

export function EditorCanvas({ state, dispatch, canvasRef, selected, brushLayer, brush, showSafe, fontsReady, onImageFile }: Props) {
  const { assets } = state;
  const doc = state.history.present;
  const frame = FORMATS[doc.format];
  const brushActive = brushLayer !== null;
  const [guides, setGuides] = useState<Guide[]>([]);
  const [brushAt, setBrushAt] = useState<Point | null>(null);
  const [paintTick, setPaintTick] = useState(0);
  const stroke = useRef<Stroke | null>(null);
  const drag = useRef<Drag | null>(null);
  const scaleRef = useRef(1);

  // biome-ignore lint/correctness/useExhaustiveDependencies: fontsReady redraws the text once the bundled fonts have loaded; paintTick redraws a brush stroke.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const ctx = canvas.getContext("2d");
    if (!ctx) return;
    const scale = canvas.getBoundingClientRect().width / frame.width || 1;
    scaleRef.current = scale;
    renderDocument(ctx, doc, assets);
    renderOverlay(ctx, doc, brushActive ? null : selected, guides, showSafe, scale);
    if (brushActive && brushAt) renderBrush(ctx, brushAt, brush.size / 2, scale);
  }, [doc, assets, selected, guides, showSafe, frame.width, fontsReady, brushActive, brushAt, brush.size, paintTick]);

  function toDoc(e: PointerEvent<HTMLCanvasElement>) {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: ((e.clientX - r.left) / r.width) * frame.width, y: ((e.clientY - r.top) / r.height) * frame.height };
  }

  function onPointerDown(e: PointerEvent<HTMLCanvasElement>) {
    const p = toDoc(e);
    if (brushLayer) {
      startStroke(brushLayer, p);
      e.currentTarget.setPointerCapture(e.pointerId);
      return;
    }
    const tol = (HANDLE_SIZE / scaleRef.current) * 0.8;
    if (selected && !selected.hidden) {
      const rh = rotationHandle(selected, scaleRef.current);
      if (Math.hypot(p.x - rh.x, p.y - rh.y) <= tol) {
        drag.current = { kind: "rotate", start: selected };
      } else {
        const cs = corners(selected);
        const handle = HANDLES[cs.findIndex((c) => Math.abs(c.x - p.x) <= tol && Math.abs(c.y - p.y) <= tol)];
        if (handle) drag.current = { kind: "resize", start: selected, handle };
      }
    }
    if (!drag.current) {
      const hit = selected && contains(selected, p) && !selected.hidden ? selected : hitTest(doc.layers, p);
      dispatch({ type: "select", id: hit?.id ?? null });
      if (hit) drag.current = { kind: "move", start: hit, from: p };
    }
    if (drag.current) {
      e.currentTarget.setPointerCapture(e.pointerId);
      dispatch({ type: "begin-drag" });
    }
  }

  function onPointerMove(e: PointerEvent<HTMLCanvasElement>) {
    if (brushActive) {
      const p = toDoc(e);
      setBrushAt(p);
      if (stroke.current) paintTo(p);
      return;
    }
    const d = drag.current;
    if (!d) return;
    const p = toDoc(e);
    if (d.kind === "move") {
      const snapped = e.altKey
        ? { layer: { ...d.start, x: d.start.x + p.x - d.from.x, y: d.start.y + p.y - d.from.y }, guides: [] }
        : snapMove(d.start, p.x - d.from.x, p.y - d.from.y, frame, doc.layers, 8 / scaleRef.current);
      setGuides(snapped.guides);
      dispatch({ type: "update-layer", id: d.start.id, patch: snapped.layer, live: true });
    } else if (d.kind === "resize") {
      const keep = e.shiftKey || d.start.kind !== "shape";
      let next = resizeTo(d.start, d.handle, p, keep);
      if (next.kind === "text" && d.start.kind === "text") next = { ...next, size: Math.max(4, Math.round((d.start.size * next.width) / d.start.width)) };
      dispatch({ type: "update-layer", id: d.start.id, patch: next, live: true });
    } else {
      dispatch({ type: "update-layer", id: d.start.id, patch: rotateTowards(d.start, p, e.shiftKey ? 15 : 0), live: true });
    }
  }

  function onPointerUp() {
    drag.current = null;
    setGuides([]);
    if (stroke.current) endStroke();
  }

  // ---- Mask brush (decision 0252) ---------------------------------------------------------------

  /** Starts a stroke: a new asset (a copy of the mask) replaces the cut-out's, as one undo step. */
  function startStroke(layer: ImageLayer, p: Point) {
    const asset = assets.get(layer.assetId);
    const cut = asset?.cutout;
    if (!asset || !cut) return;
    const { width, height } = asset;
    const canvas = new OffscreenCanvas(width, height);
    const ctx = canvas.getContext("2d") as OffscreenCanvasRenderingContext2D;
    const alpha = new Uint8ClampedArray(cut.alpha);
    const work = new ImageData(width, height);
    applyAlpha(work.data, cut.original, alpha, width);
    ctx.putImageData(work, 0, 0);
    const assetId = newId();
    const next = { ...layer, assetId };
    dispatch({ type: "replace-image", layerId: layer.id, assetId, asset: { image: canvas, width, height, cutout: { original: cut.original, alpha } } });
    const first = toImagePixels(layer, asset, p);
    stroke.current = { layer: next, assetId, canvas, ctx, work, original: cut.original, alpha, width, height, last: first };
    paintTo(p);
  }

  function paintTo(p: Point) {
    const s = stroke.current;
    if (!s) return;
    const to = toImagePixels(s.layer, s, p);
    const radius = (brush.size / 2) * (s.width / s.layer.width);
    const rect = paintStroke(s.alpha, s.width, s.height, s.last, to, { mode: brush.mode, radius, hardness: 0.6 });
    s.last = to;
    if (!rect) return;
    applyAlpha(s.work.data, s.original, s.alpha, s.width, rect);
    s.ctx.putImageData(s.work, 0, 0, rect.left, rect.top, rect.right - rect.left, rect.bottom - rect.top);
    setPaintTick((t) => t + 1);
  }

  /** Ends a stroke: the refined cut-out is encoded for the draft and the save. */
  function endStroke() {
    const s = stroke.current;
    stroke.current = null;
    if (!s) return;
    void s.canvas.convertToBlob({ type: "image/png" }).then((blob) => dispatch({ type: "asset-blob", assetId: s.assetId, blob }));
  }

  const aspect = `${frame.width} / ${frame.height}`;
  return (
    <div>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for image files; "Open image" and paste are the keyboard paths. */}
      <div
        className="mx-auto max-w-full rounded-md border border-slate-300 bg-[length:20px_20px] bg-[conic-gradient(#e2e8f0_25%,#fff_0_50%,#e2e8f0_0_75%,#fff_0)]"
        style={{ aspectRatio: aspect, maxHeight: "70vh", width: doc.format === "portrait" ? "min(100%, calc(70vh * 9 / 16))" : "100%" }}
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          const file = e.dataTransfer.files?.[0];
          if (file) onImageFile(file);
        }}
      >
        <canvas
          ref={canvasRef}
          width={frame.width}
          height={frame.height}
          tabIndex={0}
          aria-label={`Thumbnail canvas, ${frame.width} by ${frame.height}. Drop or paste an image. With a layer selected: arrow keys move it, Delete removes it, [ and ] reorder it.`}
          className={`block h-full w-full touch-none focus:outline-none focus-visible:ring-4 focus-visible:ring-sky-500 ${brushActive ? "cursor-crosshair" : ""}`}
          onPointerLeave={() => setBrushAt(null)}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
        />
      </div>
      <p className="mt-2 text-xs text-slate-600">
        Drag to move (snaps to edges, centres and other layers; Alt for no snapping), corners to resize (Shift keeps proportions), the round handle to rotate
        (Shift: 15° steps). Ctrl+Z undo, Ctrl+Shift+Z redo, Ctrl+S save.
      </p>
    </div>
  );
}
