import { type Dispatch, useState } from "react";
import { useRevalidator } from "react-router";
import { Button } from "~/ui/button";
import { inputClass } from "~/ui/field";
import { LocalTime } from "~/ui/local-time";
import { toast } from "~/ui/toaster";
import { type ExportType, FORMATS } from "../../layers";
import { THUMBNAIL_MESSAGES } from "../../messages";
import type { ExportSummary, ProjectSummary } from "../../types";
import { downloadBlob, isOffline, renderExport, type RunTask, storeExport } from "../api";
import type { EditorAction, EditorState } from "../document";

// The project: its name, save, export (PNG or JPEG at the format's size, stored and downloaded),
// and the saved projects to open.

type Props = {
  state: EditorState;
  dispatch: Dispatch<EditorAction>;
  projects: ProjectSummary[];
  busy: string | null;
  run: RunTask;
  setError: (message: string | null) => void;
  onSave: () => void;
  onOpen: (projectId: string) => void;
};

export function ProjectPanel({ state, dispatch, projects, busy, run, setError, onSave, onOpen }: Props) {
  const [exportType, setExportType] = useState<ExportType>("image/png");
  const [lastExport, setLastExport] = useState<ExportSummary | null>(null);
  const revalidator = useRevalidator();
  const { name, project, assets } = state;
  const doc = state.history.present;
  const frame = FORMATS[doc.format];

  function runExport() {
    return run(
      "export",
      async () => {
        // Drawn here, so it works offline: without a connection the file is saved to the device
        // only, and Recent exports do not list it (issue 42 §2).
        const { blob, filename } = await renderExport(doc, assets, { name, type: exportType });
        let stored: ExportSummary;
        try {
          stored = await storeExport(blob, filename, { name, projectId: project.id, format: doc.format });
        } catch (error) {
          if (!isOffline(error)) throw error;
          downloadBlob(blob, filename);
          toast.success(THUMBNAIL_MESSAGES.exportedOffline, { description: `${filename} (${frame.width}×${frame.height})` });
          return;
        }
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

  return (
    <section className="rounded-md border border-slate-200 p-3">
      <h2 className="text-sm font-semibold text-slate-900">Project</h2>
      <label className="mt-2 block text-sm text-slate-700" htmlFor="thumb-name">
        Name
      </label>
      <input id="thumb-name" className={inputClass} value={name} maxLength={120} onChange={(e) => dispatch({ type: "rename", name: e.target.value })} />
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <Button variant="primary" onClick={onSave} disabled={busy !== null}>
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
            <Button onClick={() => onOpen(p.id)} aria-label={`Open ${p.name}`}>
              Open
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
