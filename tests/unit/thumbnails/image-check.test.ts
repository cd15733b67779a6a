import { describe, expect, it } from "vitest";
import { imageKindOf, imageProblem, imageSizeOf, MAX_IMAGE_BYTES, THUMBNAIL_MESSAGES } from "~/modules/thumbnails/messages";
import { modelBuffer, modelMetadataEntries, normalizationMetadata, withModelMetadata } from "~/modules/thumbnails/editor/tflite-metadata";
import { readFileSync } from "node:fs";
import { pngHeader } from "../../factories/images";

const png = (width: number, height: number) => pngHeader(width, height, 33);
function jpeg(width: number, height: number): Uint8Array {
  // SOI, an APP0 segment of 16 bytes, then SOF0 with height and width.
  return Uint8Array.from([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0,
    16,
    ...new Array(14).fill(0),
    0xff,
    0xc0,
    0,
    17,
    8,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    3,
    0,
    0,
  ]);
}

describe("image checks (by bytes)", () => {
  it("reads types and sizes from headers", () => {
    expect(imageKindOf(png(1, 1))).toBe("image/png");
    expect(imageSizeOf(png(1280, 720))).toEqual({ width: 1280, height: 720 });
    expect(imageSizeOf(jpeg(1080, 1920))).toEqual({ width: 1080, height: 1920 });
    expect(imageKindOf(new TextEncoder().encode("<svg xmlns=…>"))).toBeNull();
  });
  it("gives the clear messages", () => {
    expect(imageProblem(100, new TextEncoder().encode("hello, not an image"))).toBe(THUMBNAIL_MESSAGES.notImage);
    expect(imageProblem(MAX_IMAGE_BYTES + 1, png(10, 10))).toBe(THUMBNAIL_MESSAGES.tooLarge);
    expect(imageProblem(1000, png(8001, 10))).toBe(THUMBNAIL_MESSAGES.tooManyPixels);
    expect(imageProblem(1000, jpeg(10, 9000))).toBe(THUMBNAIL_MESSAGES.tooManyPixels);
    expect(imageProblem(1000, png(8000, 8000))).toBeNull();
    expect(imageProblem(0, png(1, 1))).toBe(THUMBNAIL_MESSAGES.empty);
  });
});

describe("TFLite metadata for the npm-shipped selfie model", () => {
  const model = new Uint8Array(readFileSync("node_modules/@mediapipe/selfie_segmentation/selfie_segmentation.tflite"));
  it("adds TFLITE_METADATA in front of the unchanged original bytes", () => {
    expect(modelMetadataEntries(model).map((e) => e.name)).not.toContain("TFLITE_METADATA");
    const meta = normalizationMetadata([0], [255]);
    const out = withModelMetadata(model, meta);
    const prefix = out.length - model.length;
    expect(prefix % 16).toBe(0);
    expect(out.subarray(prefix)).toEqual(model);
    expect(String.fromCharCode(...out.subarray(4, 8))).toBe("TFL3");
    const entry = modelMetadataEntries(out).find((e) => e.name === "TFLITE_METADATA");
    expect(entry).toBeDefined();
    expect(modelBuffer(out, entry?.buffer ?? -1)).toEqual(meta);
    expect(String.fromCharCode(...meta.subarray(4, 8))).toBe("M001");
    // Idempotent.
    expect(withModelMetadata(out, meta)).toBe(out);
  });
  it("refuses what is not a TFLite model", () => {
    expect(() => withModelMetadata(new Uint8Array(16), new Uint8Array(1))).toThrow("not a TFLite model");
  });
});
