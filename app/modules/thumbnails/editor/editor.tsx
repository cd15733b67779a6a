import { type KeyboardEvent, useCallback, useEffect, useReducer, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { toast } from "~/ui/toaster";
import { type ImageLayer, type Layer, type Placement, placeImage } from "../layers";
import { BRUSH_SIZES, type BrushMode } from "../mask";
import { THUMBNAIL_MESSAGES } from "../messages";
import type { AiStatus, ExportSummary, ProjectSummary } from "../types";
import { draftOf, isOffline, loadProject, openImageFile, restoreDraft, saveProject } from "./api";
import { EditorCanvas } from "./canvas";
import { editorReducer, initialEditorState, newId, newShapeLayer, newTextLayer } from "./document";
import { saveDraft } from "./draft-store";
import { keepEditorOffline } from "./offline.client";
import { AiPanel } from "./panels/ai-panel";
import { ChannelPanel } from "./panels/channel-panel";
import { AdjustPanel, MaskBrushPanel, PositionPanel, ShapePanel, TextPanel } from "./panels/layer-panels";
import { LayersPanel } from "./panels/layers-panel";
import { ProjectPanel } from "./panels/project-panel";
import { RecentExports } from "./panels/recent-exports";
import { Toolbar } from "./panels/toolbar";
import { FONT_URLS, loadFonts, measureText } from "./render";
import { SEGMENTER_FILES } from "./segmenter.client";

// The thumbnail editor (issue 19). The document, its undo history, the images, the selection and
// the project are one reducer (./document.ts); the canvas (./canvas.tsx) and the panels
// (./panels/) show them and dispatch. This file wires them: the fonts, the browser's copy (kept in
// IndexedDB until a save succeeds), paste, the busy tasks, the keyboard, save and open. API:
// /ai-thumbnail-editor/api (./api.ts).

type Props = { projects: ProjectSummary[]; exports: ExportSummary[]; ai: AiStatus };

export function ThumbnailEditor({ projects, exports, ai }: Props) {
  const [state, dispatch] = useReducer(editorReducer, undefined, initialEditorState);
  const { history, assets, selectedId, name, project } = state;
  const doc = history.present;
  const [showSafe, setShowSafe] = useState(true);
  const [busy, setBusy] = useState<string | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fontsReady, setFontsReady] = useState(false);
  const [placement, setPlacement] = useState<Placement>("fill");
  const [brushOn, setBrushOn] = useState(false);
  const [brushMode, setBrushMode] = useState<BrushMode>("restore");
  const [brushSize, setBrushSize] = useState<number>(BRUSH_SIZES.default);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const restored = useRef(false);
  const revalidator = useRevalidator();

  const selected = doc.layers.find((l) => l.id === selectedId) ?? null;
  const selectedAsset = selected?.kind === "image" ? assets.get(selected.assetId) : undefined;
  /** The selected layer when it is a cut-out made in this page: the brush can refine its mask. */
  const cutoutLayer = selected?.kind === "image" && !selected.hidden && selectedAsset?.cutout ? selected : null;
  /** The image the model works on: the selected one, else the top visible image. */
  const targetImage = (selected?.kind === "image" ? selected : [...doc.layers].reverse().find((l) => l.kind === "image" && !l.hidden)) as
    | ImageLayer
    | undefined;

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
    void restoreDraft()
      .then((draft) => {
        if (!draft) return;
        dispatch(draft);
        toast.info("Draft restored", { description: "Your unsaved work from this browser is back." });
      })
      .catch(() => {});
  }, []);

  // Keep the browser's copy (debounced).
  useEffect(() => {
    if (!restored.current) return;
    const t = setTimeout(() => {
      void saveDraft(draftOf(doc, assets, name, project)).catch(() => {});
    }, 400);
    return () => clearTimeout(t);
  }, [doc, assets, name, project]);

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

  /** Runs one of the editor's tasks (see RunTask in ./api.ts). */
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

  function addText(text = "YOUR TITLE") {
    const ctx = canvasRef.current?.getContext("2d");
    const base = newTextLayer(newId(), text, doc.format);
    const box = ctx ? measureText(ctx, base) : { width: 600, height: 150 };
    dispatch({ type: "add-layer", layer: { ...base, ...box } });
  }

  /** Edits the selected layer; text layers re-measure their box. */
  function patchSelected(patch: Partial<Layer>) {
    if (!selected) return;
    let next = { ...selected, ...patch } as Layer;
    if (next.kind === "text") {
      const ctx = canvasRef.current?.getContext("2d");
      if (ctx) next = { ...next, ...measureText(ctx, next) };
    }
    dispatch({ type: "update-layer", id: selected.id, patch: next });
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

  // ---- Save / open ------------------------------------------------------------------------------

  // Save pressed offline waits for the connection, then saves what the editor holds by then (the
  // draft is kept in this browser meanwhile: issue 42 §2).
  const [saveWaiting, setSaveWaiting] = useState(false);
  const saveNow = useRef<() => Promise<void>>(async () => {});
  useEffect(() => {
    if (!saveWaiting) return;
    const go = () => {
      setSaveWaiting(false);
      void saveNow.current();
    };
    window.addEventListener("online", go);
    return () => window.removeEventListener("online", go);
  }, [saveWaiting]);

  function waitToSave() {
    setSaveWaiting(true);
    toast.info("Save waiting for the connection", { description: THUMBNAIL_MESSAGES.saveWaiting });
  }

  function save() {
    if (!navigator.onLine) {
      waitToSave();
      return Promise.resolve();
    }
    return runBusy(
      "save",
      async () => {
        let id: string;
        try {
          id = await saveProject(state);
        } catch (error) {
          if (!isOffline(error)) throw error;
          waitToSave();
          return;
        }
        // Reload from the server: images now have stored ids and signed URLs.
        await openProject(id, true);
        toast.success(THUMBNAIL_MESSAGES.saved);
        revalidator.revalidate();
      },
      (message) => {
        setError(`${message} Your work is kept in this browser.`);
        toast.error("Project not saved", { description: message });
      },
    );
  }

  saveNow.current = save;

  async function openProject(id: string, quiet = false) {
    const loaded = await loadProject(id);
    dispatch(loaded);
    if (!quiet) toast.success("Project opened", { description: loaded.name });
  }

  const onImage = (image: Blob) => addImage(image);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the editor's keyboard shortcuts (listed in the help) work anywhere inside it.
    <div className="space-y-4" onKeyDown={onKeyDown}>
      <Toolbar
        state={state}
        dispatch={dispatch}
        placement={placement}
        onPlacement={setPlacement}
        showSafe={showSafe}
        onShowSafe={setShowSafe}
        onImageFile={(file) => void addImage(file)}
        onAddText={() => addText()}
        onAddShape={(shape) => dispatch({ type: "add-layer", layer: newShapeLayer(newId(), shape, doc.format) })}
      />

      {error ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <p aria-live="polite" className="min-h-5 text-sm text-slate-700">
        {progress ?? ""}
      </p>

      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <EditorCanvas
          state={state}
          dispatch={dispatch}
          canvasRef={canvasRef}
          selected={selected}
          brushLayer={brushOn ? cutoutLayer : null}
          brush={{ mode: brushMode, size: brushSize }}
          showSafe={showSafe}
          fontsReady={fontsReady}
          onImageFile={(file) => void addImage(file)}
        />

        <aside className="space-y-4" aria-label="Properties">
          <ChannelPanel busy={busy} run={runBusy} onImage={onImage} />
          <LayersPanel state={state} dispatch={dispatch} />
          {selected?.kind === "text" ? <TextPanel layer={selected} onChange={patchSelected} /> : null}
          {selected?.kind === "shape" ? <ShapePanel layer={selected} onChange={patchSelected} /> : null}
          {cutoutLayer ? (
            <MaskBrushPanel on={brushOn} onToggle={() => setBrushOn((v) => !v)} mode={brushMode} onMode={setBrushMode} size={brushSize} onSize={setBrushSize} />
          ) : null}
          {selected ? <PositionPanel layer={selected} asset={selectedAsset} format={doc.format} dispatch={dispatch} onChange={patchSelected} /> : null}
          <AiPanel
            ai={ai}
            doc={doc}
            assets={assets}
            targetImage={targetImage}
            dispatch={dispatch}
            busy={busy}
            run={runBusy}
            setError={setError}
            setProgress={setProgress}
            onAddText={addText}
            onImage={onImage}
          />
          <AdjustPanel adjust={doc.adjust} dispatch={dispatch} />
        </aside>
      </div>

      <div className="grid gap-4 lg:grid-cols-2 [&>*]:min-w-0">
        <ProjectPanel
          state={state}
          dispatch={dispatch}
          projects={projects}
          busy={busy}
          run={runBusy}
          setError={setError}
          onSave={save}
          onOpen={(id) => void openProject(id).catch((e: Error) => setError(e.message))}
        />
        <RecentExports exports={exports} />
      </div>
    </div>
  );
}
