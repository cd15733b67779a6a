import type { WavInfo } from "./sniff";

// Waveform peaks: 256 integers 0..255 (the loudest bucket = 255), computed once when a track is
// stored. The browser decodes the upload with Web Audio (`browserPeaks`); the server checks the
// shape of what it was sent (`checkPeaks`), and computes peaks itself for a WAV sent without them
// (`wavPeaks`, a form posted without JavaScript). Client-safe. docs/decisions/0111.

export const PEAK_COUNT = 256;
export const PEAKS_MIN = 64;
export const PEAKS_MAX = 1024;
/** The longest `peaks` field accepted: 1024 values of up to 3 digits and their commas, brackets. */
export const PEAKS_MAX_CHARS = PEAKS_MAX * 4 + 2;

/** Peaks of the largest absolute sample per bucket, scaled so the loudest bucket is 255. */
export function peaksFromSamples(channels: readonly ArrayLike<number>[], count = PEAK_COUNT): number[] {
  const length = channels[0]?.length ?? 0;
  if (length === 0) return [];
  const raw = new Array<number>(count).fill(0);
  for (let i = 0; i < count; i++) {
    const start = Math.floor((i * length) / count);
    const end = Math.max(start + 1, Math.floor(((i + 1) * length) / count));
    let max = 0;
    for (const data of channels) {
      // Long buckets are sampled (every few frames): a waveform needs the shape, not every sample.
      const step = Math.max(1, Math.floor((end - start) / 2048));
      for (let j = start; j < end && j < length; j += step) {
        const v = Math.abs(data[j] ?? 0); // a channel shorter than the first is silent there
        if (v > max) max = v;
      }
    }
    raw[i] = max;
  }
  return scale(raw);
}

function scale(raw: number[]): number[] {
  const top = Math.max(...raw);
  if (!(top > 0)) return raw.map(() => 0);
  return raw.map((v) => Math.max(0, Math.min(255, Math.round((v / top) * 255))));
}

export type PeaksCheck = { ok: true; peaks: number[] } | { ok: false; error: string };

export const PEAKS_ERROR = "The waveform could not be read. Please choose the audio file again.";

/**
 * The server's check of the peaks a browser sent: empty (none computed) or a JSON array of
 * 64–1024 integers 0..255. Anything else is refused, never repaired.
 */
export function checkPeaks(raw: unknown): PeaksCheck {
  if (raw === undefined || raw === null || raw === "") return { ok: true, peaks: [] };
  if (typeof raw !== "string" || raw.length > PEAKS_MAX_CHARS) return { ok: false, error: PEAKS_ERROR };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, error: PEAKS_ERROR };
  }
  if (!Array.isArray(value)) return { ok: false, error: PEAKS_ERROR };
  if (value.length === 0) return { ok: true, peaks: [] };
  if (value.length < PEAKS_MIN || value.length > PEAKS_MAX) return { ok: false, error: PEAKS_ERROR };
  if (!value.every((v) => Number.isInteger(v) && v >= 0 && v <= 255)) return { ok: false, error: PEAKS_ERROR };
  return { ok: true, peaks: value as number[] };
}

/** One sample of a PCM frame as -1..1, for the WAV formats sniff.ts accepts. */
function sampleAt(view: DataView, offset: number, bits: number, float: boolean): number {
  if (float) return view.getFloat32(offset, true);
  switch (bits) {
    case 8:
      return (view.getUint8(offset) - 128) / 128;
    case 16:
      return view.getInt16(offset, true) / 32768;
    case 24: {
      const v = view.getUint8(offset) | (view.getUint8(offset + 1) << 8) | (view.getInt8(offset + 2) << 16);
      return v / 8388608;
    }
    default:
      return view.getInt32(offset, true) / 2147483648;
  }
}

/** Bytes read per bucket by `wavPeaks`: 256 windows of 16 KB = 4 MB read, whatever the file's size. */
const WINDOW_BYTES = 16 * 1024;

/**
 * Peaks of a WAV on the server without holding it twice in memory: one window at the start of
 * each bucket, read through `read(offset, length)` (a File's slice), the largest absolute sample
 * of the first channel in each.
 */
export async function wavPeaks(
  info: WavInfo,
  size: number,
  read: (offset: number, length: number) => Promise<Uint8Array>,
  count = PEAK_COUNT,
): Promise<number[]> {
  const offset = info.dataOffset ?? 44;
  const dataBytes = Math.min(info.dataSize && info.dataSize !== 0xffffffff ? info.dataSize : size - offset, size - offset);
  const frames = Math.floor(dataBytes / info.blockAlign);
  if (frames <= 0) return [];
  const raw: number[] = [];
  const bytesPerSample = info.bitsPerSample / 8;
  for (let i = 0; i < count; i++) {
    const frame = Math.floor((i * frames) / count);
    const length = Math.min(WINDOW_BYTES, (Math.floor(((i + 1) * frames) / count) - frame) * info.blockAlign) || info.blockAlign;
    const bytes = await read(offset + frame * info.blockAlign, length);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let max = 0;
    for (let o = 0; o + bytesPerSample <= bytes.byteLength; o += info.blockAlign) {
      const v = Math.abs(sampleAt(view, o, info.bitsPerSample, info.format === 3));
      if (v > max && Number.isFinite(v)) max = v;
    }
    raw.push(max);
  }
  return scale(raw);
}

/**
 * In the browser: decode the chosen file with Web Audio and return its duration (seconds) and
 * peaks. null when the browser cannot decode it (the server still checks the file's bytes).
 */
export async function browserPeaks(file: Blob): Promise<{ duration: number; peaks: number[] } | null> {
  const Ctx =
    typeof window === "undefined" ? undefined : (window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext);
  if (!Ctx) return null;
  const context = new Ctx();
  try {
    const buffer = await context.decodeAudioData(await file.arrayBuffer());
    const channels: Float32Array[] = [];
    for (let c = 0; c < Math.min(buffer.numberOfChannels, 2); c++) channels.push(buffer.getChannelData(c));
    return { duration: buffer.duration, peaks: peaksFromSamples(channels) };
  } catch {
    return null;
  } finally {
    void context.close().catch(() => {});
  }
}
