import {
  type Adjustments,
  changeFormat,
  commit,
  emptyDocument,
  type Format,
  FORMATS,
  type History,
  HISTORY_LIMIT,
  historyOf,
  type Layer,
  redo,
  removeLayer,
  reorder,
  type ShapeLayer,
  type TextLayer,
  type ThumbnailDocument,
  undo,
  updateLayer,
} from "../layers";
import type { Asset } from "./render";

// The editor's document state and every change to it, as one pure reducer (issue 44 §2): the
// document with its undo history (../layers.ts does the maths), the images by asset id, the
// selection, the project's name and its stored id and version. The editor (./editor.tsx)
// dispatches; what needs the browser (decoding, measuring text, the model) happens before the
// action, so the reducer is unit-tested in tests/unit/thumbnails/editor-document.test.ts.

export type ProjectRef = { id: string; version: number };

export type EditorState = {
  history: History<ThumbnailDocument>;
  assets: ReadonlyMap<string, Asset>;
  selectedId: string | null;
  name: string;
  project: ProjectRef;
};

export type EditorAction =
  /** A new layer on top (one undo step), selected; with the image it shows when it brings one. */
  | { type: "add-layer"; layer: Layer; asset?: { id: string; asset: Asset } }
  /** Edits a layer: one undo step, or a live change during a drag (`live`). */
  | { type: "update-layer"; id: string; patch: Partial<Layer>; live?: boolean }
  | { type: "remove-layer"; id: string }
  | { type: "reorder"; id: string; to: "up" | "down" }
  | { type: "set-format"; format: Format }
  | { type: "set-background"; background: string }
  | { type: "set-adjust"; key: keyof Adjustments; value: number }
  /** A drag begins: the present goes on the undo stack, the drag's live changes make one step. */
  | { type: "begin-drag" }
  | { type: "undo" }
  | { type: "redo" }
  | { type: "select"; id: string | null }
  /** An image layer shows a new image (a cut-out, a brush stroke's copy of the mask): one undo step. */
  | { type: "replace-image"; layerId: string; assetId: string; asset: Asset; name?: string }
  /** An image's encoded file arrives (kept in the draft, uploaded on save). */
  | { type: "asset-blob"; assetId: string; blob: Blob }
  | { type: "rename"; name: string }
  /** A restored draft or an opened project replaces everything; the history starts again. */
  | { type: "load"; document: ThumbnailDocument; assets: ReadonlyMap<string, Asset>; name: string; project: ProjectRef };

export function initialEditorState(): EditorState {
  return { history: historyOf(emptyDocument()), assets: new Map(), selectedId: null, name: "Untitled thumbnail", project: { id: "", version: 0 } };
}

const withAsset = (assets: ReadonlyMap<string, Asset>, id: string, asset: Asset) => new Map(assets).set(id, asset);

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  const { history } = state;
  const doc = history.present;
  const change = (next: ThumbnailDocument): EditorState => ({ ...state, history: commit(history, next) });
  switch (action.type) {
    case "add-layer":
      return {
        ...change({ ...doc, layers: [...doc.layers, action.layer] }),
        assets: action.asset ? withAsset(state.assets, action.asset.id, action.asset.asset) : state.assets,
        selectedId: action.layer.id,
      };
    case "update-layer": {
      const next = updateLayer(doc, action.id, action.patch);
      return action.live ? { ...state, history: { ...history, present: next } } : change(next);
    }
    case "remove-layer":
      return { ...change(removeLayer(doc, action.id)), selectedId: state.selectedId === action.id ? null : state.selectedId };
    case "reorder":
      return change({ ...doc, layers: reorder(doc.layers, action.id, action.to) });
    case "set-format":
      return change(changeFormat(doc, action.format));
    case "set-background":
      return change({ ...doc, background: action.background });
    case "set-adjust":
      return change({ ...doc, adjust: { ...doc.adjust, [action.key]: action.value } });
    case "begin-drag":
      return { ...state, history: { ...history, past: [...history.past, doc].slice(-HISTORY_LIMIT), future: [] } };
    case "undo":
      return { ...state, history: undo(history) };
    case "redo":
      return { ...state, history: redo(history) };
    case "select":
      return { ...state, selectedId: action.id };
    case "replace-image": {
      const patch: Partial<Layer> = action.name ? { assetId: action.assetId, name: action.name } : { assetId: action.assetId };
      return { ...change(updateLayer(doc, action.layerId, patch)), assets: withAsset(state.assets, action.assetId, action.asset) };
    }
    case "asset-blob": {
      const asset = state.assets.get(action.assetId);
      return asset ? { ...state, assets: withAsset(state.assets, action.assetId, { ...asset, blob: action.blob }) } : state;
    }
    case "rename":
      return { ...state, name: action.name };
    case "load":
      return { history: historyOf(action.document), assets: action.assets, selectedId: null, name: action.name, project: action.project };
  }
}

/** A new layer id. */
export const newId = () => `l${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`;

/** A new text layer a quarter down the frame; its box is measured by the caller (it needs a canvas). */
export function newTextLayer(id: string, text: string, format: Format): TextLayer {
  const frame = FORMATS[format];
  return {
    id,
    kind: "text",
    name: "Text",
    text,
    font: "Anton",
    size: format === "landscape" ? 120 : 140,
    color: "#ffffff",
    outlineColor: "#000000",
    outlineWidth: 6,
    shadow: true,
    x: frame.width / 2,
    y: frame.height * 0.25,
    width: 10,
    height: 10,
    rotation: 0,
    hidden: false,
  };
}

/** A new yellow rectangle or ellipse in the centre of the frame. */
export function newShapeLayer(id: string, shape: "rect" | "ellipse", format: Format): ShapeLayer {
  const frame = FORMATS[format];
  return {
    id,
    kind: "shape",
    name: shape === "rect" ? "Rectangle" : "Ellipse",
    shape,
    fill: "#facc15",
    x: frame.width / 2,
    y: frame.height / 2,
    width: frame.width * 0.3,
    height: frame.height * 0.2,
    rotation: 0,
    hidden: false,
  };
}
