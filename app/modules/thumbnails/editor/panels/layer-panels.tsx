import type { Dispatch } from "react";
import { Button } from "~/ui/button";
import { inputClass } from "~/ui/field";
import { type Adjustments, FONTS, type Layer, placeImage, type ShapeLayer, type TextLayer, type ThumbnailDocument } from "../../layers";
import { BRUSH_SIZES, type BrushMode } from "../../mask";
import type { EditorAction } from "../document";
import type { Asset } from "../render";
import { ColourInput, NumberInput } from "./inputs";

// The panels of the selected layer (text, shape, the cut-out's brush, position) and the document's
// adjustments.

export function TextPanel({ layer, onChange }: { layer: TextLayer; onChange: (patch: Partial<TextLayer>) => void }) {
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

export function ShapePanel({ layer, onChange }: { layer: ShapeLayer; onChange: (patch: Partial<ShapeLayer>) => void }) {
  return (
    <section className="rounded-md border border-slate-200 p-3">
      <h2 className="text-sm font-semibold text-slate-900">Shape</h2>
      <ColourInput label="Fill" value={layer.fill} onChange={(v) => onChange({ fill: v })} />
    </section>
  );
}

/** The brush that restores or erases parts of a cut-out's mask (decision 0252): every control works by keyboard. */
export function MaskBrushPanel(props: {
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

type PositionProps = {
  layer: Layer;
  /** The selected image's decoded image (fill or fit the frame); undefined for other layers. */
  asset: Asset | undefined;
  format: ThumbnailDocument["format"];
  dispatch: Dispatch<EditorAction>;
  onChange: (patch: Partial<Layer>) => void;
};

export function PositionPanel({ layer, asset, format, dispatch, onChange }: PositionProps) {
  return (
    <section className="rounded-md border border-slate-200 p-3">
      <h2 className="text-sm font-semibold text-slate-900">Position</h2>
      {layer.kind === "image" && asset ? (
        <div className="mt-2 flex flex-wrap gap-2">
          <Button onClick={() => dispatch({ type: "update-layer", id: layer.id, patch: placeImage(layer, asset, format, "fill") })}>Fill the frame</Button>
          <Button onClick={() => dispatch({ type: "update-layer", id: layer.id, patch: placeImage(layer, asset, format, "fit") })}>Fit in the frame</Button>
        </div>
      ) : null}
      <div className="mt-2 grid grid-cols-2 gap-2">
        <NumberInput label="Rotation (°)" value={Math.round(layer.rotation)} min={-180} max={180} onChange={(v) => onChange({ rotation: v })} />
        <NumberInput label="Width" value={Math.round(layer.width)} min={8} max={20000} onChange={(v) => onChange(layer.kind === "text" ? {} : { width: v })} />
      </div>
    </section>
  );
}

export function AdjustPanel({ adjust, dispatch }: { adjust: Adjustments; dispatch: Dispatch<EditorAction> }) {
  return (
    <section className="rounded-md border border-slate-200 p-3">
      <h2 className="text-sm font-semibold text-slate-900">Adjust</h2>
      {(["brightness", "contrast", "saturation"] as const).map((k) => (
        <label key={k} className="mt-2 block text-sm capitalize text-slate-700">
          {k} {adjust[k]}%
          <input
            type="range"
            min={0}
            max={200}
            value={adjust[k]}
            className="block w-full"
            onChange={(e) => dispatch({ type: "set-adjust", key: k, value: Number(e.target.value) })}
          />
        </label>
      ))}
    </section>
  );
}
