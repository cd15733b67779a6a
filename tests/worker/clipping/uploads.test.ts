// The source folder (issue 16): multipart upload through the Worker in equal parts, resumable,
// checked by its bytes, quota per creator, aborted parts leave nothing, the 24 h job, rename and delete.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { abortStaleUploads } from "~/modules/clipping/clipping.server";
import { SOURCE_PART_BYTES, SOURCE_QUOTA_BYTES } from "~/modules/clipping/messages";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, outcome, withCookie } from "../helpers";
import { act, mp4Bytes, type UploadAnswer, uploadForm, uploadSource } from "./helpers";

let creator: TestUser;
beforeAll(async () => {
  creator = await createUser("creator");
}, 60_000);

const objectsUnder = async (prefix: string) => (await env.MEDIA.list({ prefix })).objects.length;

describe("source uploads in parts", () => {
  it("uploads a two-part MP4, lists it ready with its size, and serves it back to its creator", async () => {
    const bytes = mp4Bytes(SOURCE_PART_BYTES + 1234, 7);
    const id = await uploadSource(creator, bytes, "Holiday vlog.mp4");
    const row = await env.DB.prepare("SELECT * FROM clip_sources WHERE id = ?").bind(id).first<Record<string, unknown>>();
    expect(row).toMatchObject({ status: "ready", size_bytes: bytes.length, part_count: 2, content_type: "video/mp4", upload_id: null });
    expect(await count("SELECT count(*) AS n FROM clip_source_parts WHERE source_id = ?", id)).toBe(0);
    const object = await env.MEDIA.head(String(row?.object_key));
    expect(object?.size).toBe(bytes.length);

    const page = await fetchApp("/clipping", withCookie(creator.cookie));
    const html = await page.text();
    expect(html).toContain("Holiday vlog.mp4");
    expect(html).toContain("8.4 MB");

    const link = await fetchApp(`/clipping/sources/${id}/download`, withCookie(creator.cookie));
    expect(link.status).toBe(302);
    const file = await fetchApp(link.headers.get("Location") ?? "");
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toBe("video/mp4");
    expect((await file.arrayBuffer()).byteLength).toBe(bytes.length);
  });

  it("a part of the wrong size is refused and the upload can go on; a dropped part is sent again (resume)", async () => {
    const bytes = mp4Bytes(2 * SOURCE_PART_BYTES + 10);
    const start = await uploadForm(creator, { intent: "start", name: "resume.mp4", size: String(bytes.length) }, bytes.subarray(0, SOURCE_PART_BYTES));
    const s = (await start.json()) as UploadAnswer;
    expect(s).toMatchObject({ ok: true, partCount: 3, uploaded: [1] });
    // A short part (the connection dropped mid-part): refused, nothing recorded.
    const short = await uploadForm(
      creator,
      { intent: "part", sourceId: s.sourceId, partNumber: "2" },
      bytes.subarray(SOURCE_PART_BYTES, SOURCE_PART_BYTES + 100),
    );
    expect(short.status).toBe(400);
    expect(await count("SELECT count(*) AS n FROM clip_source_parts WHERE source_id = ?", s.sourceId)).toBe(1);
    // Completing now says parts are missing.
    const early = await uploadForm(creator, { intent: "complete", sourceId: s.sourceId });
    expect(early.status).toBe(409);
    // The page is reloaded and the same file chosen again: the server answers with the parts it has.
    const again = await uploadForm(creator, { intent: "start", name: "resume.mp4", size: String(bytes.length) }, bytes.subarray(0, SOURCE_PART_BYTES));
    expect(((await again.json()) as UploadAnswer).sourceId).toBe(s.sourceId);
    for (const n of [2, 3]) {
      const res = await uploadForm(
        creator,
        { intent: "part", sourceId: s.sourceId, partNumber: String(n) },
        bytes.subarray((n - 1) * SOURCE_PART_BYTES, Math.min(n * SOURCE_PART_BYTES, bytes.length)),
      );
      expect(res.status).toBe(200);
    }
    expect((await uploadForm(creator, { intent: "complete", sourceId: s.sourceId })).status).toBe(200);
    const row = await env.DB.prepare("SELECT status, object_key FROM clip_sources WHERE id = ?")
      .bind(s.sourceId)
      .first<{ status: string; object_key: string }>();
    expect(row?.status).toBe("ready");
    expect((await env.MEDIA.head(row?.object_key ?? ""))?.size).toBe(bytes.length);
  });

  it("an aborted upload leaves no row, no parts and no object", async () => {
    const bytes = mp4Bytes(SOURCE_PART_BYTES + 5);
    const start = await uploadForm(creator, { intent: "start", name: "abort.mp4", size: String(bytes.length) }, bytes.subarray(0, SOURCE_PART_BYTES));
    const s = (await start.json()) as UploadAnswer;
    const row = await env.DB.prepare("SELECT object_key, upload_id FROM clip_sources WHERE id = ?")
      .bind(s.sourceId)
      .first<{ object_key: string; upload_id: string }>();
    const key = row?.object_key ?? "";
    expect((await uploadForm(creator, { intent: "abort", sourceId: s.sourceId })).status).toBe(200);
    // The R2 multipart upload itself is aborted (the uploader's Cancel, issue 31 §3): R2 takes no more
    // parts for it and cannot complete it, so no stored part outlives the cancel.
    const mpu = env.MEDIA.resumeMultipartUpload(key, row?.upload_id ?? "");
    await expect(mpu.uploadPart(2, bytes.subarray(SOURCE_PART_BYTES))).rejects.toThrow();
    await expect(mpu.complete([])).rejects.toThrow();
    expect(await count("SELECT count(*) AS n FROM clip_sources WHERE id = ?", s.sourceId)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM clip_source_parts WHERE source_id = ?", s.sourceId)).toBe(0);
    expect(await env.MEDIA.head(key)).toBeNull();
    // The aborted upload cannot take parts any more.
    const late = await uploadForm(creator, { intent: "part", sourceId: s.sourceId, partNumber: "2" }, bytes.subarray(SOURCE_PART_BYTES));
    expect(late.status).toBe(404);
  });

  it("refuses by its bytes a file that is not MP4, MOV or WebM, and a file over 5 GB, storing nothing", async () => {
    const user = await createUser("creator");
    const png = new Uint8Array(1000);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const wrong = await uploadForm(user, { intent: "start", name: "video.mp4", size: "1000" }, png);
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe("Source videos must be MP4, MOV or WebM files.");
    const big = await uploadForm(user, { intent: "start", name: "big.mp4", size: String(5_000_000_001) }, mp4Bytes(SOURCE_PART_BYTES));
    expect(big.status).toBe(400);
    expect(((await big.json()) as { errors: Record<string, string> }).errors.size).toBe("A source video must be 5 GB or smaller.");
    expect(await count("SELECT count(*) AS n FROM clip_sources WHERE creator_user_id = ?", user.id)).toBe(0);
    expect(await objectsUnder(`clipping/${user.id}/`)).toBe(0);
    // A WebM and a QuickTime pass.
    const webm = new Uint8Array(500);
    webm.set([0x1a, 0x45, 0xdf, 0xa3]);
    expect((await uploadForm(user, { intent: "start", name: "a.webm", size: "500" }, webm)).status).toBe(200);
  });

  it("the quota: a clear message, nothing stored; two uploads at once cannot both pass it", async () => {
    const user = await createUser("creator");
    // Fill the folder to just under the quota with one recorded (ready) source.
    const room = 3 * SOURCE_PART_BYTES;
    await env.DB.prepare(
      "INSERT INTO clip_sources (id, creator_user_id, name, object_key, content_type, size_bytes, part_bytes, part_count, status) VALUES (?, ?, 'full', ?, 'video/mp4', ?, ?, 1, 'ready')",
    )
      .bind(crypto.randomUUID(), user.id, `clipping/${user.id}/full.mp4`, SOURCE_QUOTA_BYTES - room, SOURCE_PART_BYTES)
      .run();
    const size = String(2 * SOURCE_PART_BYTES);
    const [a, b] = await Promise.all([
      uploadForm(user, { intent: "start", name: "a.mp4", size }, mp4Bytes(SOURCE_PART_BYTES)),
      uploadForm(user, { intent: "start", name: "b.mp4", size }, mp4Bytes(SOURCE_PART_BYTES)),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    const refused = (await (a.status === 400 ? a : b).json()) as { error: string };
    expect(refused.error).toMatch(/^Your source folder is full: .* used\. Delete a video to make room for this one\.$/);
    expect(await count("SELECT count(*) AS n FROM clip_sources WHERE creator_user_id = ? AND status = 'uploading'", user.id)).toBe(1);
  });

  it("the scheduled job aborts uploads left incomplete for 24 h, and only those", async () => {
    const user = await createUser("creator");
    const bytes = mp4Bytes(SOURCE_PART_BYTES + 1);
    const s = (await (
      await uploadForm(user, { intent: "start", name: "old.mp4", size: String(bytes.length) }, bytes.subarray(0, SOURCE_PART_BYTES))
    ).json()) as UploadAnswer;
    const fresh = (await (
      await uploadForm(user, { intent: "start", name: "new.mp4", size: String(bytes.length) }, bytes.subarray(0, SOURCE_PART_BYTES))
    ).json()) as UploadAnswer;
    await env.DB.prepare("UPDATE clip_sources SET created_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 25 * 3600 * 1000).toISOString(), s.sourceId)
      .run();
    expect(await abortStaleUploads()).toBeGreaterThanOrEqual(1);
    expect(await count("SELECT count(*) AS n FROM clip_sources WHERE id = ?", s.sourceId)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM clip_sources WHERE id = ?", fresh.sourceId)).toBe(1);
  });

  it("rename and delete (the object goes too); another creator's source is not found", async () => {
    const id = await uploadSource(creator, mp4Bytes(2000), "first name.mp4");
    const key = (await env.DB.prepare("SELECT object_key FROM clip_sources WHERE id = ?").bind(id).first<{ object_key: string }>())?.object_key ?? "";
    expect(await outcome(await act(creator, { intent: "rename", sourceId: id, name: "Better name" }))).toBe("→/clipping");
    expect((await env.DB.prepare("SELECT name FROM clip_sources WHERE id = ?").bind(id).first<{ name: string }>())?.name).toBe("Better name");
    const stranger = await createUser("creator");
    expect((await act(stranger, { intent: "delete", sourceId: id })).status).toBe(404);
    expect((await act(creator, { intent: "rename", sourceId: id, name: "" })).status).toBe(400);
    expect(await outcome(await act(creator, { intent: "delete", sourceId: id }))).toBe("→/clipping");
    expect(await count("SELECT count(*) AS n FROM clip_sources WHERE id = ?", id)).toBe(0);
    expect(await env.MEDIA.head(key)).toBeNull();
  });

  it("bodies that are not forms are refused (415) and anonymous callers get 401", async () => {
    const json = await fetchApp("/clipping/upload", {
      method: "POST",
      headers: { Origin: "https://shortbeat.test", Cookie: creator.cookie, "Content-Type": "application/json" },
      body: "{}",
    });
    expect(json.status).toBe(415);
    const anon = await uploadForm({ ...creator, cookie: "" }, { intent: "abort", sourceId: crypto.randomUUID() });
    expect(anon.status).toBe(401);
  });
});
