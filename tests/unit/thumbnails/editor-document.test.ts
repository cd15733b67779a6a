import { describe, expect, it } from "vitest";
import { editorReducer, type EditorState, initialEditorState, newShapeLayer, newTextLayer } from "~/modules/thumbnails/editor/document";
import type { Asset } from "~/modules/thumbnails/editor/render";
import { emptyDocument, type ImageLayer, type Layer } from "~/modules/thumbnails/layers";

// The thumbnail editor's reducer (issue 44 §2): every change to the document, its undo history,
// the images and the selection, with the exact state each action leaves.

const asset = (width: number, height: number): Asset => ({ image: {} as ImageBitmap, width, height });
const photo: ImageLayer = { id: "img", kind: "image", name: "Image", assetId: "a1", x: 640, y: 360, width: 1280, height: 720, rotation: 0, hidden: false };
const rect = newShapeLayer("box", "rect", "landscape");

/** The state after a list of actions from the empty editor. */
const run = (...actions: Parameters<typeof editorReducer>[1][]): EditorState => actions.reduce(editorReducer, initialEditorState());

describe("editorReducer", () => {
  it("starts empty and untitled", () => {
    expect(initialEditorState()).toEqual({
      history: { past: [], present: emptyDocument(), future: [] },
      assets: new Map(),
      selectedId: null,
      name: "Untitled thumbnail",
      project: { id: "", version: 0 },
    });
  });

  it("adds a layer with its image as one undo step and selects it", () => {
    const a1 = asset(1280, 720);
    const state = run({ type: "add-layer", layer: photo, asset: { id: "a1", asset: a1 } });
    expect(state.history).toEqual({ past: [emptyDocument()], present: { ...emptyDocument(), layers: [photo] }, future: [] });
    expect(state.assets).toEqual(new Map([["a1", a1]]));
    expect(state.selectedId).toBe("img");
  });

  it("a drag's live changes make one undo step; undo and redo move along it", () => {
    const added = run({ type: "add-layer", layer: rect });
    const dragged = [
      { type: "begin-drag" } as const,
      { type: "update-layer", id: "box", patch: { x: 700 }, live: true } as const,
      { type: "update-layer", id: "box", patch: { x: 720, y: 400 }, live: true } as const,
    ].reduce(editorReducer, added);
    const moved = { ...emptyDocument(), layers: [{ ...rect, x: 720, y: 400 }] };
    const before = { ...emptyDocument(), layers: [rect] };
    expect(dragged.history).toEqual({ past: [emptyDocument(), before], present: moved, future: [] });
    const undone = editorReducer(dragged, { type: "undo" });
    expect(undone.history).toEqual({ past: [emptyDocument()], present: before, future: [moved] });
    expect(editorReducer(undone, { type: "redo" }).history).toEqual(dragged.history);
    // A committed change clears the redo stack.
    const recoloured = editorReducer(undone, { type: "update-layer", id: "box", patch: { fill: "#000000" } });
    expect(recoloured.history).toEqual({
      past: [emptyDocument(), before],
      present: { ...emptyDocument(), layers: [{ ...rect, fill: "#000000" } as Layer] },
      future: [],
    });
  });

  it("removing the selected layer clears the selection; removing another keeps it", () => {
    const text = newTextLayer("t", "HELLO", "landscape");
    const both = run({ type: "add-layer", layer: rect }, { type: "add-layer", layer: text });
    expect(both.selectedId).toBe("t");
    const otherGone = editorReducer(both, { type: "remove-layer", id: "box" });
    expect(otherGone.selectedId).toBe("t");
    expect(otherGone.history.present.layers).toEqual([text]);
    const selectedGone = editorReducer(both, { type: "remove-layer", id: "t" });
    expect(selectedGone.selectedId).toBeNull();
    expect(selectedGone.history.present.layers).toEqual([rect]);
  });

  it("a cut-out replaces the layer's image and name as one undo step; the encoded file arrives later", () => {
    const a1 = asset(1280, 720);
    const cut: Asset = { ...asset(1280, 720), cutout: { original: new Uint8ClampedArray(4), alpha: new Uint8ClampedArray(1) } };
    const added = run({ type: "add-layer", layer: photo, asset: { id: "a1", asset: a1 } });
    const cutOut = editorReducer(added, { type: "replace-image", layerId: "img", assetId: "a2", asset: cut, name: "Cut-out" });
    expect(cutOut.history.present.layers).toEqual([{ ...photo, assetId: "a2", name: "Cut-out" }]);
    expect(cutOut.history.past).toEqual([emptyDocument(), { ...emptyDocument(), layers: [photo] }]);
    expect(cutOut.assets).toEqual(
      new Map([
        ["a1", a1],
        ["a2", cut],
      ]),
    );
    // Undo shows the photo again; its image is still there.
    expect(editorReducer(cutOut, { type: "undo" }).history.present.layers).toEqual([photo]);
    const blob = new Blob(["png"], { type: "image/png" });
    expect(editorReducer(cutOut, { type: "asset-blob", assetId: "a2", blob }).assets.get("a2")).toEqual({ ...cut, blob });
    // A file for an image no longer held changes nothing.
    expect(editorReducer(cutOut, { type: "asset-blob", assetId: "gone", blob })).toBe(cutOut);
  });

  it("format, background and adjustments are undo steps", () => {
    const state = run(
      { type: "set-background", background: "#ff0000" },
      { type: "set-adjust", key: "contrast", value: 140 },
      { type: "set-format", format: "portrait" },
    );
    expect(state.history.present).toEqual({
      format: "portrait",
      background: "#ff0000",
      adjust: { brightness: 100, contrast: 140, saturation: 100 },
      layers: [],
    });
    expect(state.history.past).toHaveLength(3);
  });

  it("loading a project replaces everything and starts a new history", () => {
    const a9 = asset(640, 360);
    const document = { ...emptyDocument("portrait"), layers: [photo] };
    const edited = run({ type: "add-layer", layer: rect }, { type: "rename", name: "Draft" });
    expect(edited.name).toBe("Draft");
    const loaded = editorReducer(edited, { type: "load", document, assets: new Map([["a1", a9]]), name: "Kitchen fail", project: { id: "p1", version: 3 } });
    expect(loaded).toEqual({
      history: { past: [], present: document, future: [] },
      assets: new Map([["a1", a9]]),
      selectedId: null,
      name: "Kitchen fail",
      project: { id: "p1", version: 3 },
    });
  });

  it("new text and shape layers sit where the editor puts them", () => {
    expect(newTextLayer("t", "YOUR TITLE", "portrait")).toMatchObject({ x: 540, y: 480, size: 140, font: "Anton", outlineWidth: 6 });
    expect(newShapeLayer("s", "ellipse", "landscape")).toMatchObject({ name: "Ellipse", x: 640, y: 360, width: 384, height: 144, fill: "#facc15" });
  });
});
