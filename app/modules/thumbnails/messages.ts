// The thumbnail editor's limits and messages (client-safe, no zod): the page checks a file with
// them before anything is sent, the server again as the authority.

import { byteAt, i32le, u16be, u16le, u24le, u32be } from "~/lib/bytes";

export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
export const MAX_IMAGE_SIDE = 8000;
export const PROJECT_NAME_MAX = 120;
/** The layers JSON of one project (images are stored apart, referenced by id). */
export const DOCUMENT_MAX_CHARS = 200_000;
export const MAX_LAYERS = 100;
export const RECENT_EXPORTS = 12;

/**
 * What the first background removal downloads, in MB as sent (gzip): the MediaPipe wasm runtime
 * (13.0 MB, 3.83 MB gzip), its loader (81 KB), the selfie model (212 KB) and the segmentation
 * worker (46 KB): 4.17 MB, 13.7 MB unpacked. Measured on the build's assets (issue 31 §2);
 * tests/unit/thumbnails/model-size.test.ts keeps it true when the packages change.
 */
export const MODEL_DOWNLOAD_MB = 4.2;

export const THUMBNAIL_MESSAGES = {
  modelDownload: `The first background removal downloads the model and its runtime (about ${MODEL_DOWNLOAD_MB} MB); it then runs in this browser, and your images are not uploaded for it.`,
  notImage: "This file is not an image. Choose a PNG, JPEG, WebP or GIF file.",
  tooLarge: "This image is larger than 20 MB. Choose a smaller file.",
  tooManyPixels: "This image is larger than 8,000 pixels on a side. Choose a smaller image.",
  empty: "This file is empty.",
  saved: "Project saved",
  conflict: "This project was saved elsewhere since you opened it. Reopen it to see the newer version; your work is still kept in this browser.",
  exported: "Thumbnail exported",
  exportedOffline: "Thumbnail exported to this device",
  /** Save pressed offline: the project waits for the connection (the draft stays in this browser). */
  saveWaiting: "You're offline: the project will be saved when the connection is back. Your work is kept in this browser.",
  sent: "Thumbnail sent to the creator",
  alreadySent: "This export has already been sent.",
  noCreator: "No creator with that e-mail address.",
  noChannelThumbnail: "This channel has no thumbnail stored yet. Refresh it on the Channels page, then try again.",
  channelThumbnailFailed: "The channel's thumbnail could not be fetched from YouTube. Try again later.",
  noSubject: "No subject was found in this photo. It is unchanged.",
  generateFailed: "Workers AI returned no image. Try again or change the description.",
  aiUnavailable: "Needs the Workers AI binding (AI), which is not configured on this deployment.",
} as const;

export type ImageKind = "image/png" | "image/jpeg" | "image/webp" | "image/gif";

/** The image type of a file by its first bytes; null when it is no image we accept. */
export function imageKindOf(b: Uint8Array): ImageKind | null {
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return "image/png";
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b.length >= 6 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return "image/gif";
  if (b.length >= 12 && b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50)
    return "image/webp";
  return null;
}

/** Width and height from an image's header bytes (PNG IHDR, JPEG SOFn, GIF, WebP); null when not found. */
export function imageSizeOf(b: Uint8Array): { width: number; height: number } | null {
  const kind = imageKindOf(b);
  if (kind === "image/png" && b.length >= 24) return { width: u32be(b, 16), height: u32be(b, 20) };
  if (kind === "image/gif" && b.length >= 10) return { width: u16le(b, 6), height: u16le(b, 8) };
  if (kind === "image/webp" && b.length >= 30) {
    const chunk = String.fromCharCode(...b.subarray(12, 16));
    if (chunk === "VP8X") return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
    if (chunk === "VP8L") {
      const bits = i32le(b, 21);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    if (chunk === "VP8 ") return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
    return null;
  }
  if (kind === "image/jpeg") {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) {
        i++;
        continue;
      }
      const marker = byteAt(b, i + 1); // i + 9 < b.length: present
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0xff) {
        i += marker === 0xff ? 1 : 2;
        continue;
      }
      const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isSof) return { width: u16be(b, i + 7), height: u16be(b, i + 5) };
      i += 2 + u16be(b, i + 2);
    }
  }
  return null;
}

/** The message for a file that cannot be opened, or null when it is fine. `head` = its first 512 KB. */
export function imageProblem(size: number, head: Uint8Array): string | null {
  if (size === 0) return THUMBNAIL_MESSAGES.empty;
  if (!imageKindOf(head)) return THUMBNAIL_MESSAGES.notImage;
  if (size > MAX_IMAGE_BYTES) return THUMBNAIL_MESSAGES.tooLarge;
  const dims = imageSizeOf(head);
  if (dims && (dims.width > MAX_IMAGE_SIDE || dims.height > MAX_IMAGE_SIDE)) return THUMBNAIL_MESSAGES.tooManyPixels;
  return null;
}
