import { Mp3Encoder } from "@breezystack/lamejs";
import { PREVIEW_MAX_BYTES } from "./messages";

// The listening preview of a WAV, made in the partner's browser at upload (issue 30,
// docs/decisions/0270): decoded with Web Audio at 44.1 kHz, encoded to a 128 kbit/s MP3 with
// LAME ported to JavaScript (@breezystack/lamejs, LGPL-3.0, served as its own lazily loaded
// file), and sent beside the original. Listeners stream it: about 16 KB per second instead of
// 176 KB for CD-quality WAV. JavaScript rather than LAME compiled to WebAssembly: the pages'
// Content-Security-Policy allows no WebAssembly compilation ('wasm-unsafe-eval'), and loosening
// it for an upload form is not worth it. Browser only: the submit form imports this module when a
// WAV is chosen, so neither it nor the encoder is in the page's first load or in the Worker.
// Anything that fails here only means "no preview": the original is streamed instead.

/** The preview's format (the bench, scripts/bench-preview.mjs, encodes its tracks the same way). */
export const PREVIEW_SAMPLE_RATE = 44100;
export const PREVIEW_KBPS = 128;

/** Samples per encodeBuffer() call (a multiple of an MP3 frame's 1152): the page stays responsive between calls. */
const CHUNK = 1152 * 64;

/** Float samples (-1..1) as the 16-bit integers LAME takes. */
function int16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]));
    out[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
  }
  return out;
}

/** A 128 kbit/s MP3 of `file` (a WAV), or null when the browser cannot make one or it would not be smaller. */
export async function makePreview(file: File): Promise<File | null> {
  if (typeof OfflineAudioContext === "undefined") return null;
  try {
    // An offline context decodes at its own rate: the preview is 44.1 kHz whatever the device's rate.
    const buffer = await new OfflineAudioContext(2, 1, PREVIEW_SAMPLE_RATE).decodeAudioData(await file.arrayBuffer());
    const estimate = (buffer.duration * PREVIEW_KBPS * 1000) / 8;
    if (estimate > PREVIEW_MAX_BYTES || estimate >= file.size) return null;
    const stereo = buffer.numberOfChannels >= 2;
    const left = buffer.getChannelData(0);
    const right = stereo ? buffer.getChannelData(1) : null;
    const encoder = new Mp3Encoder(stereo ? 2 : 1, buffer.sampleRate, PREVIEW_KBPS);
    const parts: Uint8Array[] = [];
    for (let start = 0; start < buffer.length; start += CHUNK) {
      const l = int16(left.subarray(start, start + CHUNK));
      parts.push(right ? encoder.encodeBuffer(l, int16(right.subarray(start, start + CHUNK))) : encoder.encodeBuffer(l));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    parts.push(encoder.flush());
    const name = `${file.name.replace(/\.[^.]*$/, "") || "track"}-preview.mp3`;
    const preview = new File(parts as BlobPart[], name, { type: "audio/mpeg" });
    return preview.size > 0 && preview.size < file.size && preview.size <= PREVIEW_MAX_BYTES ? preview : null;
  } catch {
    return null;
  }
}
