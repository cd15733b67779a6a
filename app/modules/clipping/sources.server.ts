import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { clipSourceParts, clipSources } from "~/db/schema";
import { conflict, forbidden, invalid, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { personById } from "~/modules/accounts/accounts.server";
import { auditQuery } from "~/platform/audit.server";
import { builtOnce, db, inJsonList } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { attachmentDisposition, fileNotFound, serveObject, signUrl, sniffType, VIDEO_TYPES, verifySignedUrl, type VideoType } from "~/platform/storage.server";
import { folderAccess } from "./links.server";
import type { SourceRow } from "./types";
import { DOWNLOAD_URL_SECONDS, CLIPPING_MESSAGES as M, MAX_SOURCE_BYTES, SOURCE_PART_BYTES, SOURCE_QUOTA_BYTES, STALE_UPLOAD_MS } from "./messages";

// The creator's source folder in the private MEDIA bucket (docs/decisions/0153-source-uploads.md).
// Uploads go through the Worker as an R2 multipart upload in equal parts of SOURCE_PART_BYTES:
//   start     the first part comes with it: its bytes decide the type (MP4, MOV, WebM) before
//             anything is created; the declared size is counted against the quota in the same
//             INSERT (two uploads cannot both pass it); the same name and size resume an upload.
//   part      part n (exactly its size), recorded with its etag: a dropped connection resends it.
//   complete  every part recorded → R2 completes → 'ready'.
//   abort     R2 aborts, the row goes. The scheduled job aborts uploads idle for 24 h.
// complete and abort claim the row before they call R2, so parallel ones have one winner (0200).
// Downloads: URLs signed for a short time for one user, and the access checked again at each
// request, so a revoked clipper's URLs stop at once.

const EXT: Record<VideoType, string> = { "video/mp4": "mp4", "video/quicktime": "mov", "video/webm": "webm" };

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

const folderUsageStatement = builtOnce((slot) =>
  db()
    .select({ used: sql<number>`coalesce(sum(${clipSources.sizeBytes}), 0)` })
    .from(clipSources)
    .where(eq(clipSources.creatorUserId, slot("creatorUserId"))),
);

export async function folderUsage(creatorUserId: string): Promise<number> {
  const row = await folderUsageQuery(creatorUserId).get();
  return row?.used ?? 0;
}

async function uploadedParts(sourceId: string): Promise<number[]> {
  const rows = await db().select({ n: clipSourceParts.partNumber }).from(clipSourceParts).where(eq(clipSourceParts.sourceId, sourceId));
  return rows.map((r) => r.n).sort((a, b) => a - b);
}

async function ownUpload(actor: Actor, sourceId: string) {
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

// ---------------------------------------------------------------------------------------------
// Finishing an upload: one winner (docs/decisions/0200)
// ---------------------------------------------------------------------------------------------
// complete, abort, deleting an unfinished upload and the daily job each claim the row with a
// guarded update (still uploading, the same R2 upload, no live claim) before they call R2, and undo
// the claim if R2 fails. Whoever loses the claim answers 409; a part arriving after a claim is
// refused (409) before or after its R2 call, so nothing is written for an upload that is going.

/** A claim older than this belongs to a request that died midway: another may take the row over. */
export const CLAIM_STALE_MS = 10 * 60 * 1000;

type Claim = { id: string };

const unclaimed = (now: number) => or(isNull(clipSources.claimId), lt(clipSources.claimedAt, new Date(now - CLAIM_STALE_MS).toISOString()));

/** Claims an upload in progress for this request; null when another request holds it or it is gone. */
async function claimUpload(row: { id: string; uploadId: string | null }): Promise<Claim | null> {
  if (!row.uploadId) return null;
  const claim = { id: crypto.randomUUID() };
  const now = Date.now();
  const claimed = await db()
    .update(clipSources)
    .set({ claimId: claim.id, claimedAt: new Date(now).toISOString() })
    .where(and(eq(clipSources.id, row.id), eq(clipSources.status, "uploading"), eq(clipSources.uploadId, row.uploadId), unclaimed(now)))
    .returning({ id: clipSources.id });
  return claimed.length === 1 ? claim : null;
}

/** Gives a claim back (R2 failed): the upload can be completed or aborted again. */
async function releaseClaim(sourceId: string, claim: Claim): Promise<void> {
  await db()
    .update(clipSources)
    .set({ claimId: null, claimedAt: null })
    .where(and(eq(clipSources.id, sourceId), eq(clipSources.claimId, claim.id)));
}

/** Why an upload cannot be finished by this request: already done, or another request is finishing it. */
async function finishRefusal(sourceId: string) {
  const now = await db().select({ status: clipSources.status }).from(clipSources).where(eq(clipSources.id, sourceId)).get();
  if (!now) return notFound(M.sourceNotFound);
  return conflict(now.status === "ready" ? M.uploadComplete : M.uploadFinishing);
}

/** Still uploading and not claimed by a request finishing it. */
async function isOpen(sourceId: string): Promise<boolean> {
  const now = Date.now();
  const row = await db()
    .select({ id: clipSources.id })
    .from(clipSources)
    .where(and(eq(clipSources.id, sourceId), eq(clipSources.status, "uploading"), unclaimed(now)))
    .get();
  return Boolean(row);
}

/** R2 says the multipart upload is gone (aborted or completed meanwhile): error 10024. */
const isUploadGone = (error: unknown) => /10024|does not exist|NoSuchUpload/i.test(String(error));

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

/**
 * Aborts an upload in progress and drops its row (its parts go with it), under a claim: false when
 * another request holds the upload or it is no longer in progress (nothing was done).
 */
async function discardUpload(row: { id: string; objectKey: string; uploadId: string | null }): Promise<boolean> {
  const claim = await claimUpload(row);
  if (!claim || !row.uploadId) return false;
  try {
    await env.MEDIA.resumeMultipartUpload(row.objectKey, row.uploadId).abort();
  } catch (error) {
    // Gone already (R2 aborts idle uploads itself): nothing left to remove there.
    if (!isUploadGone(error)) {
      await releaseClaim(row.id, claim);
      throw error;
    }
  }
  await db()
    .delete(clipSources)
    .where(and(eq(clipSources.id, row.id), eq(clipSources.claimId, claim.id)));
  return true;
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

export async function renameSource(actor: Actor, sourceId: string, name: string): Promise<void> {
  authorize(actor, "clipping", "use");
  const row = await ownUpload(actor, sourceId);
  await db().update(clipSources).set({ name }).where(eq(clipSources.id, row.id));
}

export async function deleteSource(actor: Actor, request: Request, sourceId: string): Promise<void> {
  authorize(actor, "clipping", "use");
  const row = await ownUpload(actor, sourceId);
  // An unfinished upload is aborted under a claim, like the uploader's cancel.
  if (row.status === "uploading" && !(await discardUpload(row))) throw await finishRefusal(sourceId);
  await env.MEDIA.delete(row.objectKey);
  await db().batch([
    db().delete(clipSources).where(eq(clipSources.id, row.id)),
    auditQuery({ eventType: "clip_source_deleted", userId: actor.id, request, details: { source_id: row.id } }),
  ]);
}

const sourcesOfQuery = builtOnce((slot) =>
  db()
    .select({
      id: clipSources.id,
      creatorUserId: clipSources.creatorUserId,
      name: clipSources.name,
      sizeBytes: clipSources.sizeBytes,
      status: clipSources.status,
      createdAt: clipSources.createdAt,
      partCount: clipSources.partCount,
      uploadedParts: sql<number>`(select count(*) from ${clipSourceParts} where ${clipSourceParts.sourceId} = ${clipSources.id})`,
    })
    .from(clipSources)
    .where(inJsonList(clipSources.creatorUserId, slot("creatorUserIds")))
    .orderBy(desc(clipSources.createdAt)),
);

/** The folders of these creators, as one statement for the page's batch; `sourcesFrom` reads its rows. */
export function sourcesStatement(creatorUserIds: readonly string[]) {
  return sourcesOfQuery({ creatorUserIds: JSON.stringify([...new Set(creatorUserIds)]) });
}

/** The folders in sourcesStatement's rows, by creator: ready videos, and the viewer's own uploads in progress too. */
export function sourcesFrom(rows: readonly (SourceRow & { creatorUserId: string })[], viewerId: string): Map<string, SourceRow[]> {
  const out = new Map<string, SourceRow[]>();
  for (const r of rows) {
    if (r.status !== "ready" && r.creatorUserId !== viewerId) continue;
    const list = out.get(r.creatorUserId) ?? [];
    list.push(r);
    out.set(r.creatorUserId, list);
  }
  return out;
}

/** A ready source of this creator (a clip names the video it was cut from). */
export function readySource(creatorUserId: string, sourceId: string) {
  return db()
    .select({ id: clipSources.id, name: clipSources.name })
    .from(clipSources)
    .where(and(eq(clipSources.id, sourceId), eq(clipSources.creatorUserId, creatorUserId), eq(clipSources.status, "ready")))
    .get();
}

// ---------------------------------------------------------------------------------------------
// Downloads
// ---------------------------------------------------------------------------------------------

export const DOWNLOAD_PREFIX = "/clipping/files/";

/** A URL for this user to download a source, signed for DOWNLOAD_URL_SECONDS, while their access lasts. */
export async function downloadUrl(actor: Actor, sourceId: string, now = Date.now()): Promise<string> {
  authorize(actor, "clipping", "use");
  const row = await db().select().from(clipSources).where(eq(clipSources.id, sourceId)).get();
  if (row?.status !== "ready") throw notFound(M.sourceNotFound);
  const access = await folderAccess(row.creatorUserId, actor.id);
  // A revoked clipper is told so (issue 31 §3); anyone else never learns the source exists.
  if (access === "revoked") throw forbidden(M.revoked, { title: "Access revoked" });
  if (access !== "yes") throw notFound(M.sourceNotFound);
  return signUrl(`${DOWNLOAD_PREFIX}${actor.id}/`, row.objectKey, DOWNLOAD_URL_SECONDS, now);
}

/**
 * Answers a signed download: the signature (user, key, expiry) first, then the access as it is
 * now — the user still approved and not banned, the creator themselves or a clipper with an active
 * link — so a URL issued before a revocation stops working at once. 404 alike for every refusal.
 */
export async function serveDownload(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const rest = url.pathname.slice(DOWNLOAD_PREFIX.length);
  const userId = rest.split("/")[0] ?? "";
  if (!/^[0-9a-f-]{36}$/.test(userId)) return fileNotFound();
  const check = await verifySignedUrl(url, `${DOWNLOAD_PREFIX}${userId}/`);
  if (!check.ok) return fileNotFound();
  const row = await db()
    .select({ creatorUserId: clipSources.creatorUserId, status: clipSources.status, name: clipSources.name, contentType: clipSources.contentType })
    .from(clipSources)
    .where(eq(clipSources.objectKey, check.key))
    .get();
  if (row?.status !== "ready") return fileNotFound();
  const person = await personById(userId);
  if (!person || person.isBanned || person.approvalStatus !== "approved") return fileNotFound();
  const access = await folderAccess(row.creatorUserId, userId);
  if (access === "revoked")
    return new Response(M.revoked, { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  if (access !== "yes") return fileNotFound();
  // "Download" saves the file under the source's name, not played in the browser (RFC 6266).
  return serveObject(env.MEDIA, check.key, request, "private, no-store", {
    disposition: attachmentDisposition(downloadName(row.name, row.contentType as VideoType)),
  });
}

/** The name a downloaded source is saved under: its name in the folder, safe for a file system, with its type's extension. */
function downloadName(name: string, type: VideoType): string {
  const ext = EXT[type] ?? "mp4";
  const clean =
    name
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
      .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, " ")
      .replace(/\s+/g, " ")
      .trim()
      .replace(/^\.+/, "")
      .slice(0, 120)
      .trim() || "source";
  return clean.toLowerCase().endsWith(`.${ext}`) ? clean : `${clean}.${ext}`;
}
