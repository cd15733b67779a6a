// The editor says what background removal downloads (issue 31 §2: it said "about 13 MB", the
// download is 4.2 MB): the figure on the page is the packages' files as sent (gzip), measured here
// so that a new runtime or model cannot leave the page saying something else.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { MODEL_DOWNLOAD_MB, THUMBNAIL_MESSAGES } from "~/modules/thumbnails/messages";

const tasks = join(process.cwd(), "node_modules/@mediapipe/tasks-vision");
const selfie = join(process.cwd(), "node_modules/@mediapipe/selfie_segmentation");
/** The files editor/segment.worker.ts imports with ?url (the worker's own chunk, ~46 KB gzip, is added below). */
const FILES = [
  join(tasks, "wasm/vision_wasm_module_internal.wasm"),
  join(tasks, "wasm/vision_wasm_module_internal.js"),
  join(selfie, "selfie_segmentation.tflite"),
];
const WORKER_GZIP_BYTES = 46_000;

describe("the background-removal download the editor announces", () => {
  it("is the measured size of the runtime, its loader, the model and the worker, gzip, to 0.1 MB", () => {
    const sent = FILES.reduce((sum, f) => sum + gzipSync(readFileSync(f), { level: 9 }).length, WORKER_GZIP_BYTES);
    expect(Math.abs(sent / 1e6 - MODEL_DOWNLOAD_MB)).toBeLessThan(0.1);
    expect(THUMBNAIL_MESSAGES.modelDownload).toContain(`about ${MODEL_DOWNLOAD_MB} MB`);
    expect(THUMBNAIL_MESSAGES.modelDownload).not.toContain("13 MB");
  });
});
