import { and, desc, eq, isNull, lt, type SQL, sql } from "drizzle-orm";
import { clipSourceParts, clipSources } from "~/db/schema";
import { conflict, invalid, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { auditQuery } from "~/platform/audit.server";
import { builtOnce, db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { sniffType, VIDEO_TYPES, type VideoType } from "~/platform/storage.server";
import { CLIPPING_MESSAGES as M, MAX_SOURCE_BYTES, SOURCE_PART_BYTES, SOURCE_QUOTA_BYTES, STALE_UPLOAD_MS } from "./messages";
import { CLAIM_STALE_MS, claimUpload, discardUpload, finishRefusal, isOpen, isUploadGone, releaseClaim, unclaimed } from "./source-upload-claims.server";

// Uploading a video into the creator's source folder, as an R2 multipart upload in parts of
// SOURCE_PART_BYTES: start, part, complete, abort and the daily job for idle uploads (the design is
// in sources.server.ts's heading; who may finish an upload, in source-upload-claims.server.ts).

export const EXT: Record<VideoType, string> = { "video/mp4": "mp4", "video/quicktime": "mov", "video/webm": "webm" };

export type UploadState = { sourceId: string; partBytes: number; partCount: number; uploaded: number[] };

const partCountOf = (size: number) => Math.ceil(size / SOURCE_PART_BYTES);
const partSize = (size: number, n: number) => (n < partCountOf(size) ? SOURCE_PART_BYTES : size - (partCountOf(size) - 1) * SOURCE_PART_BYTES);

function safeName(name: string, type: VideoType): string {
  const base = name
    .replace(/\.[^.]*$/, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return `${base || "source"}.${EXT[type]}`;
}

/** The bytes used in a creator's folder (uploads in progress count with their declared size). */
/** The bytes a creator's folder holds, as one statement (the clipping page reads it in its batch). */
export function folderUsageQuery(creatorUserId: string) {
  return folderUsageStatement({ creatorUserId });
}

/** The bytes in `creatorUserId`'s folder, as a query (/clipping builds it once over the session's user: page.server.ts). */
export function folderUsageOf(creatorUserId: string | SQL<string | null>) {
  return db()
    .select({ used: sql<number>`coalesce(sum(${clipSources.sizeBytes}), 0)` })
    .from(clipSources)
    .where(eq(clipSources.creatorUserId, creatorUserId));
}

const folderUsageStatement = builtOnce((slot) => folderUsageOf(slot("creatorUserId")));

export async function folderUsage(creatorUserId: string): Promise<number> {
  const row = await folderUsageQuery(creatorUserId).get();
  return row?.used ?? 0;
}

async function uploadedParts(sourceId: string): Promise<number[]> {
  const rows = await db().select({ n: clipSourceParts.partNumber }).from(clipSourceParts).where(eq(clipSourceParts.sourceId, sourceId));
  return rows.map((r) => r.n).sort((a, b) => a - b);
}

export async function ownUpload(actor: Actor, sourceId: string) {
  const row = await db().select().from(clipSources).where(eq(clipSources.id, sourceId)).get();
  authorize(actor, "clipping", "manageOwn", { ownerId: row?.creatorUserId ?? null });
  if (!row) throw notFound(M.sourceNotFound);
  return row;
}

export async function startUpload(actor: Actor, _request: Request, input: { name: string; size: number; chunk: File }): Promise<UploadState> {
  authorize(actor, "clipping", "use");
  if (input.size > MAX_SOURCE_BYTES) throw invalid(M.tooLarge, { fieldErrors: { file: M.tooLarge } });
  if (input.chunk.size !== partSize(input.size, 1)) throw invalid(M.badPart, { fieldErrors: { file: M.badPart } });
  const type = sniffType(new Uint8Array(await input.chunk.slice(0, 16).arrayBuffer()));
  if (!type || !(VIDEO_TYPES as readonly string[]).includes(type)) throw invalid(M.wrongType, { fieldErrors: { file: M.wrongType } });
  const videoType = type as VideoType;

  // The same file again (name and size) resumes its upload.
  const open = await db()
    .select()
    .from(clipSources)
    .where(
      and(
        eq(clipSources.creatorUserId, actor.id),
        eq(clipSources.status, "uploading"),
        eq(clipSources.name, input.name),
        eq(clipSources.sizeBytes, input.size),
      ),
    )
    .orderBy(desc(clipSources.createdAt))
    .get();
  if (open) return { sourceId: open.id, partBytes: open.partBytes, partCount: open.partCount, uploaded: await uploadedParts(open.id) };

  const id = crypto.randomUUID();
  const objectKey = `clipping/${actor.id}/${id}.${EXT[videoType]}`;
  const mpu = await env.MEDIA.createMultipartUpload(objectKey, {
    httpMetadata: { contentType: videoType },
    customMetadata: { filename: safeName(input.name, videoType) },
  });
  const partCount = partCountOf(input.size);
  // One statement: the row only if the folder has room for the declared size (columns in table
  // order: …, upload_id, claim_id, claimed_at, created_at, completed_at).
  const values = [id, actor.id, input.name, objectKey, videoType, input.size, SOURCE_PART_BYTES, partCount, "uploading", mpu.uploadId];
  const inserted = await db()
    .insert(clipSources)
    .select(
      sql`select ${sql.join(
        values.map((v) => sql`${v}`),
        sql`, `,
      )}, null, null, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), null where (select coalesce(sum(${clipSources.sizeBytes}), 0) from ${clipSources} where ${clipSources.creatorUserId} = ${actor.id}) + ${input.size} <= ${SOURCE_QUOTA_BYTES}`,
    )
    .returning({ id: clipSources.id });
  if (inserted.length === 0) {
    await mpu.abort().catch(() => {});
    const used = await folderUsage(actor.id);
    throw invalid(M.quota(used), { title: "Source folder full", fieldErrors: { file: M.quota(used) } });
  }
  try {
    const part = await mpu.uploadPart(1, input.chunk);
    await db().insert(clipSourceParts).values({ sourceId: id, partNumber: 1, etag: part.etag, sizeBytes: input.chunk.size });
  } catch (error) {
    await discardUpload({ id, objectKey, uploadId: mpu.uploadId }).catch(() => false);
    throw error;
  }
  return { sourceId: id, partBytes: SOURCE_PART_BYTES, partCount, uploaded: [1] };
}

export async function uploadPart(actor: Actor, input: { sourceId: string; partNumber: number; chunk: File }): Promise<UploadState> {
  authorize(actor, "clipping", "use");
  const row = await ownUpload(actor, input.sourceId);
  if (row.status !== "uploading" || !row.uploadId) throw conflict(row.status === "ready" ? M.uploadComplete : M.uploadGone);
  if (row.claimId && Date.parse(row.claimedAt ?? "") > Date.now() - CLAIM_STALE_MS) throw conflict(M.uploadFinishing);
  if (input.partNumber > row.partCount || input.chunk.size !== partSize(row.sizeBytes, input.partNumber)) {
    throw invalid(M.badPart, { fieldErrors: { file: M.badPart } });
  }
  if (input.partNumber === 1) {
    const type = sniffType(new Uint8Array(await input.chunk.slice(0, 16).arrayBuffer()));
    if (type !== row.contentType) throw invalid(M.wrongType, { fieldErrors: { file: M.wrongType } });
  }
  const mpu = env.MEDIA.resumeMultipartUpload(row.objectKey, row.uploadId);
  let etag: string;
  try {
    etag = (await mpu.uploadPart(input.partNumber, input.chunk)).etag;
  } catch (error) {
    // Aborted or completed meanwhile: the answer says so (R2's own error is not the user's).
    if (isUploadGone(error)) throw await finishRefusal(row.id);
    throw error;
  }
  // Recorded only while the upload is still open and unclaimed: a part that lost the race to a
  // complete or an abort is refused (R2 drops parts a completion does not list, and all on abort).
  const recorded = await db()
    .insert(clipSourceParts)
    .select(
      sql`select ${row.id}, ${input.partNumber}, ${etag}, ${input.chunk.size}, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') where exists (select 1 from ${clipSources} where ${and(
        eq(clipSources.id, row.id),
        eq(clipSources.status, "uploading"),
        eq(clipSources.uploadId, row.uploadId),
        isNull(clipSources.claimId),
      )})`,
    )
    .onConflictDoUpdate({ target: [clipSourceParts.sourceId, clipSourceParts.partNumber], set: { etag, sizeBytes: input.chunk.size } })
    .returning({ n: clipSourceParts.partNumber });
  if (recorded.length === 0) throw await finishRefusal(row.id);
  return { sourceId: row.id, partBytes: row.partBytes, partCount: row.partCount, uploaded: await uploadedParts(row.id) };
}

export async function completeUpload(actor: Actor, request: Request, sourceId: string): Promise<{ sourceId: string }> {
  authorize(actor, "clipping", "use");
  const row = await ownUpload(actor, sourceId);
  if (row.status === "ready") throw conflict(M.uploadComplete);
  const partsOf = () => db().select().from(clipSourceParts).where(eq(clipSourceParts.sourceId, sourceId)).orderBy(clipSourceParts.partNumber);
  const missing = (parts: { partNumber: number }[]) => conflict(M.partsMissing, { details: { uploaded: parts.map((p) => p.partNumber).join(",") } });
  const before = await partsOf();
  // Parts gone because a parallel request finished the upload meanwhile: say that instead.
  if (before.length !== row.partCount) throw (await isOpen(sourceId)) ? missing(before) : await finishRefusal(sourceId);
  const claim = await claimUpload(row);
  if (!claim || !row.uploadId) throw await finishRefusal(sourceId);
  try {
    // Read again under the claim: no part can be recorded any more.
    const parts = await partsOf();
    if (parts.length !== row.partCount) throw missing(parts);
    await env.MEDIA.resumeMultipartUpload(row.objectKey, row.uploadId).complete(parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag })));
  } catch (error) {
    await releaseClaim(sourceId, claim);
    if (isUploadGone(error)) throw conflict(M.uploadGone);
    throw error;
  }
  await db().batch([
    db()
      .update(clipSources)
      .set({ status: "ready", uploadId: null, claimId: null, claimedAt: null, completedAt: new Date().toISOString() })
      .where(and(eq(clipSources.id, sourceId), eq(clipSources.claimId, claim.id))),
    db().delete(clipSourceParts).where(eq(clipSourceParts.sourceId, sourceId)),
    auditQuery({ eventType: "clip_source_uploaded", userId: actor.id, request, details: { source_id: sourceId, size: row.sizeBytes } }),
  ]);
  return { sourceId };
}

export async function abortUpload(actor: Actor, sourceId: string): Promise<void> {
  authorize(actor, "clipping", "use");
  const row = await ownUpload(actor, sourceId);
  if (row.status !== "uploading") throw conflict(M.uploadComplete);
  if (!(await discardUpload(row))) throw await finishRefusal(sourceId);
}

/** The scheduled job: uploads left incomplete for 24 h are aborted (their parts go with them). */
export async function abortStaleUploads(now = Date.now()): Promise<number> {
  const cutoff = new Date(now - STALE_UPLOAD_MS).toISOString();
  const stale = await db()
    .select({ id: clipSources.id, objectKey: clipSources.objectKey, uploadId: clipSources.uploadId })
    .from(clipSources)
    .where(and(eq(clipSources.status, "uploading"), lt(clipSources.createdAt, cutoff), unclaimed(now)))
    .limit(200);
  let aborted = 0;
  for (const s of stale) if (await discardUpload(s).catch(() => false)) aborted += 1;
  return aborted;
}
