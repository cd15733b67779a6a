import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type ChangeEvent, type FormEvent, type KeyboardEvent, type PointerEvent } from "react";
import { useRevalidator } from "react-router";
import { Button } from "~/ui/button";
import { inputClass } from "~/ui/field";
import { LocalTime } from "~/ui/local-time";
import { toast } from "~/ui/toaster";
import {
  autoCrop,
  contains,
  corners,
  exportFilename,
  exportSpec,
  type ExportType,
  FONTS,
  type Format,
  FORMATS,
  type Guide,
  type Handle,
  hitTest,
  type ImageLayer,
  type Layer,
  maskBounds,
  type Placement,
  placeImage,
  type Point,
  resizeTo,
  rotateTowards,
  snapMove,
  type TextLayer,
  toImagePixels,
} from "../layers";
import { applyAlpha, BRUSH_SIZES, type BrushMode, foundSubject, paintStroke } from "../mask";
import { imageProblem, THUMBNAIL_MESSAGES } from "../messages";
import type { AiStatus, ChannelSource, ExportSummary, LoadedProject, ProjectSummary } from "../types";
import { editorReducer, initialEditorState, newId, newShapeLayer, newTextLayer } from "./document";
import { loadDraft, saveDraft } from "./draft-store";
import { keepEditorOffline } from "./offline.client";
import { type Asset, cutOut, FONT_URLS, HANDLE_SIZE, loadFonts, measureText, renderBrush, renderDocument, renderOverlay, rotationHandle } from "./render";
import { SEGMENTER_FILES, segment } from "./segmenter.client";

// The thumbnail editor (issue 19). State: a document with undo history (../layers.ts does the
// maths), the images by asset id, the open project's id and version. Every change is kept in the
// browser (IndexedDB) until a save succeeds. API: /ai-thumbnail-editor/api.

const API = "/ai-thumbnail-editor/api";
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

type Props = { projects: ProjectSummary[]; exports: ExportSummary[]; ai: AiStatus };

async function readJson(res: Response): Promise<{ ok?: boolean; error?: string; [k: string]: unknown }> {
  try {
    return (await res.json()) as { ok?: boolean; error?: string };
  } catch {
    return { ok: false, error: `The server answered ${res.status}.` };
  }
}

/** Checks a file by its bytes, size and pixel size, then decodes it. */
async function openImageFile(file: Blob): Promise<{ asset: Asset } | { error: string }> {
  const head = new Uint8Array(await file.slice(0, 512 * 1024).arrayBuffer());
  const problem = imageProblem(file.size, head);
  if (problem) return { error: problem };
  try {
    const image = await createImageBitmap(file);
    if (image.width > 8000 || image.height > 8000) return { error: THUMBNAIL_MESSAGES.tooManyPixels };
    return { asset: { image, width: image.width, height: image.height, blob: file } };
  } catch {
    return { error: THUMBNAIL_MESSAGES.notImage };
  }
}

async function fetchAsset(url: string, keepBlob: boolean): Promise<Asset> {
  const blob = await (await fetch(url)).blob();
  const image = await createImageBitmap(blob);
  return { image, width: image.width, height: image.height, ...(keepBlob ? { blob } : {}) };
}

export function ThumbnailEditor({ projects, exports, ai }: Props) {
  const [state, dispatch] = useReducer(editorReducer, undefined, initialEditorState);
  const { history, assets, selectedId, name, project } = state;
  const doc = history.present;
  const [guides, setGuides] = useState<Guide[]>([]);
  const [showSafe, setShowSafe] = useState(true);
  const [busy, setBusy] = useState<string | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [exportType, setExportType] = useState<ExportType>("image/png");
  const [lastExport, setLastExport] = useState<ExportSummary | null>(null);
  const [fontsReady, setFontsReady] = useState(false);
  const [videoTitle, setVideoTitle] = useState("");
  const [bgPrompt, setBgPrompt] = useState("");
  const [channelSearch, setChannelSearch] = useState("");
  const [channels, setChannels] = useState<ChannelSource[] | null>(null);
  const [captions, setCaptions] = useState<string[]>([]);
  const [placement, setPlacement] = useState<Placement>("fill");
  const [brushOn, setBrushOn] = useState(false);
  const [brushMode, setBrushMode] = useState<BrushMode>("restore");
  const [brushSize, setBrushSize] = useState<number>(BRUSH_SIZES.default);
  const [brushAt, setBrushAt] = useState<Point | null>(null);
  const [paintTick, setPaintTick] = useState(0);
  const stroke = useRef<Stroke | null>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const drag = useRef<Drag | null>(null);
  const restored = useRef(false);
  const revalidator = useRevalidator();

  const frame = FORMATS[doc.format];
  const selected = doc.layers.find((l) => l.id === selectedId) ?? null;
  const selectedAsset = selected?.kind === "image" ? assets.get(selected.assetId) : undefined;
  /** The selected layer when it is a cut-out made in this page: the brush can refine its mask. */
  const cutoutLayer = selected?.kind === "image" && !selected.hidden && selectedAsset?.cutout ? selected : null;
  const brushActive = brushOn && cutoutLayer !== null;

  useEffect(() => {
    void loadFonts().then(() => {
      setFontsReady(true);
      // After one visit online the editor opens offline in any tab (decision 0251).
      keepEditorOffline(FONT_URLS, SEGMENTER_FILES).catch(() => {});
    });
  }, []);

  // Restore the browser's copy once.
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    void loadDraft()
      .then(async (draft) => {
        if (!draft?.document.layers.length) return;
        const map = new Map<string, Asset>();
        for (const [id, blob] of Object.entries(draft.blobs)) {
          const image = await createImageBitmap(blob);
          map.set(id, { image, width: image.width, height: image.height, blob });
        }
        // Images already on the server come back through the project's signed URLs.
        if (draft.projectId) {
          const res = await fetch(`${API}?project=${draft.projectId}`);
          if (res.ok) {
            const p = (await res.json()) as LoadedProject;
            for (const [id, url] of Object.entries(p.assets)) if (!map.has(id)) map.set(id, await fetchAsset(url, false));
          }
        }
        dispatch({ type: "load", document: draft.document, assets: map, name: draft.name, project: { id: draft.projectId, version: draft.version } });
        toast.info("Draft restored", { description: "Your unsaved work from this browser is back." });
      })
      .catch(() => {});
  }, []);

  // Keep the browser's copy (debounced).
  useEffect(() => {
    if (!restored.current) return;
    const t = setTimeout(() => {
      const blobs: Record<string, Blob> = {};
      for (const l of doc.layers) {
        if (l.kind === "image") {
          const a = assets.get(l.assetId);
          if (a?.blob) blobs[l.assetId] = a.blob;
        }
      }
      void saveDraft({ name, projectId: project.id, version: project.version, document: doc, blobs, savedAt: null }).catch(() => {});
    }, 400);
    return () => clearTimeout(t);
  }, [doc, assets, name, project]);

  // Draw.
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
    if (brushActive && brushAt) renderBrush(ctx, brushAt, brushSize / 2, scale);
  }, [doc, assets, selected, guides, showSafe, frame.width, fontsReady, brushActive, brushAt, brushSize, paintTick]);

  // ---- Adding things ------------------------------------------------------------------------------

  const addImage = useCallback(
    async (file: Blob) => {
      setError(null);
      const opened = await openImageFile(file);
      if ("error" in opened) {
        setError(opened.error);
        toast.error("Image not opened", { description: opened.error });
        return;
      }
      const id = newId();
      const base: ImageLayer = { id: newId(), kind: "image", name: "Image", assetId: id, x: 0, y: 0, width: 1, height: 1, rotation: 0, hidden: false };
      const layer = placeImage(base, opened.asset, doc.format, placement);
      dispatch({ type: "add-layer", layer, asset: { id, asset: opened.asset } });
    },
    [doc.format, placement],
  );

  // Paste an image from the clipboard anywhere on the page.
  useEffect(() => {
    const onPaste = (e: ClipboardEvent) => {
      const item = Array.from(e.clipboardData?.items ?? []).find((i) => i.kind === "file");
      const file = item?.getAsFile();
      if (!file) return;
      e.preventDefault();
      void addImage(file);
    };
    window.addEventListener("paste", onPaste);
    return () => window.removeEventListener("paste", onPaste);
  }, [addImage]);

  /**
   * Runs one of the editor's tasks: marks it busy (every task button waits), clears the last
   * error, shows a failure through `onError` (the error line by default), and frees the buttons
   * and the progress line afterwards, whatever happened.
   */
  async function runBusy(kind: string, work: () => Promise<void>, onError: (message: string) => void = setError) {
    setBusy(kind);
    setError(null);
    try {
      await work();
    } catch (e) {
      onError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
      setProgress(null);
    }
  }

  function captionIdeas() {
    return runBusy("ai", async () => {
      const form = new FormData();
      form.set("intent", "caption-ideas");
      form.set("title", videoTitle);
      const res = await fetch(API, { method: "POST", body: form });
      const body = await readJson(res);
      if (!res.ok || !body.ok) throw new Error(body.error ?? "No caption ideas.");
      setCaptions(body.captions as string[]);
    });
  }

  /** Adds an image the API answers (a channel thumbnail, a generated background) as a layer. */
  async function imageFromApi(form: FormData, failure: string) {
    const res = await fetch(API, { method: "POST", body: form });
    if (!res.ok || !(res.headers.get("Content-Type") ?? "").startsWith("image/")) {
      const body = await readJson(res);
      throw new Error(body.error ?? failure);
    }
    await addImage(await res.blob());
  }

  function findChannels(e: FormEvent) {
    e.preventDefault();
    return runBusy("channels", async () => {
      const res = await fetch(`${API}?channels=${encodeURIComponent(channelSearch)}`);
      const body = await readJson(res);
      if (!res.ok) throw new Error(body.error ?? "No channels found.");
      setChannels(body.channels as ChannelSource[]);
    });
  }

  function openChannelThumbnail(channelId: string) {
    return runBusy("channel", async () => {
      const form = new FormData();
      form.set("intent", "channel-thumbnail");
      form.set("channelId", channelId);
      await imageFromApi(form, "The channel's thumbnail could not be opened.");
    });
  }

  function generateBackground() {
    return runBusy("ai", async () => {
      const form = new FormData();
      form.set("intent", "generate-background");
      form.set("prompt", bgPrompt);
      await imageFromApi(form, "No background was generated.");
    });
  }

  function addText(text = "YOUR TITLE") {
    const ctx = canvasRef.current?.getContext("2d");
    const base = newTextLayer(newId(), text, doc.format);
    const box = ctx ? measureText(ctx, base) : { width: 600, height: 150 };
    dispatch({ type: "add-layer", layer: { ...base, ...box } });
  }

  function addShape(shape: "rect" | "ellipse") {
    dispatch({ type: "add-layer", layer: newShapeLayer(newId(), shape, doc.format) });
  }

  /** Edits the selected layer; text layers re-measure their box. */
  function patchSelected(patch: Partial<Layer>, commitStep = true) {
    if (!selected) return;
    let next = { ...selected, ...patch } as Layer;
    if (next.kind === "text") {
      const ctx = canvasRef.current?.getContext("2d");
      if (ctx) next = { ...next, ...measureText(ctx, next) };
    }
    dispatch({ type: "update-layer", id: selected.id, patch: next, live: !commitStep });
  }

  // ---- Pointer ------------------------------------------------------------------------------------

  function toDoc(e: PointerEvent<HTMLCanvasElement>) {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: ((e.clientX - r.left) / r.width) * frame.width, y: ((e.clientY - r.top) / r.height) * frame.height };
  }

  function onPointerDown(e: PointerEvent<HTMLCanvasElement>) {
    const p = toDoc(e);
    if (brushActive && cutoutLayer) {
      startStroke(cutoutLayer, p);
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
        const i = cs.findIndex((c) => Math.abs(c.x - p.x) <= tol && Math.abs(c.y - p.y) <= tol);
        if (i >= 0) drag.current = { kind: "resize", start: selected, handle: HANDLES[i] };
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
    const radius = (brushSize / 2) * (s.width / s.layer.width);
    const rect = paintStroke(s.alpha, s.width, s.height, s.last, to, { mode: brushMode, radius, hardness: 0.6 });
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

  // ---- Keyboard -----------------------------------------------------------------------------------

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const target = e.target as HTMLElement;
    const typing = target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT";
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.key.toLowerCase() === "z" && !typing) {
      e.preventDefault();
      dispatch({ type: e.shiftKey ? "redo" : "undo" });
      return;
    }
    if (mod && e.key.toLowerCase() === "y" && !typing) {
      e.preventDefault();
      dispatch({ type: "redo" });
      return;
    }
    if (mod && e.key.toLowerCase() === "s") {
      e.preventDefault();
      void save();
      return;
    }
    if (e.key === "Escape" && brushOn) {
      setBrushOn(false);
      return;
    }
    if (typing || !selected) return;
    if (e.key === "Delete" || e.key === "Backspace") {
      e.preventDefault();
      dispatch({ type: "remove-layer", id: selected.id });
      return;
    }
    const step = e.shiftKey ? 10 : 1;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const m = moves[e.key];
    if (m) {
      e.preventDefault();
      dispatch({ type: "update-layer", id: selected.id, patch: { x: selected.x + m[0], y: selected.y + m[1] } });
    }
    if (e.key === "]" || e.key === "[") dispatch({ type: "reorder", id: selected.id, to: e.key === "]" ? "up" : "down" });
  }

  // ---- AI (offline) -------------------------------------------------------------------------------

  const targetImage = (selected?.kind === "image" ? selected : [...doc.layers].reverse().find((l) => l.kind === "image" && !l.hidden)) as
    | ImageLayer
    | undefined;

  async function runSegmentation(layer: ImageLayer) {
    const asset = assets.get(layer.assetId);
    if (!asset) throw new Error("The image is not loaded yet.");
    const bitmap = await createImageBitmap(asset.image);
    const t0 = performance.now();
    const result = await segment(bitmap, (stage, percent) => setProgress(stage === "loading" ? `Loading the model… ${percent}%` : "Finding the subject…"));
    // The model has been used here: from now on it is kept for offline use (decision 0251).
    keepEditorOffline(FONT_URLS, SEGMENTER_FILES, true).catch(() => {});
    return { result, asset, ms: Math.round(performance.now() - t0) };
  }

  function removeBackground() {
    if (!targetImage) return;
    return runBusy(
      "ai",
      async () => {
        const { result, asset, ms } = await runSegmentation(targetImage);
        // No subject (a landscape, an empty room): the photo stays as it was, and the editor says so
        // instead of erasing nearly everything and reporting success (issue 42 §2).
        if (!foundSubject(result.mask)) {
          setError(THUMBNAIL_MESSAGES.noSubject);
          return;
        }
        setProgress("Cutting out…");
        const cut = await cutOut(asset.image, asset.width, asset.height, result.mask, result.width, result.height);
        const id = newId();
        dispatch({ type: "replace-image", layerId: targetImage.id, assetId: id, asset: cut, name: "Cut-out" });
        toast.success("Background removed", { description: `Model ${result.runMs} ms (loading ${result.loadMs} ms), ${ms} ms in all.` });
        document.documentElement.dataset.segmentMs = String(result.runMs);
      },
      (message) => setError(`Background removal failed: ${message}`),
    );
  }

  function subjectCrop() {
    if (!targetImage) return;
    return runBusy(
      "ai",
      async () => {
        const { result, asset } = await runSegmentation(targetImage);
        const box = maskBounds(result.mask, result.width, result.height, 0.5);
        if (!box) {
          setError(THUMBNAIL_MESSAGES.noSubject);
          return;
        }
        const sx = asset.width / result.width;
        const sy = asset.height / result.height;
        const subject = { left: box.left * sx, top: box.top * sy, right: box.right * sx, bottom: box.bottom * sy };
        dispatch({ type: "update-layer", id: targetImage.id, patch: autoCrop(targetImage, asset, subject, doc.format) });
        toast.success("Cropped to the subject");
      },
      (message) => setError(`Auto-crop failed: ${message}`),
    );
  }

  // ---- Save / open / export / send -----------------------------------------------------------

  function save() {
    return runBusy(
      "save",
      async () => {
        const form = new FormData();
        form.set("intent", "save-project");
        form.set("projectId", project.id);
        form.set("version", String(project.version));
        form.set("name", name);
        const used = new Set(doc.layers.flatMap((l) => (l.kind === "image" ? [l.assetId] : [])));
        for (const id of used) {
          const a = assets.get(id);
          if (a?.blob) form.append(`asset:${id}`, a.blob, `${id}.png`);
        }
        form.set("document", JSON.stringify(doc));
        const res = await fetch(API, { method: "POST", body: form });
        const body = await readJson(res);
        if (!res.ok || !body.ok) throw new Error(body.error ?? "The project could not be saved.");
        // Reload from the server: images now have stored ids and signed URLs.
        await openProject(String(body.id), true);
        toast.success(THUMBNAIL_MESSAGES.saved);
        revalidator.revalidate();
      },
      (message) => {
        setError(`${message} Your work is kept in this browser.`);
        toast.error("Project not saved", { description: message });
      },
    );
  }

  async function openProject(id: string, quiet = false) {
    const res = await fetch(`${API}?project=${encodeURIComponent(id)}`);
    const body = (await readJson(res)) as unknown as LoadedProject & { error?: string };
    if (!res.ok) throw new Error(body.error ?? "The project could not be opened.");
    const map = new Map<string, Asset>();
    for (const [assetId, url] of Object.entries(body.assets)) map.set(assetId, await fetchAsset(url, false));
    dispatch({ type: "load", document: body.document, assets: map, name: body.name, project: { id: body.id, version: body.version } });
    if (!quiet) toast.success("Project opened", { description: body.name });
  }

  function runExport() {
    return runBusy(
      "export",
      async () => {
        const spec = exportSpec(doc.format, exportType);
        const canvas = document.createElement("canvas");
        canvas.width = spec.width;
        canvas.height = spec.height;
        const ctx = canvas.getContext("2d");
        if (!ctx) throw new Error("This browser cannot draw the thumbnail.");
        renderDocument(ctx, doc, assets, exportType === "image/jpeg");
        const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, spec.type, spec.quality));
        if (!blob) throw new Error("The thumbnail could not be rendered.");
        const filename = exportFilename(name, doc.format, exportType);
        const form = new FormData();
        form.set("intent", "export");
        form.set("projectId", project.id);
        form.set("name", name);
        form.set("format", doc.format);
        form.set("file", blob, filename);
        const res = await fetch(API, { method: "POST", body: form });
        const body = await readJson(res);
        if (!res.ok || !body.ok) throw new Error(body.error ?? "The export could not be stored.");
        const stored = body.export as ExportSummary;
        setLastExport(stored);
        // Download it (the signed URL of the stored file).
        const a = document.createElement("a");
        a.href = stored.url;
        a.download = filename;
        document.body.appendChild(a);
        a.click();
        a.remove();
        toast.success(THUMBNAIL_MESSAGES.exported, { description: `${filename} (${stored.width}×${stored.height})` });
        revalidator.revalidate();
      },
      (message) => {
        setError(message);
        toast.error("Export failed", { description: message });
      },
    );
  }

  function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (file) void addImage(file);
  }

  const layersTopFirst = useMemo(() => [...doc.layers].reverse(), [doc.layers]);
  const aspect = `${frame.width} / ${frame.height}`;

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the editor's keyboard shortcuts (listed in the help) work anywhere inside it.
    <div className="space-y-4" onKeyDown={onKeyDown}>
      <div className="flex flex-wrap items-end gap-2" role="toolbar" aria-label="Editor">
        <input
          ref={fileRef}
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          className="sr-only"
          id="thumb-file"
          aria-label="Image file"
          tabIndex={-1}
          onChange={onFile}
        />
        <Button variant="primary" onClick={() => fileRef.current?.click()}>
          Open image
        </Button>
        <Button onClick={() => addText()}>Add text</Button>
        <Button onClick={() => addShape("rect")}>Add rectangle</Button>
        <Button onClick={() => addShape("ellipse")}>Add ellipse</Button>
        <span className="mx-1 h-6 w-px bg-slate-300" aria-hidden="true" />
        <fieldset className="flex gap-1" aria-label="Crop">
          {(Object.keys(FORMATS) as Format[]).map((f) => (
            <Button
              key={f}
              aria-pressed={doc.format === f}
              className={doc.format === f ? "ring-2 ring-slate-900" : ""}
              onClick={() => dispatch({ type: "set-format", format: f })}
            >
              {f === "landscape" ? "16:9" : "9:16"}
            </Button>
          ))}
        </fieldset>
        <fieldset className="flex items-center gap-1" aria-label="Place photos">
          <span className="text-sm text-slate-700" aria-hidden="true">
            Place photos:
          </span>
          {(["fill", "fit"] as const).map((p) => (
            <Button
              key={p}
              aria-pressed={placement === p}
              className={placement === p ? "ring-2 ring-slate-900" : ""}
              title={p === "fill" ? "New photos cover the frame (edges may be cropped)" : "New photos show whole inside the frame"}
              onClick={() => setPlacement(p)}
            >
              {p === "fill" ? "Fill" : "Fit"}
            </Button>
          ))}
        </fieldset>
        <label className="flex items-center gap-1 text-sm text-slate-700">
          <input type="checkbox" checked={showSafe} onChange={(e) => setShowSafe(e.target.checked)} /> Safe-area guides
        </label>
        <span className="mx-1 h-6 w-px bg-slate-300" aria-hidden="true" />
        <Button onClick={() => dispatch({ type: "undo" })} disabled={!history.past.length} aria-keyshortcuts="Control+Z">
          Undo
        </Button>
        <Button onClick={() => dispatch({ type: "redo" })} disabled={!history.future.length} aria-keyshortcuts="Control+Shift+Z">
          Redo
        </Button>
      </div>

      {error ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <p aria-live="polite" className="min-h-5 text-sm text-slate-700">
        {progress ?? ""}
      </p>

      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div>
          {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for image files; "Open image" and paste are the keyboard paths. */}
          <div
            className="mx-auto max-w-full rounded-md border border-slate-300 bg-[length:20px_20px] bg-[conic-gradient(#e2e8f0_25%,#fff_0_50%,#e2e8f0_0_75%,#fff_0)]"
            style={{ aspectRatio: aspect, maxHeight: "70vh", width: doc.format === "portrait" ? "min(100%, calc(70vh * 9 / 16))" : "100%" }}
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault();
              const file = e.dataTransfer.files?.[0];
              if (file) void addImage(file);
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
            Drag to move (snaps to edges, centres and other layers; Alt for no snapping), corners to resize (Shift keeps proportions), the round handle to
            rotate (Shift: 15° steps). Ctrl+Z undo, Ctrl+Shift+Z redo, Ctrl+S save.
          </p>
        </div>

        <aside className="space-y-4" aria-label="Properties">
          <section className="rounded-md border border-slate-200 p-3" aria-labelledby="thumb-channel-heading">
            <h2 id="thumb-channel-heading" className="text-sm font-semibold text-slate-900">
              Creator's channel thumbnail
            </h2>
            <form className="mt-1 flex gap-2" onSubmit={findChannels}>
              <label className="sr-only" htmlFor="thumb-channel-search">
                Channel name or creator's e-mail
              </label>
              <input
                id="thumb-channel-search"
                className={inputClass}
                placeholder="Channel name or e-mail"
                value={channelSearch}
                maxLength={200}
                onChange={(e) => setChannelSearch(e.target.value)}
              />
              <Button type="submit" disabled={busy !== null}>
                Find
              </Button>
            </form>
            {channels ? (
              channels.length ? (
                <ul className="mt-2 space-y-1" aria-label="Linked channels">
                  {channels.map((c) => (
                    <li key={c.id} className="flex items-center justify-between gap-2 text-sm text-slate-800">
                      <span className="min-w-0 truncate">
                        {c.title}
                        {c.handle ? <span className="text-slate-600"> {c.handle}</span> : null}
                      </span>
                      {c.hasThumbnail ? (
                        <Button disabled={busy !== null} onClick={() => openChannelThumbnail(c.id)} aria-label={`Open the thumbnail of ${c.title}`}>
                          Open
                        </Button>
                      ) : (
                        <span className="shrink-0 text-xs text-slate-600">No thumbnail stored</span>
                      )}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="mt-2 text-sm text-slate-700">No linked channel matches.</p>
              )
            ) : null}
          </section>
          <section className="rounded-md border border-slate-200 p-3">
            <h2 className="text-sm font-semibold text-slate-900">Layers</h2>
            {layersTopFirst.length === 0 ? <p className="mt-2 text-sm text-slate-600">Open, paste or drop an image to start.</p> : null}
            <ul className="mt-2 space-y-1">
              {layersTopFirst.map((l) => (
                <li key={l.id} className={`flex items-center gap-1 rounded px-1 ${l.id === selectedId ? "bg-sky-50 ring-1 ring-sky-300" : ""}`}>
                  <button
                    type="button"
                    className="min-w-0 flex-1 truncate py-1 text-left text-sm"
                    aria-pressed={l.id === selectedId}
                    onClick={() => dispatch({ type: "select", id: l.id })}
                  >
                    {l.kind === "text" ? `Text: ${l.text.slice(0, 20)}` : l.name}
                    {l.hidden ? " (hidden)" : ""}
                  </button>
                  <IconButton label={`Move ${l.name} up`} onClick={() => dispatch({ type: "reorder", id: l.id, to: "up" })}>
                    ↑
                  </IconButton>
                  <IconButton label={`Move ${l.name} down`} onClick={() => dispatch({ type: "reorder", id: l.id, to: "down" })}>
                    ↓
                  </IconButton>
                  <IconButton
                    label={`${l.hidden ? "Show" : "Hide"} ${l.name}`}
                    onClick={() => dispatch({ type: "update-layer", id: l.id, patch: { hidden: !l.hidden } })}
                  >
                    {l.hidden ? "◌" : "◉"}
                  </IconButton>
                  <IconButton label={`Delete ${l.name}`} onClick={() => dispatch({ type: "remove-layer", id: l.id })}>
                    ✕
                  </IconButton>
                </li>
              ))}
            </ul>
          </section>

          {selected?.kind === "text" ? <TextPanel layer={selected} onChange={patchSelected} /> : null}
          {selected?.kind === "shape" ? (
            <section className="rounded-md border border-slate-200 p-3">
              <h2 className="text-sm font-semibold text-slate-900">Shape</h2>
              <ColourInput label="Fill" value={selected.fill} onChange={(v) => patchSelected({ fill: v })} />
            </section>
          ) : null}
          {cutoutLayer ? (
            <MaskBrushPanel on={brushOn} onToggle={() => setBrushOn((v) => !v)} mode={brushMode} onMode={setBrushMode} size={brushSize} onSize={setBrushSize} />
          ) : null}
          {selected ? (
            <section className="rounded-md border border-slate-200 p-3">
              <h2 className="text-sm font-semibold text-slate-900">Position</h2>
              {selected.kind === "image" && selectedAsset ? (
                <div className="mt-2 flex flex-wrap gap-2">
                  <Button onClick={() => dispatch({ type: "update-layer", id: selected.id, patch: placeImage(selected, selectedAsset, doc.format, "fill") })}>
                    Fill the frame
                  </Button>
                  <Button onClick={() => dispatch({ type: "update-layer", id: selected.id, patch: placeImage(selected, selectedAsset, doc.format, "fit") })}>
                    Fit in the frame
                  </Button>
                </div>
              ) : null}
              <div className="mt-2 grid grid-cols-2 gap-2">
                <NumberInput label="Rotation (°)" value={Math.round(selected.rotation)} min={-180} max={180} onChange={(v) => patchSelected({ rotation: v })} />
                <NumberInput
                  label="Width"
                  value={Math.round(selected.width)}
                  min={8}
                  max={20000}
                  onChange={(v) => patchSelected(selected.kind === "text" ? {} : { width: v })}
                />
              </div>
            </section>
          ) : null}

          <section className="rounded-md border border-slate-200 p-3">
            <h2 className="text-sm font-semibold text-slate-900">AI (runs in this browser)</h2>
            <p className="mt-1 text-xs text-slate-600">{THUMBNAIL_MESSAGES.modelDownload}</p>
            <div className="mt-2 flex flex-wrap gap-2">
              <Button onClick={removeBackground} disabled={!targetImage || busy !== null}>
                Remove background
              </Button>
              <Button onClick={subjectCrop} disabled={!targetImage || busy !== null}>
                Auto-crop to subject
              </Button>
            </div>
            <div className="mt-3 flex flex-wrap items-end gap-2">
              <ColourInput
                label="Background colour"
                value={doc.background === "transparent" ? "#ffffff" : doc.background}
                onChange={(v) => dispatch({ type: "set-background", background: v })}
              />
              <Button onClick={() => dispatch({ type: "set-background", background: "transparent" })} disabled={doc.background === "transparent"}>
                Transparent
              </Button>
            </div>
            <h3 className="mt-3 text-xs font-semibold uppercase text-slate-600">Needs a server</h3>
            {ai.available ? (
              <label className="mt-1 block text-sm text-slate-700">
                Video title
                <input className={inputClass} value={videoTitle} maxLength={200} onChange={(e) => setVideoTitle(e.target.value)} />
              </label>
            ) : null}
            {ai.available ? (
              <label className="mt-1 block text-sm text-slate-700">
                Background description
                <input className={inputClass} value={bgPrompt} maxLength={300} onChange={(e) => setBgPrompt(e.target.value)} />
              </label>
            ) : null}
            <div className="mt-1 flex flex-wrap gap-2">
              <Button disabled={!ai.available || !videoTitle.trim() || busy !== null} aria-describedby="ai-server-reason" onClick={captionIdeas}>
                Caption ideas
              </Button>
              <Button disabled={!ai.available || !bgPrompt.trim() || busy !== null} aria-describedby="ai-server-reason" onClick={generateBackground}>
                Generate background
              </Button>
            </div>
            {!ai.available ? (
              <p id="ai-server-reason" className="mt-1 text-xs text-slate-700">
                {ai.reason}
              </p>
            ) : null}
            {captions.length ? (
              <ul className="mt-2 space-y-1" aria-label="Caption ideas">
                {captions.map((c) => (
                  <li key={c}>
                    <Button onClick={() => addText(c)}>Add “{c}”</Button>
                  </li>
                ))}
              </ul>
            ) : null}
          </section>

          <section className="rounded-md border border-slate-200 p-3">
            <h2 className="text-sm font-semibold text-slate-900">Adjust</h2>
            {(["brightness", "contrast", "saturation"] as const).map((k) => (
              <label key={k} className="mt-2 block text-sm capitalize text-slate-700">
                {k} {doc.adjust[k]}%
                <input
                  type="range"
                  min={0}
                  max={200}
                  value={doc.adjust[k]}
                  className="block w-full"
                  onChange={(e) => dispatch({ type: "set-adjust", key: k, value: Number(e.target.value) })}
                />
              </label>
            ))}
          </section>
        </aside>
      </div>

      <div className="grid gap-4 lg:grid-cols-2 [&>*]:min-w-0">
        <section className="rounded-md border border-slate-200 p-3">
          <h2 className="text-sm font-semibold text-slate-900">Project</h2>
          <label className="mt-2 block text-sm text-slate-700" htmlFor="thumb-name">
            Name
          </label>
          <input id="thumb-name" className={inputClass} value={name} maxLength={120} onChange={(e) => dispatch({ type: "rename", name: e.target.value })} />
          <div className="mt-3 flex flex-wrap items-end gap-2">
            <Button variant="primary" onClick={save} disabled={busy !== null}>
              {busy === "save" ? "Saving…" : "Save project"}
            </Button>
            <label className="text-sm text-slate-700">
              Export as
              <select className={`${inputClass} mt-1`} value={exportType} onChange={(e) => setExportType(e.target.value as ExportType)}>
                <option value="image/png">PNG</option>
                <option value="image/jpeg">JPEG</option>
              </select>
            </label>
            <Button variant="primary" onClick={runExport} disabled={busy !== null || !doc.layers.length}>
              {busy === "export" ? "Exporting…" : `Export ${frame.width}×${frame.height}`}
            </Button>
          </div>
          {lastExport ? (
            <p className="mt-2 text-sm text-slate-700" data-testid="last-export">
              Exported {lastExport.width}×{lastExport.height}:{" "}
              <a className="underline" href={lastExport.url} download>
                download again
              </a>
            </p>
          ) : null}
          <h3 className="mt-4 text-xs font-semibold uppercase text-slate-600">Saved projects</h3>
          {projects.length === 0 ? <p className="text-sm text-slate-600">No saved projects yet.</p> : null}
          <ul className="mt-1 space-y-1">
            {projects.map((p) => (
              <li key={p.id} className="flex items-center justify-between gap-2 text-sm">
                <span className="min-w-0 truncate">
                  {p.name} · {FORMATS[p.format].label} · <LocalTime iso={p.updatedAt} withTime />
                </span>
                <Button onClick={() => void openProject(p.id).catch((e: Error) => setError(e.message))} aria-label={`Open ${p.name}`}>
                  Open
                </Button>
              </li>
            ))}
          </ul>
        </section>
        <RecentExports exports={exports} />
      </div>
    </div>
  );
}

/** The brush that restores or erases parts of a cut-out's mask (decision 0252): every control works by keyboard. */
function MaskBrushPanel(props: {
  on: boolean;
  onToggle: () => void;
  mode: BrushMode;
  onMode: (m: BrushMode) => void;
  size: number;
  onSize: (n: number) => void;
}) {
  return (
    <section className="rounded-md border border-slate-200 p-3" aria-labelledby="thumb-brush-heading">
      <h2 id="thumb-brush-heading" className="text-sm font-semibold text-slate-900">
        Refine the cut-out
      </h2>
      <p id="thumb-brush-help" className="mt-1 text-xs text-slate-600">
        Paint on the canvas: Restore brings back what the cut-out removed, Erase removes what it left. Each stroke can be undone. Esc stops painting.
      </p>
      <Button
        className={`mt-2 ${props.on ? "ring-2 ring-slate-900" : ""}`}
        aria-pressed={props.on}
        aria-describedby="thumb-brush-help"
        onClick={props.onToggle}
      >
        Paint the mask
      </Button>
      <fieldset className="mt-2">
        <legend className="text-sm text-slate-700">Brush</legend>
        <div className="mt-1 flex gap-4">
          {(["restore", "erase"] as const).map((m) => (
            <label key={m} className="flex items-center gap-1 text-sm text-slate-700">
              <input type="radio" name="thumb-brush-mode" value={m} checked={props.mode === m} onChange={() => props.onMode(m)} />
              {m === "restore" ? "Restore" : "Erase"}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="mt-2 block text-sm text-slate-700">
        Brush size {props.size} px
        <input
          type="range"
          min={BRUSH_SIZES.min}
          max={BRUSH_SIZES.max}
          step={2}
          value={props.size}
          className="block w-full"
          onChange={(e) => props.onSize(Number(e.target.value))}
        />
      </label>
    </section>
  );
}

function IconButton({ label, onClick, children }: { label: string; onClick: () => void; children: string }) {
  return (
    <button type="button" aria-label={label} title={label} onClick={onClick} className="rounded px-1.5 py-0.5 text-sm text-slate-700 hover:bg-slate-200">
      {children}
    </button>
  );
}

function ColourInput({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  return (
    <label className="mt-2 flex items-center gap-2 text-sm text-slate-700">
      <input type="color" value={value} onChange={(e) => onChange(e.target.value)} className="h-8 w-10 rounded border border-slate-300" />
      {label}
    </label>
  );
}

function NumberInput({ label, value, min, max, onChange }: { label: string; value: number; min: number; max: number; onChange: (v: number) => void }) {
  return (
    <label className="block text-sm text-slate-700">
      {label}
      <input
        type="number"
        className={inputClass}
        value={value}
        min={min}
        max={max}
        onChange={(e) => {
          const v = Number(e.target.value);
          if (Number.isFinite(v)) onChange(Math.max(min, Math.min(max, v)));
        }}
      />
    </label>
  );
}

function TextPanel({ layer, onChange }: { layer: TextLayer; onChange: (patch: Partial<TextLayer>) => void }) {
  return (
    <section className="rounded-md border border-slate-200 p-3">
      <h2 className="text-sm font-semibold text-slate-900">Text</h2>
      <label htmlFor="thumb-text" className="mt-2 block text-sm text-slate-700">
        Text
      </label>
      <textarea id="thumb-text" className={inputClass} rows={2} maxLength={500} value={layer.text} onChange={(e) => onChange({ text: e.target.value })} />
      <div className="mt-2 grid grid-cols-2 gap-2">
        <label className="block text-sm text-slate-700">
          Font
          <select className={inputClass} value={layer.font} onChange={(e) => onChange({ font: e.target.value as TextLayer["font"] })}>
            {FONTS.map((f) => (
              <option key={f.id} value={f.id}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <NumberInput label="Size" value={layer.size} min={8} max={600} onChange={(v) => onChange({ size: v })} />
        <NumberInput label="Outline width" value={layer.outlineWidth} min={0} max={60} onChange={(v) => onChange({ outlineWidth: v })} />
      </div>
      <ColourInput label="Colour" value={layer.color} onChange={(v) => onChange({ color: v })} />
      <ColourInput label="Outline colour" value={layer.outlineColor} onChange={(v) => onChange({ outlineColor: v })} />
      <label className="mt-2 flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" checked={layer.shadow} onChange={(e) => onChange({ shadow: e.target.checked })} /> Shadow
      </label>
    </section>
  );
}

function RecentExports({ exports }: { exports: ExportSummary[] }) {
  return (
    <section className="rounded-md border border-slate-200 p-3">
      <h2 className="text-sm font-semibold text-slate-900">Recent exports</h2>
      {exports.length === 0 ? <p className="mt-1 text-sm text-slate-600">No exports yet.</p> : null}
      <ul className="mt-2 space-y-3">
        {exports.map((x) => (
          <li key={x.id} className="flex gap-3">
            <img src={x.url} alt={`${x.name} thumbnail`} className="h-16 w-auto rounded border border-slate-200 bg-slate-100 object-contain" loading="lazy" />
            <div className="min-w-0 flex-1 text-sm">
              <p className="truncate font-medium text-slate-900">{x.name}</p>
              <p className="text-slate-600">
                {x.contentType === "image/png" ? "PNG" : "JPEG"} {x.width}×{x.height} · <LocalTime iso={x.createdAt} withTime />
              </p>
              <a className="underline" href={x.url} download>
                Download
              </a>
              {x.sentAt ? <p className="text-slate-600">Sent to the creator.</p> : <SendForm exportId={x.id} name={x.name} />}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function SendForm({ exportId, name }: { exportId: string; name: string }) {
  const [email, setEmail] = useState("");
  const [status, setStatus] = useState<string | null>(null);
  const revalidator = useRevalidator();
  const id = `send-${exportId}`;
  return (
    <form
      className="mt-1 flex flex-wrap items-end gap-1"
      onSubmit={async (e) => {
        e.preventDefault();
        const form = new FormData();
        form.set("intent", "send-export");
        form.set("exportId", exportId);
        form.set("email", email);
        const res = await fetch(API, { method: "POST", body: form });
        const body = await readJson(res);
        if (res.ok && body.ok) {
          toast.success(THUMBNAIL_MESSAGES.sent);
          revalidator.revalidate();
        } else setStatus(body.error ?? "Not sent.");
      }}
    >
      <label htmlFor={id} className="sr-only">
        Creator's e-mail for {name}
      </label>
      <input
        id={id}
        type="email"
        required
        placeholder="creator@example.com"
        className="rounded-md border border-slate-300 px-2 py-1 text-sm"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Button type="submit">Send to creator</Button>
      {status ? (
        <p role="alert" className="w-full text-xs text-red-700">
          {status}
        </p>
      ) : null}
    </form>
  );
}
