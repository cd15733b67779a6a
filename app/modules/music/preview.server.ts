import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { musicTracks } from "~/db/schema";
import { sha256Hex } from "~/platform/crypto.server";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { isSaneWav, SNIFF_BYTES, sniffWav, type WavInfo } from "./sniff";
import { trackMediaQuery } from "./stream.server";

// A WAV master's listening preview, made on the server from the stored master (issue 40,
// docs/decisions/0289, superseding 0270's preview made in the browser). What listeners hear must be
// what was reviewed and what a licence hands out: a preview the browser sent could hold anything
// after two valid frame headers. A submission puts a message on PREVIEW_QUEUE; the queue consumer
// (workers/app.ts) reads the master from MEDIA in a stream, encodes it with LAME in JavaScript
// (@breezystack/lamejs, LGPL-3.0: server code only, never shipped to a browser; tests/build checks
// the client assets), stores it under a key derived from the master's, and sets it on the row with a
// guarded update. Until then the master is streamed (stream.server.ts `streamedKey`).
//
// Idempotent: the key is a function of the track and its master, so a retried or duplicated
// message writes the same object; the update applies only while the row still has that master, no
// preview and a status that is heard (in review or published). A track deleted, rejected, withdrawn
// or given another master meanwhile gets no preview, and the object this job stored is deleted.

/** The queue the submissions send to (wrangler.toml); workers/app.ts dispatches its batches here. */
export const PREVIEW_QUEUE_NAME = "shortbeat-music-previews";

export type PreviewQueueMessage = { type: "music-preview"; trackId: string; audioKey: string };

/** The preview's bit rate: 128 kbit/s for stereo (16 KB a second, 11× smaller than CD WAV), 64 for mono. */
export const PREVIEW_KBPS = { stereo: 128, mono: 64 } as const;

/** Statuses whose audio someone hears (the partner and reviewers, or every listener). */
const HEARD = ["in_review", "published"] as const;

/**
 * The preview's object key, a function of the master's alone (the same for every run of the job):
 * `music/audio/<partner>/<uuid>.wav` → `music/previews/<partner>/<uuid>.mp3`.
 */
export function previewKeyFor(audioKey: string): string {
  const m = /^music\/audio\/([^/]+)\/([^/]+)\.wav$/.exec(audioKey);
  return m ? `music/previews/${m[1]}/${m[2]}.mp3` : `music/previews/${sha256Hex(audioKey).slice(0, 32)}.mp3`;
}

/** Asks for the preview of a stored WAV master; a failure to send is logged (the master is streamed meanwhile). */
export async function requestPreview(trackId: string, audioKey: string): Promise<void> {
  try {
    await env.PREVIEW_QUEUE.send({ type: "music-preview", trackId, audioKey } satisfies PreviewQueueMessage);
  } catch (error) {
    console.error("music preview request failed", trackId, error);
  }
}

/** One sample of a frame as a 16-bit integer, for the WAV formats sniff.ts accepts. */
function int16At(view: DataView, o: number, bits: number, float: boolean): number {
  if (float) {
    const v = view.getFloat32(o, true);
    return v >= 1 ? 32767 : v <= -1 ? -32768 : Number.isFinite(v) ? Math.round(v * 32767) : 0;
  }
  switch (bits) {
    case 8:
      return (view.getUint8(o) - 128) << 8;
    case 16:
      return view.getInt16(o, true);
    case 24:
      return view.getInt16(o + 1, true);
    default:
      return view.getInt16(o + 2, true);
  }
}

/**
 * The MP3 of a WAV's samples, read from `data` (the 'data' chunk, as a stream) chunk by chunk so the
 * master is never held whole: the first two channels (a mono WAV stays mono), at the WAV's rate
 * (LAME resamples rates above 48 kHz itself), constant bit rate.
 */
export async function encodeWavPreview(info: WavInfo, data: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  // Loaded by the job only: an isolate answering pages never evaluates the encoder's 250 KB.
  const { Mp3Encoder } = await import("@breezystack/lamejs");
  const stereo = info.channels >= 2;
  const encoder = new Mp3Encoder(stereo ? 2 : 1, info.sampleRate, stereo ? PREVIEW_KBPS.stereo : PREVIEW_KBPS.mono);
  const block = info.blockAlign;
  const bytesPerSample = info.bitsPerSample / 8;
  const float = info.format === 3;
  const parts: Uint8Array[] = [];
  const keep = (out: Int8Array | Uint8Array) => {
    // lamejs answers Int8Arrays (whatever its types say): the same bytes, as bytes.
    if (out.length > 0) parts.push(new Uint8Array(out.buffer, out.byteOffset, out.byteLength).slice());
  };
  let carry = new Uint8Array(0);
  for await (const chunk of data as unknown as AsyncIterable<Uint8Array>) {
    let bytes = chunk;
    if (carry.length > 0) {
      bytes = new Uint8Array(carry.length + chunk.length);
      bytes.set(carry);
      bytes.set(chunk, carry.length);
    }
    const frames = Math.floor(bytes.length / block);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const left = new Int16Array(frames);
    const right = stereo ? new Int16Array(frames) : null;
    for (let i = 0, o = 0; i < frames; i++, o += block) {
      left[i] = int16At(view, o, info.bitsPerSample, float);
      if (right) right[i] = int16At(view, o + bytesPerSample, info.bitsPerSample, float);
    }
    if (frames > 0) keep(right ? encoder.encodeBuffer(left, right) : encoder.encodeBuffer(left));
    carry = bytes.slice(frames * block);
  }
  keep(encoder.flush());
  const mp3 = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    mp3.set(p, at);
    at += p.length;
  }
  return mp3;
}

/** The WAV's format and where its samples are, from the master's first bytes; null when it cannot be read. */
async function masterFormat(audioKey: string, size: number): Promise<{ info: WavInfo; offset: number; length: number } | null> {
  const head = await env.MEDIA.get(audioKey, { range: { offset: 0, length: SNIFF_BYTES } });
  if (!head) return null;
  const info = sniffWav(new Uint8Array(await head.arrayBuffer()));
  if (!info || !isSaneWav(info) || info.dataOffset === null) return null;
  const declared = info.dataSize && info.dataSize !== 0xffffffff ? info.dataSize : size - info.dataOffset;
  const length = Math.min(declared, size - info.dataOffset);
  return length > 0 ? { info, offset: info.dataOffset, length } : null;
}

export type PreviewOutcome = "made" | "skipped" | "discarded";

/**
 * Makes the preview of the track's master `audioKey` (the message's), once: `made` when the row now
 * has it, `skipped` when there was nothing to do (gone, not heard, another master, already made, not
 * a WAV, or an MP3 no smaller than the master), `discarded` when the row changed while encoding and
 * the stored object was deleted again. Throws on a storage failure (the message is retried).
 */
export async function makeTrackPreview(trackId: string, audioKey: string): Promise<PreviewOutcome> {
  const key = previewKeyFor(audioKey);
  const track = await trackMediaQuery(trackId).get();
  const heard = (HEARD as readonly string[]).includes(track?.status ?? "");
  if (!track || !heard || track.audioKey !== audioKey || track.previewKey || track.audioContentType !== "audio/wav") {
    // An earlier run may have stored this master's preview before the row changed: nothing refers to it now.
    if (track?.previewKey !== key) await env.MEDIA.delete(key);
    return "skipped";
  }
  const format = await masterFormat(audioKey, track.audioSize);
  if (!format) return "skipped";
  const data = await env.MEDIA.get(audioKey, { range: { offset: format.offset, length: format.length } });
  if (!data) return "skipped";
  const mp3 = await encodeWavPreview(format.info, data.body);
  if (mp3.byteLength === 0 || mp3.byteLength >= track.audioSize) return "skipped";

  await env.MEDIA.put(key, mp3, { httpMetadata: { contentType: "audio/mpeg" }, customMetadata: { madeFrom: audioKey } });
  // State changes happen once: only the row that still has this master, no preview, and is heard.
  const result = await db()
    .update(musicTracks)
    .set({ previewKey: key, previewSize: mp3.byteLength })
    .where(and(eq(musicTracks.id, trackId), eq(musicTracks.audioKey, audioKey), isNull(musicTracks.previewKey), inArray(musicTracks.status, [...HEARD])))
    .run();
  if (result.meta.changes > 0) return "made";
  // A parallel run of the same message set it: the object is the one it points at.
  if ((await trackMediaQuery(trackId).get())?.previewKey === key) return "made";
  await env.MEDIA.delete(key);
  return "discarded";
}

/**
 * The PREVIEW_QUEUE consumer (workers/app.ts `queue()`): one message at a time (max_batch_size 1 in
 * wrangler.toml: encoding a 3-minute master is seconds of CPU, docs/decisions/0289), acked when done,
 * retried when storage failed (up to max_retries; the master is streamed meanwhile).
 */
export async function consumePreviewQueue(batch: MessageBatch<PreviewQueueMessage>): Promise<PreviewOutcome[]> {
  const outcomes: PreviewOutcome[] = [];
  for (const msg of batch.messages) {
    try {
      if (msg.body?.type !== "music-preview" || typeof msg.body.trackId !== "string" || typeof msg.body.audioKey !== "string") {
        outcomes.push("skipped");
      } else {
        outcomes.push(await makeTrackPreview(msg.body.trackId, msg.body.audioKey));
      }
      msg.ack();
    } catch (error) {
      console.error("music preview failed", msg.body, error);
      msg.retry();
    }
  }
  return outcomes;
}

// ---------------------------------------------------------------------------------------------
// The daily repair (docs/decisions/0326)
// ---------------------------------------------------------------------------------------------

/** WAV tracks asked for per daily run (a queue's sendBatch takes at most 100 messages). */
const BACKFILL_PER_RUN = 100;
/** Pages of MEDIA's listing (1,000 keys each) the sweep reads per run. */
const SWEEP_PAGES = 20;
/** An object younger than this is never swept (the demo seed stores its preview before its row). */
const SWEEP_MIN_AGE_MS = 86_400_000;

/**
 * Asks the preview job for every heard WAV track that has no preview: those whose browser-made
 * preview migration 0032 cleared, and any whose job gave up. The job is idempotent, so a track
 * asked twice gets one preview. (A WAV the job cannot make smaller, or cannot read, is asked again
 * each day and skipped again: cheap, and rare.)
 */
export async function requestMissingPreviews(limit = BACKFILL_PER_RUN): Promise<number> {
  const rows = await db()
    .select({ id: musicTracks.id, audioKey: musicTracks.audioKey })
    .from(musicTracks)
    .where(and(isNull(musicTracks.previewKey), eq(musicTracks.audioContentType, "audio/wav"), inArray(musicTracks.status, [...HEARD])))
    .orderBy(asc(musicTracks.createdAt))
    .limit(Math.min(limit, BACKFILL_PER_RUN))
    .all();
  if (rows.length === 0) return 0;
  await env.PREVIEW_QUEUE.sendBatch(rows.map((r) => ({ body: { type: "music-preview", trackId: r.id, audioKey: r.audioKey } satisfies PreviewQueueMessage })));
  return rows.length;
}

/**
 * Deletes preview objects that the server did not make and no track refers to: the browser-made
 * previews migration 0032 took off their rows. A server-made preview names its master in its R2
 * metadata (`madeFrom`) and is left to the job, which deletes its own leftovers; an object younger
 * than a day is left alone.
 */
export async function sweepOrphanPreviews(now = Date.now()): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  for (let page = 0; page < SWEEP_PAGES; page++) {
    const listing = await env.MEDIA.list({ prefix: "music/previews/", cursor, include: ["customMetadata"] });
    const candidates = listing.objects.filter((o) => !o.customMetadata?.madeFrom && now - o.uploaded.getTime() > SWEEP_MIN_AGE_MS).map((o) => o.key);
    for (let i = 0; i < candidates.length; i += 90) {
      const keys = candidates.slice(i, i + 90);
      const used = await db().select({ key: musicTracks.previewKey }).from(musicTracks).where(inArray(musicTracks.previewKey, keys)).all();
      const orphans = keys.filter((k) => !used.some((u) => u.key === k));
      if (orphans.length > 0) await env.MEDIA.delete(orphans);
      deleted += orphans.length;
    }
    if (!listing.truncated) break;
    cursor = listing.cursor;
  }
  return deleted;
}

/** The daily cron (workers/app.ts): previews for WAV tracks without one, then the orphaned objects. */
export async function runPreviewRepair(options: { now?: number } = {}): Promise<{ requested: number; deleted: number }> {
  const requested = await requestMissingPreviews();
  const deleted = await sweepOrphanPreviews(options.now);
  return { requested, deleted };
}
