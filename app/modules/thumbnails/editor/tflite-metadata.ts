// Adds MediaPipe's input-normalization metadata to a TFLite model that has none (docs/decisions/0181).
//
// The selfie segmentation model shipped in @mediapipe/selfie_segmentation (Apache-2.0) predates
// MediaPipe Tasks' metadata: its float input carries no NormalizationOptions, so ImageSegmenter
// refuses it. This writes a new root Model table in front of the untouched original bytes, with a
// `metadata` entry "TFLITE_METADATA" whose buffer holds a ModelMetadata flatbuffer ("M001") saying
// input = (pixel - mean) / std. Every reference in the new prefix points forward (flatbuffer
// offsets are unsigned), and the prefix is a multiple of 16 bytes so the original's alignment
// holds. Pure, so it runs in the Web Worker and in unit tests.

import { i32le, u16le, u32le } from "~/lib/bytes";

class Writer {
  bytes: number[] = [];
  get pos() {
    return this.bytes.length;
  }
  align(n: number) {
    while (this.bytes.length % n) this.bytes.push(0);
  }
  u8(v: number) {
    this.bytes.push(v & 0xff);
  }
  u16(v: number) {
    this.u8(v);
    this.u8(v >> 8);
  }
  u32(v: number) {
    this.u16(v & 0xffff);
    this.u16((v >>> 16) & 0xffff);
  }
  f32(v: number) {
    const b = new Uint8Array(new Float32Array([v]).buffer);
    for (const x of b) this.u8(x);
  }
  setU32(at: number, v: number) {
    this.bytes[at] = v & 0xff;
    this.bytes[at + 1] = (v >>> 8) & 0xff;
    this.bytes[at + 2] = (v >>> 16) & 0xff;
    this.bytes[at + 3] = (v >>> 24) & 0xff;
  }
  setI32(at: number, v: number) {
    this.setU32(at, v >>> 0);
  }
  /** A forward reference at `at` to absolute position `target` (uoffset); `at` is a slot that must exist. */
  link(at: number | undefined, target: number) {
    if (at === undefined) throw new Error("flatbuffer slot missing");
    if (target <= at) throw new Error("flatbuffer offsets must point forward");
    this.setU32(at, target - at);
  }
  /**
   * A table whose fields are all 4-byte slots (scalars or offsets), with its vtable just before it.
   * Returns the table's position and the position of each field slot (undefined = absent).
   */
  table(fields: (number | null)[]): { at: number; slots: (number | undefined)[] } {
    this.align(2);
    const vt = this.pos;
    const present = fields.map((f) => f !== null);
    const inline = 4 + 4 * present.filter(Boolean).length;
    this.u16(4 + 2 * fields.length);
    this.u16(inline);
    let off = 4;
    for (const p of present) {
      this.u16(p ? off : 0);
      if (p) off += 4;
    }
    this.align(4);
    const at = this.pos;
    this.u32(0);
    this.setI32(at, at - vt);
    const slots: (number | undefined)[] = [];
    for (const f of fields) {
      if (f === null) {
        slots.push(undefined);
        continue;
      }
      slots.push(this.pos);
      this.u32(f);
    }
    return { at, slots };
  }
  vectorOfOffsets(count: number): { at: number; slots: number[] } {
    this.align(4);
    const at = this.pos;
    this.u32(count);
    const slots: number[] = [];
    for (let i = 0; i < count; i++) {
      slots.push(this.pos);
      this.u32(0);
    }
    return { at, slots };
  }
  string(s: string): number {
    this.align(4);
    const at = this.pos;
    const b = new TextEncoder().encode(s);
    this.u32(b.length);
    for (const x of b) this.u8(x);
    this.u8(0);
    return at;
  }
  floats(values: number[]): number {
    this.align(4);
    const at = this.pos;
    this.u32(values.length);
    for (const v of values) this.f32(v);
    return at;
  }
}

const NORMALIZATION_OPTIONS = 1; // ProcessUnitOptions.NormalizationOptions

/** The ModelMetadata flatbuffer: one subgraph, one input tensor, one NormalizationOptions unit. */
export function normalizationMetadata(mean: number[], std: number[]): Uint8Array {
  const w = new Writer();
  w.u32(0); // root
  for (const c of "M001") w.u8(c.charCodeAt(0));
  // ModelMetadata: name(0) description(1) version(2) subgraph_metadata(3) author(4) license(5)
  const model = w.table([0, null, null, 0, null, 0]);
  w.link(0, model.at);
  const name = w.string("selfie_segmentation");
  w.link(model.slots[0] as number, name);
  const license = w.string("Apache-2.0 (@mediapipe/selfie_segmentation)");
  w.link(model.slots[5] as number, license);
  const subgraphs = w.vectorOfOffsets(1);
  w.link(model.slots[3] as number, subgraphs.at);
  // SubGraphMetadata: name(0) description(1) input_tensor_metadata(2)
  const subgraph = w.table([null, null, 0]);
  w.link(subgraphs.slots[0], subgraph.at);
  const inputs = w.vectorOfOffsets(1);
  w.link(subgraph.slots[2] as number, inputs.at);
  // TensorMetadata: name(0) description(1) dimension_names(2) content(3) process_units(4)
  const tensor = w.table([0, null, null, null, 0]);
  w.link(inputs.slots[0], tensor.at);
  const tensorName = w.string("image");
  w.link(tensor.slots[0] as number, tensorName);
  const units = w.vectorOfOffsets(1);
  w.link(tensor.slots[4] as number, units.at);
  // ProcessUnit: options_type(0, ubyte) options(1)
  const unit = w.table([NORMALIZATION_OPTIONS, 0]);
  w.link(units.slots[0], unit.at);
  // NormalizationOptions: mean(0) std(1)
  const norm = w.table([0, 0]);
  w.link(unit.slots[1] as number, norm.at);
  w.link(norm.slots[0] as number, w.floats(mean));
  w.link(norm.slots[1] as number, w.floats(std));
  return new Uint8Array(w.bytes);
}

const u16 = u16le;
const u32 = u32le;
const i32 = i32le;

/** The fields of a table: for each vtable slot, the absolute position of its 4-byte value (or undefined). */
export function tableFields(b: Uint8Array, table: number): (number | undefined)[] {
  const vt = table - i32(b, table);
  const count = (u16(b, vt) - 4) / 2;
  const out: (number | undefined)[] = [];
  for (let i = 0; i < count; i++) {
    const off = u16(b, vt + 4 + 2 * i);
    out.push(off ? table + off : undefined);
  }
  return out;
}

/** Follows the uoffset stored at `at`. */
export const deref = (b: Uint8Array, at: number) => at + u32(b, at);
export const readU32 = u32;

/** The entries of the Model's `metadata` vector: name and buffer index. */
export function modelMetadataEntries(model: Uint8Array): { name: string; buffer: number }[] {
  const root = u32(model, 0);
  const fields = tableFields(model, root);
  const vec = fields[6];
  if (vec === undefined) return [];
  const v = deref(model, vec);
  const out: { name: string; buffer: number }[] = [];
  for (let i = 0; i < u32(model, v); i++) {
    const t = deref(model, v + 4 + 4 * i);
    const f = tableFields(model, t);
    const s = f[0] === undefined ? -1 : deref(model, f[0]);
    const name = s < 0 ? "" : new TextDecoder().decode(model.subarray(s + 4, s + 4 + u32(model, s)));
    out.push({ name, buffer: f[1] === undefined ? 0 : u32(model, f[1]) });
  }
  return out;
}

/** The bytes of buffer `index` of a Model. */
export function modelBuffer(model: Uint8Array, index: number): Uint8Array {
  const root = u32(model, 0);
  const buffers = deref(model, tableFields(model, root)[4] as number);
  const buffer = deref(model, buffers + 4 + 4 * index);
  const data = tableFields(model, buffer)[0];
  if (data === undefined) return new Uint8Array(0);
  const v = deref(model, data);
  return model.subarray(v + 4, v + 4 + u32(model, v));
}

/**
 * `model` with a TFLITE_METADATA entry holding `metadata` (the original bytes follow unchanged).
 * A model that already has TFLITE_METADATA is returned as it is.
 */
export function withModelMetadata(model: Uint8Array, metadata: Uint8Array): Uint8Array {
  if (model.length < 8 || String.fromCharCode(...model.subarray(4, 8)) !== "TFL3") throw new Error("not a TFLite model");
  const existing = modelMetadataEntries(model);
  if (existing.some((e) => e.name === "TFLITE_METADATA")) return model;
  const root = u32(model, 0);
  const fields = tableFields(model, root);
  const target = (slot: number | undefined) => (slot === undefined ? undefined : deref(model, slot));
  const oldBuffers = target(fields[4]);
  if (oldBuffers === undefined) throw new Error("model has no buffers");
  const bufferCount = u32(model, oldBuffers);
  const oldMeta = target(fields[6]);
  const metaCount = oldMeta === undefined ? 0 : u32(model, oldMeta);

  // Two passes: the prefix's length P decides where the original's objects land (old + P).
  const build = (P: number) => {
    const w = new Writer();
    w.u32(0);
    for (const c of "TFL3") w.u8(c.charCodeAt(0));
    const count = Math.max(fields.length, 7);
    const values: (number | null)[] = [];
    for (let i = 0; i < count; i++) {
      if (i === 4 || i === 6) values.push(0);
      else values.push(fields[i] === undefined ? null : 0);
    }
    const table = w.table(values);
    w.link(0, table.at);
    // version (scalar) and the other references into the original, shifted by P.
    for (let i = 0; i < fields.length; i++) {
      const slot = table.slots[i];
      const old = fields[i];
      if (slot === undefined || old === undefined || i === 4 || i === 6) continue;
      if (i === 0) w.setU32(slot, u32(model, old));
      else w.link(slot, deref(model, old) + P);
    }
    const buffers = w.vectorOfOffsets(bufferCount + 1);
    w.link(table.slots[4] as number, buffers.at);
    for (let j = 0; j < bufferCount; j++) w.link(buffers.slots[j], deref(model, oldBuffers + 4 + 4 * j) + P);
    const buffer = w.table([0]);
    w.link(buffers.slots[bufferCount], buffer.at);
    const metas = w.vectorOfOffsets(metaCount + 1);
    w.link(table.slots[6] as number, metas.at);
    for (let j = 0; j < metaCount; j++) w.link(metas.slots[j], deref(model, (oldMeta as number) + 4 + 4 * j) + P);
    const meta = w.table([0, bufferCount]);
    w.link(metas.slots[metaCount], meta.at);
    w.link(meta.slots[0] as number, w.string("TFLITE_METADATA"));
    // The data vector: its bytes 16-aligned (Buffer.data is force_align: 16).
    while ((w.pos + 4) % 16) w.u8(0);
    const data = w.pos;
    w.u32(metadata.length);
    for (const x of metadata) w.u8(x);
    w.link(buffer.slots[0] as number, data);
    w.align(16);
    return w.bytes;
  };
  // The prefix's length does not depend on P: measure it with a P past every position, then build.
  const P = build(1 << 30).length;
  const bytes = build(P);
  const out = new Uint8Array(P + model.length);
  out.set(bytes, 0);
  out.set(model, P);
  return out;
}
