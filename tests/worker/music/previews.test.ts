// A WAV master's listening preview is made on the server from the stored master (issue 40 §2,
// docs/decisions/0289): a `preview` file posted with the form is never stored; the PREVIEW_QUEUE job
// encodes the master into an MP3 that parses frame by frame to the end and lasts as long as the
// WAV; a retried message makes one preview; a track rejected or deleted meanwhile gets none and the
// object is cleaned up; a track in review streams its master to the admin who reviews it.
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { consumePreviewQueue, type PreviewQueueMessage, previewKeyFor } from "~/modules/music/preview.server";
import { mp3FrameAt } from "~/modules/music/sniff";
import { insertTrack } from "../../factories/tracks";
import { createUser, type TestUser } from "../../factories/users";
import { fetchApp, ORIGIN, withCookie } from "../helpers";

const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (c) => c.charCodeAt(0));
const RATE = 44100;
const SECONDS = 10;

/** A CD-quality master (44.1 kHz, 16-bit stereo) of a chord, `seconds` long: 176,400 bytes a second. */
function studioWav(seconds: number): Uint8Array<ArrayBuffer> {
  const frames = RATE * seconds;
  const bytes = new Uint8Array(44 + frames * 4);
  const view = new DataView(bytes.buffer);
  const text = (o: number, t: string) => {
    for (let i = 0; i < t.length; i++) view.setUint8(o + i, t.charCodeAt(i));
  };
  text(0, "RIFF");
  view.setUint32(4, 36 + frames * 4, true);
  text(8, "WAVEfmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 2, true);
  view.setUint32(24, RATE, true);
  view.setUint32(28, RATE * 4, true);
  view.setUint16(32, 4, true);
  view.setUint16(34, 16, true);
  text(36, "data");
  view.setUint32(40, frames * 4, true);
  for (let i = 0; i < frames; i++) {
    const t = i / RATE;
    const v = Math.sin(2 * Math.PI * 220 * t) * 0.3 + Math.sin(2 * Math.PI * 277 * t) * 0.2;
    view.setInt16(44 + i * 4, Math.round(v * 32767), true);
    view.setInt16(46 + i * 4, Math.round(v * 0.8 * 32767), true);
  }
  return bytes;
}

/**
 * The forgery: two valid MPEG-1 Layer III frame headers (128 kbit/s, 44.1 kHz, 417 bytes a
 * frame), then HTML up to 160 KB, the size of 10 s at 128 kbit/s (what the old check measured).
 */
function forgedPreview(): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(160_000);
  for (const at of [0, 417]) bytes.set([0xff, 0xfb, 0x90, 0x64], at);
  const html = new TextEncoder().encode("<html><body><script>alert('not the master')</script></body></html>".repeat(2300));
  bytes.set(html.subarray(0, bytes.length - 834), 834);
  return bytes;
}

const FIELDS = { title: "Forged Preview", artist: "The Testers", genre: "Pop", mood: "Happy", bpm: "120", tags: "test", rights: "on" };

async function submit(user: TestUser, master: Uint8Array<ArrayBuffer>, preview?: Uint8Array<ArrayBuffer>): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries({ ...FIELDS, submissionKey: crypto.randomUUID(), durationSeconds: String((master.length - 44) / (RATE * 4)) }))
    form.set(k, v);
  form.set("audio", new File([master], "master.wav", { type: "audio/wav" }));
  form.set("cover", new File([PNG], "cover.png", { type: "image/png" }));
  if (preview) form.set("preview", new File([preview], "master-preview.mp3", { type: "audio/mpeg" }));
  return fetchApp("/music/submit", withCookie(user.cookie, { method: "POST", headers: { Origin: ORIGIN }, body: form }));
}

type Row = { id: string; status: string; audio_key: string; preview_key: string | null; preview_size: number };
const rowOf = (user: TestUser) =>
  env.DB.prepare("SELECT id, status, audio_key, preview_key, preview_size FROM music_tracks WHERE submitted_by = ?").bind(user.id).first<Row>();

const bytesOf = async (key: string) => {
  const object = await env.MEDIA.get(key);
  return object ? new Uint8Array(await object.arrayBuffer()) : null;
};
const previewObjects = async (user: TestUser) => (await env.MEDIA.list({ prefix: `music/previews/${user.id}/` })).objects.map((o) => o.key);

/** Runs the PREVIEW_QUEUE consumer on one message, as the queue would; its acks and retries. */
async function runJob(trackId: string, audioKey: string) {
  const { createMessageBatch, getQueueResult } = await import("cloudflare:test");
  const batch = createMessageBatch<PreviewQueueMessage>("shortbeat-music-previews", [
    { id: "p1", timestamp: new Date(), attempts: 1, body: { type: "music-preview", trackId, audioKey } },
  ]);
  const ctx = createExecutionContext();
  const outcomes = await consumePreviewQueue(batch);
  await waitOnExecutionContext(ctx);
  return { outcomes, result: await getQueueResult(batch, ctx) };
}

/** Every byte of `mp3` is a Layer III frame, one after the other to the very end: their count, rate and bitrate. */
function framesOf(mp3: Uint8Array): { frames: number; sampleRate: number; bitrates: Set<number> } {
  let frames = 0;
  let sampleRate = 0;
  const bitrates = new Set<number>();
  for (let o = 0; o < mp3.length; ) {
    const frame = mp3FrameAt(mp3, o);
    if (!frame) throw new Error(`no MP3 frame at byte ${o} of ${mp3.length}`);
    if (sampleRate && frame.sampleRate !== sampleRate) throw new Error(`frame at ${o} changes the rate`);
    sampleRate = frame.sampleRate;
    bitrates.add(frame.bitrateKbps);
    frames += 1;
    o += frame.length;
    if (o > mp3.length) throw new Error("the last frame is cut short");
  }
  return { frames, sampleRate, bitrates };
}

let admin: TestUser;
let creator: TestUser;
const partner = () => createUser("partner");

beforeAll(async () => {
  [admin, creator] = await Promise.all([createUser("admin"), createUser("creator")]);
  await fetchApp("/auth"); // the first request compiles the app
}, 180_000);

describe("a preview posted with the form (issue 40 §2)", () => {
  it("is never stored: the submission files the master alone, whatever the `preview` field holds", async () => {
    const user = await partner();
    const forged = forgedPreview();
    const res = await submit(user, studioWav(SECONDS), forged);
    expect(res.status).toBe(302);
    const row = await rowOf(user);
    expect(row?.status).toBe("in_review");
    // No object holds the forged bytes; a preview on the row can only be the one the job makes from the master.
    for (const key of await previewObjects(user)) expect(await bytesOf(key), key).not.toEqual(forged);
    if (row?.preview_key) expect(row.preview_key).toBe(previewKeyFor(row.audio_key));
  });

  it("the submission asks the Worker's own queue consumer for the preview: it arrives on the row, made from the master", async () => {
    const user = await partner();
    const forged = forgedPreview();
    expect((await submit(user, studioWav(SECONDS), forged)).status).toBe(302);
    // The local queue delivers the message to workers/app.ts's queue() within a second or two.
    let row = await rowOf(user);
    for (let waited = 0; !row?.preview_key && waited < 30_000; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      row = await rowOf(user);
    }
    if (!row?.preview_key) throw new Error("no preview after 30 s");
    expect(row.preview_key).toBe(previewKeyFor(row.audio_key));
    const mp3 = await bytesOf(row.preview_key);
    if (!mp3) throw new Error("no preview object");
    expect(mp3).not.toEqual(forged);
    expect(framesOf(mp3).frames).toBeGreaterThan((SECONDS * RATE) / 1152);
    expect(await previewObjects(user)).toEqual([row.preview_key]);
  }, 60_000);
});

describe("the preview job (PREVIEW_QUEUE)", () => {
  it("makes an MP3 of the master: every byte parses as frames, as long as the WAV, under the master's own key", async () => {
    const user = await partner();
    expect((await submit(user, studioWav(SECONDS), forgedPreview())).status).toBe(302);
    const submitted = await rowOf(user);
    if (!submitted) throw new Error("no row");
    const { result } = await runJob(submitted.id, submitted.audio_key);
    expect(result.explicitAcks).toEqual(["p1"]);
    expect(result.retryMessages).toEqual([]);

    const row = await rowOf(user);
    const key = previewKeyFor(submitted.audio_key);
    expect(key).toBe(submitted.audio_key.replace(/^music\/audio\//, "music/previews/").replace(/\.wav$/, ".mp3"));
    expect(row?.preview_key).toBe(key);
    const mp3 = await bytesOf(key);
    if (!mp3) throw new Error("no preview object");
    expect(row?.preview_size).toBe(mp3.length);
    const object = await env.MEDIA.head(key);
    expect(object?.httpMetadata?.contentType).toBe("audio/mpeg");
    expect(object?.customMetadata?.madeFrom).toBe(submitted.audio_key);

    const { frames, sampleRate, bitrates } = framesOf(mp3);
    expect(sampleRate).toBe(RATE);
    expect([...bitrates]).toEqual([128]);
    // 1152 samples a frame: the WAV's 10 s, plus LAME's encoder delay and padding (under 3 frames).
    const seconds = (frames * 1152) / sampleRate;
    expect(seconds).toBeGreaterThanOrEqual(SECONDS);
    expect(seconds).toBeLessThan(SECONDS + 0.1);
    // 128 kbit/s of 10 s: about 160 KB, a ninth of the master.
    expect(mp3.length).toBeGreaterThan(155_000);
    expect(mp3.length).toBeLessThan(170_000);
  });

  it("a retried or duplicated message makes one preview: the same object, the row unchanged", async () => {
    const user = await partner();
    expect((await submit(user, studioWav(3))).status).toBe(302);
    const submitted = await rowOf(user);
    if (!submitted) throw new Error("no row");
    await runJob(submitted.id, submitted.audio_key);
    const first = await rowOf(user);
    const bytes = await bytesOf(String(first?.preview_key));
    const again = await runJob(submitted.id, submitted.audio_key);
    expect(again.result.explicitAcks).toEqual(["p1"]);
    expect(await rowOf(user)).toEqual(first);
    expect(await previewObjects(user)).toEqual([first?.preview_key]);
    expect(await bytesOf(String(first?.preview_key))).toEqual(bytes);
  });

  it.each([
    [
      "rejected",
      (id: string) => env.DB.prepare("UPDATE music_tracks SET status = 'rejected', preview_key = NULL, preview_size = 0 WHERE id = ?").bind(id).run(),
    ],
    ["deleted", (id: string) => env.DB.prepare("DELETE FROM music_tracks WHERE id = ?").bind(id).run()],
  ])("a track %s before the job runs gets no preview, and an object an earlier run stored is deleted", async (_, change) => {
    const user = await partner();
    const id = crypto.randomUUID();
    const audioKey = `music/audio/${user.id}/${id}.wav`;
    const master = studioWav(2);
    await env.MEDIA.put(audioKey, master, { httpMetadata: { contentType: "audio/wav" } });
    await insertTrack({ id, audioKey, audioSize: master.length, status: "in_review", submittedBy: user.id, publishedAt: null });
    // An earlier run stored the preview, then its update did not happen (the message is retried).
    await env.MEDIA.put(previewKeyFor(audioKey), new Uint8Array([0xff, 0xfb, 0x90, 0x64]));
    await change(id);
    const { outcomes, result } = await runJob(id, audioKey);
    expect(outcomes).toEqual(["skipped"]);
    expect(result.explicitAcks).toEqual(["p1"]);
    expect(await previewObjects(user)).toEqual([]);
    const row = await env.DB.prepare("SELECT preview_key FROM music_tracks WHERE id = ?").bind(id).first();
    expect(row?.preview_key ?? null).toBeNull();
  });

  it("a master replaced meanwhile (a resubmission) gets no preview from the old message", async () => {
    const user = await partner();
    const id = crypto.randomUUID();
    const oldKey = `music/audio/${user.id}/${crypto.randomUUID()}.wav`;
    const master = studioWav(2);
    await env.MEDIA.put(oldKey, master);
    await insertTrack({
      id,
      audioKey: `music/audio/${user.id}/${crypto.randomUUID()}.wav`,
      audioSize: master.length,
      status: "in_review",
      submittedBy: user.id,
    });
    expect((await runJob(id, oldKey)).outcomes).toEqual(["skipped"]);
    expect(await previewObjects(user)).toEqual([]);
  });
});

describe("what the admin reviewing a submission hears (issue 40 §2)", () => {
  it("the master, even once a preview exists; after approval listeners get the server's preview", async () => {
    const user = await partner();
    const master = studioWav(3);
    expect((await submit(user, master, forgedPreview())).status).toBe(302);
    const submitted = await rowOf(user);
    if (!submitted) throw new Error("no row");
    await runJob(submitted.id, submitted.audio_key);
    const withPreview = await rowOf(user);
    expect(withPreview?.preview_key).toBeTruthy();

    for (const listener of [admin, user]) {
      const res = await fetchApp(`/music/audio/${submitted.id}`, withCookie(listener.cookie));
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("audio/wav");
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(master);
    }

    await env.DB.prepare("UPDATE music_tracks SET status = 'published', published_at = ? WHERE id = ?").bind(new Date().toISOString(), submitted.id).run();
    const heard = await fetchApp(`/music/audio/${submitted.id}`, withCookie(creator.cookie));
    expect(heard.status).toBe(200);
    expect(heard.headers.get("Content-Type")).toBe("audio/mpeg");
    expect(new Uint8Array(await heard.arrayBuffer())).toEqual(await bytesOf(String(withPreview?.preview_key)));
  });
});
