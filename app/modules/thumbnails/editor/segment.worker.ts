/// <reference lib="webworker" />
import { ImageSegmenter } from "@mediapipe/tasks-vision";
import { modelUrl, wasmBinaryUrl, wasmLoaderUrl } from "./model-files";
import type { SegmentReply, SegmentRequest } from "./protocol";
import { normalizationMetadata, withModelMetadata } from "./tflite-metadata";

// The background-removal model, in its own thread so the page stays responsive: MediaPipe Tasks'
// ImageSegmenter (Apache-2.0) on the CPU (WebAssembly + XNNPACK), running the selfie segmentation
// model shipped in @mediapipe/selfie_segmentation (Apache-2.0). Every file comes from our own
// origin (Vite copies them into the build's assets); nothing is fetched from another host. The
// files are fetched here with progress, only when the first AI action asks for them.
// See docs/decisions/0181-offline-background-removal.md.

declare const self: DedicatedWorkerGlobalScope;

// MediaPipe's WebAssembly writes TensorFlow Lite's informational lines ("INFO: Created TensorFlow
// Lite XNNPACK delegate for CPU.") to stderr, which Emscripten prints with console.error: the page's
// console showed an error on every first background removal. MediaPipe's maintainers call it "not
// an error log, an information log" (https://github.com/google-ai-edge/mediapipe/issues/3017).
// Those lines go to console.info; anything else still reaches console.error (issue 42 §4).
const consoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  if (typeof args[0] === "string" && args[0].startsWith("INFO: ")) console.info(...args);
  else consoleError(...args);
};
const post = (m: SegmentReply, transfer: Transferable[] = []) => self.postMessage(m, transfer);

let segmenter: Promise<ImageSegmenter> | null = null;

async function download(url: string, weight: number, offset: number): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`The model file could not be loaded (${res.status}).`);
  const total = Number(res.headers.get("Content-Length")) || 0;
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let seen = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    seen += value.byteLength;
    if (total) post({ type: "progress", stage: "loading", percent: Math.round(offset + (weight * seen) / total) });
  }
  const out = new Uint8Array(seen);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function load(): Promise<ImageSegmenter> {
  segmenter ??= (async () => {
    post({ type: "progress", stage: "loading", percent: 0 });
    const [wasm, model] = await Promise.all([download(wasmBinaryUrl, 95, 0), download(modelUrl, 5, 95)]);
    const wasmUrl = URL.createObjectURL(new Blob([wasm as BlobPart], { type: "application/wasm" }));
    // The model's input is float 0..1: (pixel - 0) / 255 (docs/decisions/0181).
    const patched = withModelMetadata(model, normalizationMetadata([0], [255]));
    const s = await ImageSegmenter.createFromOptions(
      { wasmLoaderPath: new URL(wasmLoaderUrl, self.location.href).href, wasmBinaryPath: wasmUrl },
      {
        baseOptions: { modelAssetBuffer: patched, delegate: "CPU" },
        runningMode: "IMAGE",
        outputConfidenceMasks: true,
        outputCategoryMask: false,
      },
    );
    post({ type: "progress", stage: "loading", percent: 100 });
    return s;
  })();
  segmenter.catch(() => {
    segmenter = null;
  });
  return segmenter;
}

self.onmessage = async (event: MessageEvent<SegmentRequest>) => {
  const req = event.data;
  try {
    const t0 = performance.now();
    const s = await load();
    const t1 = performance.now();
    post({ type: "progress", stage: "running", percent: 0 });
    const result = s.segment(req.image);
    const masks = result.confidenceMasks ?? [];
    const mask = masks[masks.length - 1];
    if (!mask) throw new Error("The model returned no mask.");
    const data = mask.getAsFloat32Array().slice();
    const width = mask.width;
    const height = mask.height;
    result.close();
    req.image.close();
    post({ type: "result", id: req.id, mask: data, width, height, loadMs: Math.round(t1 - t0), runMs: Math.round(performance.now() - t1) }, [data.buffer]);
  } catch (error) {
    post({ type: "error", id: req.id, message: error instanceof Error ? error.message : String(error) });
  }
};
