import { exportFilename, exportSpec, type ExportType, type ThumbnailDocument } from "../layers";
import { imageProblem, THUMBNAIL_MESSAGES } from "../messages";
import type { ExportSummary, LoadedProject } from "../types";
import type { EditorAction, EditorState, ProjectRef } from "./document";
import { type Draft, loadDraft } from "./draft-store";
import { type Asset, renderDocument } from "./render";

// What the editor asks the server (/ai-thumbnail-editor/api, routes/admin/thumbnails-api.ts) and the
// browser (files, the IndexedDB draft) for. The panels call these inside a task (RunTask).

export const API = "/ai-thumbnail-editor/api";

/**
 * Runs one of the editor's tasks (./editor.tsx): marks it busy (every task button waits), clears the
 * last error, shows a failure through `onError` (the error line by default), and frees the buttons
 * and the progress line afterwards, whatever happened.
 */
export type RunTask = (kind: string, work: () => Promise<void>, onError?: (message: string) => void) => Promise<void>;

export async function readJson(res: Response): Promise<{ ok?: boolean; error?: string; [k: string]: unknown }> {
  try {
    return (await res.json()) as { ok?: boolean; error?: string };
  } catch {
    return { ok: false, error: `The server answered ${res.status}.` };
  }
}

/** Checks a file by its bytes, size and pixel size, then decodes it. */
export async function openImageFile(file: Blob): Promise<{ asset: Asset } | { error: string }> {
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

/** An image the API answers (a channel thumbnail, a generated background). */
export async function imageFromApi(form: FormData, failure: string): Promise<Blob> {
  const res = await fetch(API, { method: "POST", body: form });
  if (!res.ok || !(res.headers.get("Content-Type") ?? "").startsWith("image/")) {
    const body = await readJson(res);
    throw new Error(body.error ?? failure);
  }
  return res.blob();
}

type Load = Extract<EditorAction, { type: "load" }>;

/** The browser's copy, with its images; null when there is none worth restoring. */
export async function restoreDraft(): Promise<Load | null> {
  const draft = await loadDraft();
  if (!draft?.document.layers.length) return null;
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
  return { type: "load", document: draft.document, assets: map, name: draft.name, project: { id: draft.projectId, version: draft.version } };
}

/** The draft of the editor's state: the images not yet stored on the server go with it. */
export function draftOf(doc: ThumbnailDocument, assets: ReadonlyMap<string, Asset>, name: string, project: ProjectRef): Draft {
  const blobs: Record<string, Blob> = {};
  for (const l of doc.layers) {
    if (l.kind === "image") {
      const a = assets.get(l.assetId);
      if (a?.blob) blobs[l.assetId] = a.blob;
    }
  }
  return { name, projectId: project.id, version: project.version, document: doc, blobs, savedAt: null };
}

export async function loadProject(id: string): Promise<Load> {
  const res = await fetch(`${API}?project=${encodeURIComponent(id)}`);
  const body = (await readJson(res)) as unknown as LoadedProject & { error?: string };
  if (!res.ok) throw new Error(body.error ?? "The project could not be opened.");
  const map = new Map<string, Asset>();
  for (const [assetId, url] of Object.entries(body.assets)) map.set(assetId, await fetchAsset(url, false));
  return { type: "load", document: body.document, assets: map, name: body.name, project: { id: body.id, version: body.version } };
}

/** Saves the project with its new images; answers the stored project's id. */
export async function saveProject({ history, assets, name, project }: EditorState): Promise<string> {
  const doc = history.present;
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
  return String(body.id);
}

/** Draws the document at its export size, in this browser (no network): the file and its name. */
export async function renderExport(
  doc: ThumbnailDocument,
  assets: ReadonlyMap<string, Asset>,
  { name, type }: { name: string; type: ExportType },
): Promise<{ blob: Blob; filename: string }> {
  const spec = exportSpec(doc.format, type);
  const canvas = document.createElement("canvas");
  canvas.width = spec.width;
  canvas.height = spec.height;
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("This browser cannot draw the thumbnail.");
  renderDocument(ctx, doc, assets, type === "image/jpeg");
  const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, spec.type, spec.quality));
  if (!blob) throw new Error("The thumbnail could not be rendered.");
  return { blob, filename: exportFilename(name, doc.format, type) };
}

/** Whether a failed request failed for want of a network (fetch rejects with a TypeError), not by our answer. */
export function isOffline(error: unknown): boolean {
  return !navigator.onLine || error instanceof TypeError;
}

/** Saves a file to the person's device (the browser's download) from memory. */
export function downloadBlob(blob: Blob, filename: string): void {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
}

/** Stores an export with the project (Recent exports, a signed link); answers what was stored. */
export async function storeExport(
  blob: Blob,
  filename: string,
  { name, projectId, format }: { name: string; projectId: string; format: string },
): Promise<ExportSummary> {
  const form = new FormData();
  form.set("intent", "export");
  form.set("projectId", projectId);
  form.set("name", name);
  form.set("format", format);
  form.set("file", blob, filename);
  const res = await fetch(API, { method: "POST", body: form });
  const body = await readJson(res);
  if (!res.ok || !body.ok) throw new Error(body.error ?? "The export could not be stored.");
  return body.export as ExportSummary;
}
