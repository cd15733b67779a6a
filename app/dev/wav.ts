// A tiny synthesizer for the demo tracks: writes 16-bit PCM mono WAV files from note lists,
// so the seed can ship real, playable audio without downloading anything.

export type Note = { midi: number | null; beats: number };

const A4 = 440;
export const midiToHz = (midi: number) => A4 * 2 ** ((midi - 69) / 12);

export function encodeWav(samples: Float32Array, sampleRate: number, repeat = 1): Uint8Array {
  const frames = samples.length * repeat;
  const dataBytes = frames * 2;
  const buffer = new ArrayBuffer(44 + dataBytes);
  const view = new DataView(buffer);
  const ascii = (offset: number, s: string) => {
    for (let i = 0; i < s.length; i++) view.setUint8(offset + i, s.charCodeAt(i));
  };
  ascii(0, "RIFF");
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, "WAVE");
  ascii(12, "fmt ");
  view.setUint32(16, 16, true); // PCM chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // byte rate
  view.setUint16(32, 2, true); // block align
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, "data");
  view.setUint32(40, dataBytes, true);
  // 16-bit little-endian PCM (every platform this runs on is little-endian); a repeated cycle is copied, not encoded again.
  const pcm = new Int16Array(buffer, 44, frames);
  for (const [i, sample] of samples.entries()) {
    const s = Math.max(-1, Math.min(1, sample));
    pcm[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
  }
  for (let r = 1; r < repeat; r++) pcm.copyWithin(r * samples.length, 0, samples.length);
  return new Uint8Array(buffer);
}

/** The PCM samples of a WAV written by encodeWav (for peaks). */
export const pcmOf = (wav: Uint8Array) => new Int16Array(wav.buffer, wav.byteOffset + 44, (wav.byteLength - 44) / 2);

/**
 * Renders a melody over a bass line with a soft kick on every beat. With `repeat`, the notes are
 * one cycle (a whole number of beats) rendered once and played `repeat` times: the seed's loops
 * cost one cycle of synthesis, not the whole track.
 */
export function synthesize(opts: { bpm: number; melody: Note[]; bass: Note[]; sampleRate?: number; repeat?: number }): {
  wav: Uint8Array;
  durationSeconds: number;
} {
  const sampleRate = opts.sampleRate ?? 22050;
  const beatSeconds = 60 / opts.bpm;
  const totalBeats = Math.max(
    opts.melody.reduce((n, x) => n + x.beats, 0),
    opts.bass.reduce((n, x) => n + x.beats, 0),
  );
  const length = Math.ceil(totalBeats * beatSeconds * sampleRate);
  const out = new Float32Array(length);

  // Every index written is below `length` (the loops check it), the size of `out`.
  const add = (k: number, v: number) => {
    out[k] = (out[k] ?? 0) + v;
  };
  const render = (notes: Note[], gain: number, wave: (phase: number) => number) => {
    let start = 0;
    for (const note of notes) {
      const len = Math.floor(note.beats * beatSeconds * sampleRate);
      if (note.midi !== null) {
        const hz = midiToHz(note.midi);
        for (let i = 0; i < len && start + i < length; i++) {
          const t = i / sampleRate;
          const attack = Math.min(1, i / (0.01 * sampleRate));
          const release = Math.min(1, (len - i) / (0.05 * sampleRate));
          add(start + i, gain * attack * release * wave(2 * Math.PI * hz * t));
        }
      }
      start += len;
    }
  };
  render(opts.melody, 0.3, (p) => Math.sin(p) + 0.25 * Math.sin(2 * p));
  render(opts.bass, 0.25, (p) => (Math.sin(p) > 0 ? 0.6 : -0.6));
  // Kick: a decaying low sine at each beat.
  const beatLen = Math.floor(beatSeconds * sampleRate);
  for (let b = 0; b * beatLen < length; b++) {
    for (let i = 0; i < Math.min(beatLen, 0.15 * sampleRate) && b * beatLen + i < length; i++) {
      const t = i / sampleRate;
      add(b * beatLen + i, 0.35 * Math.exp(-t * 30) * Math.sin(2 * Math.PI * (60 + 60 * Math.exp(-t * 40)) * t));
    }
  }
  const repeat = Math.max(1, Math.floor(opts.repeat ?? 1));
  return { wav: encodeWav(out, sampleRate, repeat), durationSeconds: Math.round((length * repeat) / sampleRate) };
}

/**
 * Waveform peaks of a rendering: `bars` values 0..255, each the loudest sample of its span,
 * scaled so the loudest span is 255 (the shape music_tracks.peaks stores).
 */
export function peaksOf(wav: Uint8Array, bars = 256): number[] {
  const samples = pcmOf(wav);
  const raw: number[] = [];
  for (let b = 0; b < bars; b++) {
    const from = Math.floor((b * samples.length) / bars);
    const to = Math.floor(((b + 1) * samples.length) / bars);
    let max = 0;
    for (const sample of samples.subarray(from, to)) {
      const v = Math.abs(sample);
      if (v > max) max = v;
    }
    raw.push(max);
  }
  const top = Math.max(...raw, 1);
  return raw.map((v) => Math.round((v / top) * 255));
}

/** Repeats a short pattern of MIDI notes (null = rest), each lasting `beats`. */
export function pattern(notes: (number | null)[], beats: number, repeat: number): Note[] {
  const out: Note[] = [];
  for (let r = 0; r < repeat; r++) for (const midi of notes) out.push({ midi, beats });
  return out;
}
