// Upload races (issue 27, item 2): parallel `complete` of one upload, and `part`/`complete`
// racing `abort`. One winner, the others 409 with a clear message, never 500; nothing orphaned
// (no row without its object, no object or parts without their row).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { SOURCE_PART_BYTES } from "~/modules/clipping/messages";
import { createUser, type TestUser } from "../../factories/users";
import { count } from "../helpers";
import { mp4Bytes, type UploadAnswer, uploadForm } from "./helpers";

let creator: TestUser;
beforeAll(async () => {
  creator = await createUser("creator");
}, 60_000);

async function start(bytes: Uint8Array<ArrayBuffer>, name: string): Promise<{ sourceId: string; key: string }> {
  const res = await uploadForm(creator, { intent: "start", name, size: String(bytes.length) }, bytes.subarray(0, Math.min(SOURCE_PART_BYTES, bytes.length)));
  expect(res.status).toBe(200);
  const s = (await res.json()) as UploadAnswer;
  const row = await env.DB.prepare("SELECT object_key FROM clip_sources WHERE id = ?").bind(s.sourceId).first<{ object_key: string }>();
  return { sourceId: s.sourceId, key: row?.object_key ?? "" };
}

async function answers(responses: Response[]): Promise<{ status: number; error?: string }[]> {
  return Promise.all(responses.map(async (r) => ({ status: r.status, ...((await r.json().catch(() => ({}))) as { error?: string }) })));
}

/** The upload either finished (ready row, its object, no parts) or left nothing at all. */
async function settled(sourceId: string, key: string): Promise<"ready" | "gone"> {
  const row = await env.DB.prepare("SELECT status, upload_id FROM clip_sources WHERE id = ?")
    .bind(sourceId)
    .first<{ status: string; upload_id: string | null }>();
  const parts = await count("SELECT count(*) AS n FROM clip_source_parts WHERE source_id = ?", sourceId);
  const object = await env.MEDIA.head(key);
  if (row) {
    expect(row).toMatchObject({ status: "ready", upload_id: null });
    expect(parts).toBe(0);
    expect(object).not.toBeNull();
    return "ready";
  }
  expect(parts).toBe(0);
  expect(object).toBeNull();
  return "gone";
}

describe("upload races", () => {
  it("25 parallel completes of one upload: one 200, the others 409 with a clear message, never 500", async () => {
    const bytes = mp4Bytes(SOURCE_PART_BYTES + 4096, 3);
    const { sourceId, key } = await start(bytes, "parallel-complete.mp4");
    expect((await uploadForm(creator, { intent: "part", sourceId, partNumber: "2" }, bytes.subarray(SOURCE_PART_BYTES))).status).toBe(200);
    const results = await answers(await Promise.all(Array.from({ length: 25 }, () => uploadForm(creator, { intent: "complete", sourceId }))));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(24);
    for (const r of results.filter((x) => x.status === 409)) expect(r.error).toMatch(/^This upload is (already complete|being finished)/);
    expect(await settled(sourceId, key)).toBe("ready");
    expect((await env.MEDIA.head(key))?.size).toBe(bytes.length);
    // Completing again later: still 409, the video stays.
    expect((await uploadForm(creator, { intent: "complete", sourceId })).status).toBe(409);
  });

  it("complete racing abort (the uploader's cancel): one of them wins, the rest 409, nothing orphaned", async () => {
    for (let round = 0; round < 3; round++) {
      const bytes = mp4Bytes(5000, round);
      const { sourceId, key } = await start(bytes, `complete-abort-${round}.mp4`);
      const requests = Array.from({ length: 8 }, (_, i) => uploadForm(creator, { intent: i % 2 === round % 2 ? "complete" : "abort", sourceId }));
      const results = await answers(await Promise.all(requests));
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s !== 200).every((s) => s === 409 || s === 404)).toBe(true);
      for (const r of results.filter((x) => x.status !== 200)) expect(r.error).toBeTruthy();
      await settled(sourceId, key);
    }
  });

  it("parts racing abort: no 500, and the aborted upload leaves no row, no parts and no object", async () => {
    const bytes = mp4Bytes(3 * SOURCE_PART_BYTES + 100, 9);
    const { sourceId, key } = await start(bytes, "parts-abort.mp4");
    const part = (n: number) =>
      uploadForm(
        creator,
        { intent: "part", sourceId, partNumber: String(n) },
        bytes.subarray((n - 1) * SOURCE_PART_BYTES, Math.min(n * SOURCE_PART_BYTES, bytes.length)),
      );
    const results = await answers(
      await Promise.all([
        part(2),
        uploadForm(creator, { intent: "abort", sourceId }),
        part(3),
        part(4),
        uploadForm(creator, { intent: "abort", sourceId }),
        part(2),
      ]),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    // Exactly one abort wins.
    expect([statuses[1], statuses[4]].filter((s) => s === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.error).toBeTruthy();
    expect(await settled(sourceId, key)).toBe("gone");
    expect((await env.MEDIA.list({ prefix: key })).objects).toHaveLength(0);
  });

  it("parts and complete racing abort: no 500, and one outcome", async () => {
    for (let round = 0; round < 2; round++) {
      const bytes = mp4Bytes(2 * SOURCE_PART_BYTES + 100, round);
      const { sourceId, key } = await start(bytes, `mixed-${round}.mp4`);
      const part = (n: number) =>
        uploadForm(
          creator,
          { intent: "part", sourceId, partNumber: String(n) },
          bytes.subarray((n - 1) * SOURCE_PART_BYTES, Math.min(n * SOURCE_PART_BYTES, bytes.length)),
        );
      await part(2);
      const results = await answers(
        await Promise.all([
          part(3),
          uploadForm(creator, { intent: "complete", sourceId }),
          uploadForm(creator, { intent: "abort", sourceId }),
          part(3),
          uploadForm(creator, { intent: "complete", sourceId }),
        ]),
      );
      expect(results.map((r) => r.status).filter((s) => s >= 500)).toEqual([]);
      await settled(sourceId, key).catch(async (error) => {
        // Neither complete nor abort won yet (complete ran before part 3 arrived): the upload is still open.
        const row = await env.DB.prepare("SELECT status FROM clip_sources WHERE id = ?").bind(sourceId).first<{ status: string }>();
        if (row?.status !== "uploading") throw error;
      });
    }
  });
});
