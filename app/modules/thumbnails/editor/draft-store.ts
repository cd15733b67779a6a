import type { ThumbnailDocument } from "../layers";

// The editor's copy of the open project in the browser (IndexedDB): written on every change, so a
// failed save or a closed tab loses no work; cleared when a save succeeds and re-written after.

export type Draft = {
  name: string;
  projectId: string;
  version: number;
  document: ThumbnailDocument;
  /** Images not yet stored on the server, by asset id. */
  blobs: Record<string, Blob>;
  savedAt: string | null;
};

const DB = "shortbeat-thumbnails";
const STORE = "drafts";
const KEY = "current";

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

export async function saveDraft(draft: Draft): Promise<void> {
  const db = await open();
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction(STORE, "readwrite");
    tx.objectStore(STORE).put(draft, KEY);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

export async function loadDraft(): Promise<Draft | null> {
  const db = await open();
  const draft = await new Promise<Draft | null>((resolve, reject) => {
    const req = db.transaction(STORE, "readonly").objectStore(STORE).get(KEY);
    req.onsuccess = () => resolve((req.result as Draft | undefined) ?? null);
    req.onerror = () => reject(req.error);
  });
  db.close();
  return draft;
}
