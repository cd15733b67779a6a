import { type ChangeEvent, type Dispatch, useRef } from "react";
import { Button } from "~/ui/button";
import { type Format, FORMATS, type Placement } from "../../layers";
import type { EditorAction, EditorState } from "../document";

// The editor's toolbar: open an image, add text and shapes, crop, how new photos are placed, the
// safe-area guides, undo and redo.

type Props = {
  state: EditorState;
  dispatch: Dispatch<EditorAction>;
  placement: Placement;
  onPlacement: (p: Placement) => void;
  showSafe: boolean;
  onShowSafe: (on: boolean) => void;
  onImageFile: (file: File) => void;
  onAddText: () => void;
  onAddShape: (shape: "rect" | "ellipse") => void;
};

export function Toolbar({ state, dispatch, placement, onPlacement, showSafe, onShowSafe, onImageFile, onAddText, onAddShape }: Props) {
  const fileRef = useRef<HTMLInputElement>(null);
  const { history } = state;
  const doc = history.present;

  function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (file) onImageFile(file);
  }

  return (
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
      <Button onClick={() => onAddText()}>Add text</Button>
      <Button onClick={() => onAddShape("rect")}>Add rectangle</Button>
      <Button onClick={() => onAddShape("ellipse")}>Add ellipse</Button>
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
            onClick={() => onPlacement(p)}
          >
            {p === "fill" ? "Fill" : "Fit"}
          </Button>
        ))}
      </fieldset>
      <label className="flex items-center gap-1 text-sm text-slate-700">
        <input type="checkbox" checked={showSafe} onChange={(e) => onShowSafe(e.target.checked)} /> Safe-area guides
      </label>
      <span className="mx-1 h-6 w-px bg-slate-300" aria-hidden="true" />
      <Button onClick={() => dispatch({ type: "undo" })} disabled={!history.past.length} aria-keyshortcuts="Control+Z">
        Undo
      </Button>
      <Button onClick={() => dispatch({ type: "redo" })} disabled={!history.future.length} aria-keyshortcuts="Control+Shift+Z">
        Redo
      </Button>
    </div>
  );
}
