import { createEncoder } from "wasm-media-encoders";
import wasmUrl from "wasm-media-encoders/wasm/mp3?url";
import { PREVIEW_MAX_BYTES } from "./messages";

// The listening preview of a WAV, made in the partner's browser at upload (issue 30,
// docs/decisions/0270): decoded with Web Audio at 44.1 kHz, encoded to a 128 kbit/s MP3 with
// LAME compiled to WebAssembly (wasm-media-encoders, MIT; its LAME wasm is LGPL and is loaded
// as a separate file, so it stays replaceable), and sent beside the original. Listeners stream
// it: about 16 KB per second instead of 176 KB for CD-quality WAV. Browser only: the submit form
// imports this module when a WAV is chosen, so neither the encoder nor its wasm is in the page's
// first load or in the Worker. The imports are static here (this module is the lazy one): a
// dynamic import() of the package would keep its unused exports, base64 copies of both encoders'
// wasm (780 KB). Anything that fails here only means "no preview": the original
// is streamed instead.

/** The preview's format (the bench, scripts/bench-preview.mjs, encodes its tracks the same way). */
export const PREVIEW_SAMPLE_RATE = 44100;
export const PREVIEW_KBPS = 128;

/** Samples per encode() call: small outputs, and the page stays responsive between calls. */
const CHUNK = 1152 * 256;

/** A 128 kbit/s MP3 of `file` (a WAV), or null when the browser cannot make one or it would not be smaller. */
export async function makePreview(file: File): Promise<File | null> {
  if (typeof OfflineAudioContext === "undefined") return null;
  try {
    // An offline context decodes at its own rate: the preview is 44.1 kHz whatever the device's rate.
    const buffer = await new OfflineAudioContext(2, 1, PREVIEW_SAMPLE_RATE).decodeAudioData(await file.arrayBuffer());
    const estimate = (buffer.duration * PREVIEW_KBPS * 1000) / 8;
    if (estimate > PREVIEW_MAX_BYTES || estimate >= file.size) return null;
    const channels = buffer.numberOfChannels >= 2 ? [buffer.getChannelData(0), buffer.getChannelData(1)] : [buffer.getChannelData(0)];
    const encoder = await createEncoder("audio/mpeg", wasmUrl);
    encoder.configure({ sampleRate: buffer.sampleRate, channels: channels.length as 1 | 2, bitrate: PREVIEW_KBPS });
    const parts: Uint8Array[] = [];
    for (let start = 0; start < buffer.length; start += CHUNK) {
      // encode() returns a view into the encoder's memory: copy it before the next call.
      parts.push(encoder.encode(channels.map((c) => c.subarray(start, start + CHUNK))).slice());
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    parts.push(encoder.finalize().slice());
    const name = `${file.name.replace(/\.[^.]*$/, "") || "track"}-preview.mp3`;
    const preview = new File(parts as BlobPart[], name, { type: "audio/mpeg" });
    return preview.size > 0 && preview.size < file.size && preview.size <= PREVIEW_MAX_BYTES ? preview : null;
  } catch {
    return null;
  }
}
