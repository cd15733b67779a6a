// The background-removal model's files, as the build names them (content-hashed, served from our
// own origin): read by the segmentation worker, and by the page, which tells the editor's service
// worker to keep them (./offline.client.ts).
// The ES-module build of MediaPipe's loader: a module worker has no importScripts(), so MediaPipe
// falls back to import(), and this build sets globalThis.ModuleFactory for it.
import wasmLoaderUrl from "@mediapipe/tasks-vision/vision_wasm_module_internal.js?url";
import wasmBinaryUrl from "@mediapipe/tasks-vision/vision_wasm_module_internal.wasm?url";
import modelUrl from "@mediapipe/selfie_segmentation/selfie_segmentation.tflite?url";

export { modelUrl, wasmBinaryUrl, wasmLoaderUrl };
