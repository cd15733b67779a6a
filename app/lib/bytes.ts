// Little- and big-endian integer reads from a byte array, for the binary sniffers and parsers
// (music/sniff.ts, thumbnails/messages.ts, thumbnails/editor/tflite-metadata.ts). Client-safe and pure.
// A byte past the end reads as 0: the value the bitwise operators gave `undefined` before these
// helpers existed, so a short buffer still fails the caller's own checks instead of throwing.

/** The byte at `i`, or 0 past either end. */
export const byteAt = (b: Uint8Array, i: number): number => b[i] ?? 0;

export const u16le = (b: Uint8Array, i: number) => byteAt(b, i) | (byteAt(b, i + 1) << 8);
export const u24le = (b: Uint8Array, i: number) => byteAt(b, i) | (byteAt(b, i + 1) << 8) | (byteAt(b, i + 2) << 16);
export const i32le = (b: Uint8Array, i: number) => byteAt(b, i) | (byteAt(b, i + 1) << 8) | (byteAt(b, i + 2) << 16) | (byteAt(b, i + 3) << 24);
export const u32le = (b: Uint8Array, i: number) => i32le(b, i) >>> 0;
export const u16be = (b: Uint8Array, i: number) => (byteAt(b, i) << 8) | byteAt(b, i + 1);
export const u32be = (b: Uint8Array, i: number) => ((byteAt(b, i) << 24) | (byteAt(b, i + 1) << 16) | (byteAt(b, i + 2) << 8) | byteAt(b, i + 3)) >>> 0;
