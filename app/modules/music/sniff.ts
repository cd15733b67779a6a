// What a partner's upload really is, by its bytes (never its name or the browser's claim):
// MP3 (an ID3v2 tag or an MPEG audio Layer III frame sync) or WAV (RIFF/WAVE), and the cover's
// JPEG, PNG or WebP signature. Client-safe and pure: the form checks a file before sending it,
// the server decides (submissions.server.ts). docs/decisions/0110.

import { byteAt, u16le, u32le } from "~/lib/bytes";

export type AudioType = "audio/mpeg" | "audio/wav";
export type CoverType = "image/jpeg" | "image/png" | "image/webp";

export const AUDIO_EXTENSIONS: Record<AudioType, string> = { "audio/mpeg": "mp3", "audio/wav": "wav" };
export const COVER_EXTENSIONS: Record<CoverType, string> = { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" };

/** How many leading bytes the checks read (an ID3 tag with a small picture, a WAV's chunks before 'data'). */
export const SNIFF_BYTES = 64 * 1024;

const ascii = (b: Uint8Array, start: number, end: number) => (b.length >= end ? String.fromCharCode(...b.subarray(start, end)) : "");

// MPEG audio frame header: bitrates (kbps) of Layer III by version, sample rates by version.
const BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

export type Mp3Frame = { bitrateKbps: number; sampleRate: number; length: number };

/** The Layer III frame header at `o`, or null (no sync, reserved version, free or bad bitrate, bad rate). */
export function mp3FrameAt(b: Uint8Array, o: number): Mp3Frame | null {
  if (o + 4 > b.length) return null;
  const [b0, b1, b2] = [byteAt(b, o), byteAt(b, o + 1), byteAt(b, o + 2)];
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 0x03; // 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5, 1 reserved
  const layer = (b1 >> 1) & 0x03; // 1 = Layer III
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 0x03;
  if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const bitrateKbps = (version === 3 ? BITRATES_V1 : BITRATES_V2)[bitrateIndex];
  const sampleRate = SAMPLE_RATES[version]?.[rateIndex];
  if (bitrateKbps === undefined || sampleRate === undefined) return null;
  const padding = (b2 >> 1) & 0x01;
  const length = Math.floor(((version === 3 ? 144 : 72) * bitrateKbps * 1000) / sampleRate) + padding;
  return { bitrateKbps, sampleRate, length };
}

/** The size of a leading ID3v2 tag (header, syncsafe size, footer), or 0. */
export function id3Size(b: Uint8Array): number {
  if (ascii(b, 0, 3) !== "ID3" || b.length < 10) return 0;
  // Version 2.2–2.4, a revision byte that is not 0xff, no undefined flags.
  const major = byteAt(b, 3);
  const flags = byteAt(b, 5);
  if (major < 2 || major > 4 || byteAt(b, 4) === 0xff || (flags & 0x0f) !== 0) return 0;
  const syncsafe = [6, 7, 8, 9].map((i) => byteAt(b, i));
  if (syncsafe.some((x) => x & 0x80)) return 0;
  const size = syncsafe.reduce((n, x) => (n << 7) | x, 0);
  return 10 + size + (flags & 0x10 ? 10 : 0);
}

/** The first frame at or shortly after `from` (some encoders pad after the ID3 tag), or null. */
export function firstMp3Frame(b: Uint8Array, from: number): Mp3Frame | null {
  for (let o = from; o < Math.min(b.length - 4, from + 4096); o++) {
    const frame = mp3FrameAt(b, o);
    if (frame) return frame;
  }
  return null;
}

export type Mp3Info = { type: "audio/mpeg"; id3Bytes: number; frame: Mp3Frame | null };

/**
 * An MP3 by its first bytes: an ID3v2 tag (followed by a frame when the tag ends within `head`),
 * or a frame sync followed by a second frame where the first one ends (one sync alone could be chance).
 */
export function sniffMp3(head: Uint8Array): Mp3Info | null {
  const tag = id3Size(head);
  if (tag > 0) {
    if (tag + 4 > head.length) return { type: "audio/mpeg", id3Bytes: tag, frame: null };
    const frame = firstMp3Frame(head, tag);
    return frame ? { type: "audio/mpeg", id3Bytes: tag, frame } : null;
  }
  const frame = mp3FrameAt(head, 0);
  if (!frame) return null;
  // A second frame must follow the first (when the head reaches that far).
  if (frame.length + 4 <= head.length && !mp3FrameAt(head, frame.length)) return null;
  return { type: "audio/mpeg", id3Bytes: 0, frame };
}

export type WavInfo = {
  type: "audio/wav";
  /** 1 = integer PCM, 3 = IEEE float, 0xfffe = extensible (its sub-format decides). */
  format: number;
  channels: number;
  sampleRate: number;
  byteRate: number;
  blockAlign: number;
  bitsPerSample: number;
  /** Where the samples start and how many bytes the 'data' chunk declares (null: not within `head`). */
  dataOffset: number | null;
  dataSize: number | null;
};

/** A WAV by its first bytes: RIFF....WAVE, then a sane 'fmt ' chunk; 'data' located when it is within `head`. */
export function sniffWav(head: Uint8Array): WavInfo | null {
  if (ascii(head, 0, 4) !== "RIFF" || ascii(head, 8, 12) !== "WAVE") return null;
  let fmt: Omit<WavInfo, "type" | "dataOffset" | "dataSize"> | null = null;
  let o = 12;
  while (o + 8 <= head.length) {
    const id = ascii(head, o, o + 4);
    const size = u32le(head, o + 4);
    if (id === "fmt " && o + 24 <= head.length) {
      let format = u16le(head, o + 8);
      // WAVE_FORMAT_EXTENSIBLE: the sub-format GUID's first two bytes say PCM (1) or float (3).
      if (format === 0xfffe && o + 34 <= head.length) format = u16le(head, o + 32);
      fmt = {
        format,
        channels: u16le(head, o + 10),
        sampleRate: u32le(head, o + 12),
        byteRate: u32le(head, o + 16),
        blockAlign: u16le(head, o + 20),
        bitsPerSample: u16le(head, o + 22),
      };
    }
    if (id === "data") {
      if (!fmt) return null;
      return { type: "audio/wav", ...fmt, dataOffset: o + 8, dataSize: size };
    }
    o += 8 + size + (size % 2);
  }
  if (!fmt) return null;
  return { type: "audio/wav", ...fmt, dataOffset: null, dataSize: null };
}

/** A playable WAV: integer PCM (8/16/24/32 bit) or 32-bit float, 1–8 channels, 8–192 kHz, consistent rates. */
export function isSaneWav(w: WavInfo): boolean {
  const pcm = w.format === 1 && [8, 16, 24, 32].includes(w.bitsPerSample);
  const float = w.format === 3 && w.bitsPerSample === 32;
  return (
    (pcm || float) &&
    w.channels >= 1 &&
    w.channels <= 8 &&
    w.sampleRate >= 8000 &&
    w.sampleRate <= 192000 &&
    w.blockAlign === (w.channels * w.bitsPerSample) / 8 &&
    w.byteRate === w.sampleRate * w.blockAlign
  );
}

export type AudioInfo = Mp3Info | WavInfo;

/** MP3 or WAV by content; null for anything else (an image, a video, text renamed .mp3). */
export function sniffAudio(head: Uint8Array): AudioInfo | null {
  const wav = sniffWav(head);
  if (wav) return isSaneWav(wav) ? wav : null;
  return sniffMp3(head);
}

/** JPEG, PNG or WebP by their signatures; null otherwise. */
export function sniffCover(head: Uint8Array): CoverType | null {
  if (head.length >= 8 && head[0] === 0x89 && ascii(head, 1, 4) === "PNG" && head[4] === 0x0d && head[5] === 0x0a && head[6] === 0x1a && head[7] === 0x0a) {
    return "image/png";
  }
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "WEBP") return "image/webp";
  return null;
}

/**
 * The seconds a file of `size` bytes plays for, as far as its header tells: exact for WAV (the
 * data chunk over the byte rate), an estimate for MP3 from the first frame's bitrate (exact for
 * constant bitrate). null when the header says nothing usable.
 */
export function durationFromHeader(info: AudioInfo, size: number): number | null {
  if (info.type === "audio/wav") {
    if (!info.byteRate) return null;
    const offset = info.dataOffset ?? 44;
    // A streaming writer may leave the data size at 0 or 0xffffffff: the file's length decides then.
    const declared = info.dataSize && info.dataSize !== 0xffffffff ? info.dataSize : size - offset;
    return Math.min(declared, Math.max(0, size - offset)) / info.byteRate;
  }
  if (!info.frame) return null;
  return ((size - info.id3Bytes) * 8) / (info.frame.bitrateKbps * 1000);
}
