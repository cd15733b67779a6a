import { modelUrl, wasmBinaryUrl, wasmLoaderUrl } from "./model-files";
import type { SegmentReply } from "./protocol";
// The worker's bundle, built under /ai-thumbnail-editor/offline/ (vite.config.ts) so that the
// editor's service worker controls it and can answer its downloads offline (decision 0251).
import segmentWorkerUrl from "./segment.worker.ts?worker&url";

// The page's side of the segmentation worker: created on the first AI action, kept for the next.
// `.client`: the server build replaces this module by an empty one, so the worker bundle and the
// MediaPipe files it pulls in (13 MB of wasm, its loader, the model) stay out of the Worker upload
// (docs/decisions/0231).

/** Every file the first background removal downloads: what the service worker keeps once it has been used. */
export const SEGMENTER_FILES = [segmentWorkerUrl, wasmLoaderUrl, wasmBinaryUrl, modelUrl];

export type Mask = { mask: Float32Array; width: number; height: number; loadMs: number; runMs: number };
let worker: Worker | null = null;
let nextId = 1;

export function segment(image: ImageBitmap, onProgress: (stage: "loading" | "running", percent: number) => void): Promise<Mask> {
  // A module worker in both the dev server (which serves ES modules) and the build (vite.config.ts:
  // worker.format "es"): a classic worker fails on the dev server ("Cannot use import statement
  // outside a module").
  worker ??= new Worker(segmentWorkerUrl, { type: "module", name: "thumbnail-segmenter" });
  const w = worker;
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const onMessage = (e: MessageEvent<SegmentReply>) => {
      const m = e.data;
      if (m.type === "progress") return onProgress(m.stage, m.percent);
      if (m.id !== id) return;
      w.removeEventListener("message", onMessage);
      w.removeEventListener("error", onError);
      if (m.type === "error") reject(new Error(m.message));
      else resolve({ mask: m.mask, width: m.width, height: m.height, loadMs: m.loadMs, runMs: m.runMs });
    };
    const onError = (e: ErrorEvent) => {
      w.removeEventListener("message", onMessage);
      w.removeEventListener("error", onError);
      worker = null;
      reject(new Error(e.message || "The background removal could not start."));
    };
    w.addEventListener("message", onMessage);
    w.addEventListener("error", onError);
    w.postMessage({ id, image }, [image]);
  });
}
