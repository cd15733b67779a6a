import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { clipSourceParts, clipSources } from "~/db/schema";
import { type Actor, authorize } from "~/lib/permissions";
import { auditQuery } from "~/platform/audit.server";
import { builtOnce, db, inJsonList } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { discardUpload, finishRefusal } from "./source-upload-claims.server";
import { ownUpload } from "./source-uploads.server";
import type { SourceRow } from "./types";

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
//
// This file holds the folder (renaming, deleting, listing); the upload flow is in
// source-uploads.server.ts, finishing an upload under a claim in source-upload-claims.server.ts,
// downloads in source-downloads.server.ts. What callers imported from here is re-exported.
export { downloadUrl, DOWNLOAD_PREFIX, serveDownload } from "./source-downloads.server";
export { CLAIM_STALE_MS } from "./source-upload-claims.server";
export {
  abortStaleUploads,
  abortUpload,
  completeUpload,
  folderUsage,
  folderUsageOf,
  folderUsageQuery,
  startUpload,
  type UploadState,
  uploadPart,
} from "./source-uploads.server";

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

/** The folders of the creators in `creators` (an SQL condition over the creator column), newest first. */
const sourcesWhere = (creators: SQL) =>
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
    .where(creators)
    .orderBy(desc(clipSources.createdAt));

const sourcesOfQuery = builtOnce((slot) => sourcesWhere(inJsonList(clipSources.creatorUserId, slot("creatorUserIds"))));

/** sourcesStatement's select for the creators of an SQL subquery (e.g. over the session's user), to build once. */
export const sourcesAmong = (creatorUserIds: SQL) => sourcesWhere(sql`${clipSources.creatorUserId} in (${creatorUserIds})`);

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
