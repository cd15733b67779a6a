import { and, eq, isNull, lt, or } from "drizzle-orm";
import { clipSources } from "~/db/schema";
import { conflict, notFound } from "~/lib/errors";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { CLIPPING_MESSAGES as M } from "./messages";

// ---------------------------------------------------------------------------------------------
// Finishing an upload: one winner (docs/decisions/0200)
// ---------------------------------------------------------------------------------------------
// complete, abort, deleting an unfinished upload and the daily job each claim the row with a
// guarded update (still uploading, the same R2 upload, no live claim) before they call R2, and undo
// the claim if R2 fails. Whoever loses the claim answers 409; a part arriving after a claim is
// refused (409) before or after its R2 call, so nothing is written for an upload that is going.

/** A claim older than this belongs to a request that died midway: another may take the row over. */
export const CLAIM_STALE_MS = 10 * 60 * 1000;

export type Claim = { id: string };

export const unclaimed = (now: number) => or(isNull(clipSources.claimId), lt(clipSources.claimedAt, new Date(now - CLAIM_STALE_MS).toISOString()));

/** Claims an upload in progress for this request; null when another request holds it or it is gone. */
export async function claimUpload(row: { id: string; uploadId: string | null }): Promise<Claim | null> {
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
export async function releaseClaim(sourceId: string, claim: Claim): Promise<void> {
  await db()
    .update(clipSources)
    .set({ claimId: null, claimedAt: null })
    .where(and(eq(clipSources.id, sourceId), eq(clipSources.claimId, claim.id)));
}

/** Why an upload cannot be finished by this request: already done, or another request is finishing it. */
export async function finishRefusal(sourceId: string) {
  const now = await db().select({ status: clipSources.status }).from(clipSources).where(eq(clipSources.id, sourceId)).get();
  if (!now) return notFound(M.sourceNotFound);
  return conflict(now.status === "ready" ? M.uploadComplete : M.uploadFinishing);
}

/** Still uploading and not claimed by a request finishing it. */
export async function isOpen(sourceId: string): Promise<boolean> {
  const now = Date.now();
  const row = await db()
    .select({ id: clipSources.id })
    .from(clipSources)
    .where(and(eq(clipSources.id, sourceId), eq(clipSources.status, "uploading"), unclaimed(now)))
    .get();
  return Boolean(row);
}

/** R2 says the multipart upload is gone (aborted or completed meanwhile): error 10024. */
export const isUploadGone = (error: unknown) => /10024|does not exist|NoSuchUpload/i.test(String(error));

/**
 * Aborts an upload in progress and drops its row (its parts go with it), under a claim: false when
 * another request holds the upload or it is no longer in progress (nothing was done).
 */
export async function discardUpload(row: { id: string; objectKey: string; uploadId: string | null }): Promise<boolean> {
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
