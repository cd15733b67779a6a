import type { Dispatch } from "react";
import type { EditorAction, EditorState } from "../document";
import { IconButton } from "./inputs";

// The layers, top first: select, move up or down, show or hide, delete.

export function LayersPanel({ state, dispatch }: { state: EditorState; dispatch: Dispatch<EditorAction> }) {
  const { selectedId } = state;
  const layersTopFirst = [...state.history.present.layers].reverse();
  return (
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
  );
}
