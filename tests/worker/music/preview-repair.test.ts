// The one-time repair of previews browsers uploaded before the server made them (docs/decisions/0289,
// 0326): migration 0032 clears every preview whose key is not the one derived from its master, the
// daily cron asks the server's preview job for those WAV tracks, and the browser's objects, which
// no row refers to any more, are deleted. A server-made preview is left as it is.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { previewKeyFor, runPreviewRepair } from "~/modules/music/preview.server";
import { trackInsert } from "../../factories/tracks";
import { createUser, type TestUser } from "../../factories/users";
import { fetchApp } from "../helpers";

const RATE = 22050;

/** A mono 16-bit WAV of a tone, `seconds` long. */
function wav(seconds: number): Uint8Array<ArrayBuffer> {
  const frames = RATE * seconds;
  const bytes = new Uint8Array(44 + frames * 2);
  const view = new DataView(bytes.buffer);
  const text = (o: number, t: string) => {
    for (let i = 0; i < t.length; i++) view.setUint8(o + i, t.charCodeAt(i));
  };
  text(0, "RIFF");
  view.setUint32(4, 36 + frames * 2, true);
  text(8, "WAVEfmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, RATE, true);
  view.setUint32(28, RATE * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, "data");
  view.setUint32(40, frames * 2, true);
  for (let i = 0; i < frames; i++) view.setInt16(44 + i * 2, Math.round(Math.sin((2 * Math.PI * 330 * i) / RATE) * 0.3 * 32767), true);
  return bytes;
}

/** What a tampered page could have sent as the preview: two frame headers, then HTML. */
const FORGED = new TextEncoder().encode(`\xff\xfb\x90\x64<html><script>alert(1)</script></html>`.repeat(200));

type Row = { preview_key: string | null; preview_size: number };
const rowOf = (id: string) => env.DB.prepare("SELECT preview_key, preview_size FROM music_tracks WHERE id = ?").bind(id).first<Row>();

/** A published WAV track of `partner`'s with its master in MEDIA, and the given preview on its row and in MEDIA. */
async function publishedTrack(partner: TestUser, preview: "browser" | "server"): Promise<{ id: string; audioKey: string; previewKey: string }> {
  const master = wav(3);
  const audioKey = `music/audio/${partner.id}/${crypto.randomUUID()}.wav`;
  await env.MEDIA.put(audioKey, master, { httpMetadata: { contentType: "audio/wav" } });
  const id = crypto.randomUUID();
  await trackInsert({ id, audioKey, audioSize: master.byteLength, durationSeconds: 3, submittedBy: partner.id, status: "published" }).run();
  const previewKey = preview === "browser" ? `music/previews/${partner.id}/${crypto.randomUUID()}.mp3` : previewKeyFor(audioKey);
  await env.MEDIA.put(previewKey, FORGED, {
    httpMetadata: { contentType: "audio/mpeg" },
    // 0270's form named the file; 0289's job names the master.
    customMetadata: preview === "browser" ? { filename: "track-preview.mp3" } : { madeFrom: audioKey },
  });
  await env.DB.prepare("UPDATE music_tracks SET preview_key = ?, preview_size = ? WHERE id = ?").bind(previewKey, FORGED.byteLength, id).run();
  return { id, audioKey, previewKey };
}

/** Runs migration 0032's statements, as `wrangler d1 migrations apply` would on a database made before it. */
async function applyRepairMigration(): Promise<void> {
  const migration = env.TEST_MIGRATIONS.find((m) => m.name.includes("clear_browser_previews"));
  expect(migration, "migrations/*_clear_browser_previews.sql").toBeDefined();
  for (const query of migration?.queries ?? []) await env.DB.prepare(query).run();
}

let partner: TestUser;
beforeAll(async () => {
  partner = await createUser("partner");
  await fetchApp("/auth");
}, 180_000);

describe("previews browsers made (issue 41, decision 0326)", () => {
  it("a published track's random-key preview is cleared, the cron gets it a server preview, and the browser's object is deleted", async () => {
    const forged = await publishedTrack(partner, "browser");
    const made = await publishedTrack(partner, "server");

    await applyRepairMigration();
    expect(await rowOf(forged.id)).toEqual({ preview_key: null, preview_size: 0 });
    // A server-made preview (key derived from its master) stays.
    expect(await rowOf(made.id)).toEqual({ preview_key: made.previewKey, preview_size: FORGED.byteLength });

    // The daily run (a day later: the sweep leaves objects younger than a day alone).
    const { requested, deleted } = await runPreviewRepair({ now: Date.now() + 2 * 86_400_000 });
    expect(requested).toBeGreaterThanOrEqual(1);
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await env.MEDIA.head(forged.previewKey)).toBeNull();
    expect(await env.MEDIA.head(made.previewKey)).not.toBeNull();

    // The local queue hands the job to the Worker's queue() consumer.
    let row = await rowOf(forged.id);
    for (let waited = 0; !row?.preview_key && waited < 30_000; waited += 200) {
      await new Promise((r) => setTimeout(r, 200));
      row = await rowOf(forged.id);
    }
    expect(row?.preview_key).toBe(previewKeyFor(forged.audioKey));
    const object = await env.MEDIA.get(previewKeyFor(forged.audioKey));
    expect(object?.customMetadata?.madeFrom).toBe(forged.audioKey);
    const bytes = new Uint8Array((await object?.arrayBuffer()) ?? new ArrayBuffer(0));
    expect(bytes.byteLength).toBe(row?.preview_size);
    expect(new TextDecoder().decode(bytes)).not.toContain("<script>");

    // A second run asks nothing more for this track and keeps its new preview.
    await runPreviewRepair({ now: Date.now() + 2 * 86_400_000 });
    expect((await rowOf(forged.id))?.preview_key).toBe(previewKeyFor(forged.audioKey));
    expect(await env.MEDIA.head(previewKeyFor(forged.audioKey))).not.toBeNull();
  }, 60_000);
});
