// Shared by the clipping worker tests: linked creator/clipper pairs, source uploads in parts.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { SOURCE_PART_BYTES } from "~/modules/clipping/messages";
import { createUser, type TestUser } from "../../factories/users";
import { fetchApp, ORIGIN, postForm, withCookie } from "../helpers";

/** The first bytes of an MP4 ('ftyp' box, brand isom), then zeros: a file the type check accepts. */
export function mp4Bytes(size: number, fill = 0): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(size).fill(fill);
  b.set([0, 0, 0, 0x18, ...new TextEncoder().encode("ftypisom")], 0);
  return b;
}

export async function pair(): Promise<{ creator: TestUser; clipper: TestUser; linkId: string }> {
  const [creator, clipper] = await Promise.all([createUser("creator"), createUser("creator")]);
  const linkId = crypto.randomUUID();
  await env.DB.prepare("INSERT INTO clipper_links (id, creator_user_id, clipper_user_id, approved_at) VALUES (?, ?, ?, ?)")
    .bind(linkId, creator.id, clipper.id, new Date().toISOString())
    .run();
  return { creator, clipper, linkId };
}

export function uploadForm(user: TestUser, fields: Record<string, string>, chunk?: Uint8Array<ArrayBuffer>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (chunk) form.set("chunk", new File([chunk], "part", { type: "application/octet-stream" }));
  return fetchApp("/clipping/upload", { method: "POST", headers: { Origin: ORIGIN, Cookie: user.cookie }, body: form });
}

export type UploadAnswer = { ok: boolean; sourceId: string; partCount: number; uploaded: number[]; error?: string };

/** Uploads `bytes` in parts through the route and completes it; returns the source id. */
export async function uploadSource(user: TestUser, bytes: Uint8Array<ArrayBuffer>, name = "source.mp4"): Promise<string> {
  const first = bytes.subarray(0, Math.min(SOURCE_PART_BYTES, bytes.length));
  const start = await uploadForm(user, { intent: "start", name, size: String(bytes.length) }, first);
  expect(start.status).toBe(200);
  const s = (await start.json()) as UploadAnswer;
  for (let n = 2; n <= s.partCount; n++) {
    const res = await uploadForm(
      user,
      { intent: "part", sourceId: s.sourceId, partNumber: String(n) },
      bytes.subarray((n - 1) * SOURCE_PART_BYTES, Math.min(n * SOURCE_PART_BYTES, bytes.length)),
    );
    expect(res.status).toBe(200);
  }
  const done = await uploadForm(user, { intent: "complete", sourceId: s.sourceId });
  expect(done.status).toBe(200);
  return s.sourceId;
}

export const act = (user: TestUser, fields: Record<string, string>) => postForm("/clipping", fields, withCookie(user.cookie));

/** An admin's revenue import of `month` from a CSV, staged (not committed); returns the staged import's id. */
export async function stageRevenue(admin: TestUser, month: string, csv: string): Promise<string> {
  const form = new FormData();
  form.set("intent", "preview");
  form.set("month", month);
  form.set("file", new File([csv], "revenue.csv", { type: "text/csv" }));
  const res = await fetchApp("/admin/payments", { method: "POST", headers: { Origin: ORIGIN, Cookie: admin.cookie }, body: form });
  expect(res.status).toBe(200);
  const staged = await env.DB.prepare("SELECT id FROM revenue_imports WHERE month = ? AND status = 'staged' ORDER BY created_at DESC LIMIT 1")
    .bind(month)
    .first<{ id: string }>();
  return staged?.id ?? "";
}
