import { and, eq, or } from "drizzle-orm";
import { clipSources, clipperLinks, clips } from "~/db/schema";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { signUrl } from "~/platform/storage.server";
import { DOWNLOAD_URL_SECONDS } from "./messages";
import { DOWNLOAD_PREFIX } from "./sources.server";

// The clipping domain's part of a data export and of an account deletion (issue 28). Clips stay
// after a deletion (they are the source items of ledger lines, kept six years); the person's
// source videos leave R2 and their links end.

/** Their source folder (with download links signed for them), their links as creator or clipper, and their clips. */
export async function clippingDataFor(userId: string, now = Date.now()) {
  const [sources, links, theirClips] = await db().batch([
    db()
      .select({
        id: clipSources.id,
        name: clipSources.name,
        contentType: clipSources.contentType,
        sizeBytes: clipSources.sizeBytes,
        status: clipSources.status,
        objectKey: clipSources.objectKey,
        createdAt: clipSources.createdAt,
      })
      .from(clipSources)
      .where(eq(clipSources.creatorUserId, userId)),
    db()
      .select({
        creatorUserId: clipperLinks.creatorUserId,
        clipperUserId: clipperLinks.clipperUserId,
        clipperShareBps: clipperLinks.clipperShareBps,
        status: clipperLinks.status,
        createdAt: clipperLinks.createdAt,
        revokedAt: clipperLinks.revokedAt,
      })
      .from(clipperLinks)
      .where(or(eq(clipperLinks.creatorUserId, userId), eq(clipperLinks.clipperUserId, userId))),
    db()
      .select({
        platform: clips.platform,
        url: clips.url,
        status: clips.status,
        views: clips.views,
        sourceName: clips.sourceName,
        createdAt: clips.createdAt,
        asClipper: clips.clipperUserId,
      })
      .from(clips)
      .where(or(eq(clips.creatorUserId, userId), eq(clips.clipperUserId, userId))),
  ]);
  const files = await Promise.all(
    sources.map(async ({ objectKey, ...s }) => ({
      ...s,
      downloadUrl: s.status === "ready" ? await signUrl(`${DOWNLOAD_PREFIX}${userId}/`, objectKey, DOWNLOAD_URL_SECONDS, now) : null,
    })),
  );
  return {
    sourceVideos: files,
    links: links.map((l) => ({
      role: l.creatorUserId === userId ? "creator" : "clipper",
      clipperShareBps: l.clipperShareBps,
      status: l.status,
      createdAt: l.createdAt,
      revokedAt: l.revokedAt,
    })),
    clips: theirClips.map(({ asClipper, ...c }) => ({ ...c, role: asClipper === userId ? "clipper" : "creator" })),
  };
}

/** A deleted account's source videos leave R2 (unfinished uploads aborted) and their rows go; its clipper links end. */
export async function eraseClippingData(userId: string): Promise<void> {
  const sources = await db()
    .select({ id: clipSources.id, objectKey: clipSources.objectKey, uploadId: clipSources.uploadId, status: clipSources.status })
    .from(clipSources)
    .where(eq(clipSources.creatorUserId, userId));
  for (const s of sources) {
    if (s.status === "uploading" && s.uploadId) {
      await env.MEDIA.resumeMultipartUpload(s.objectKey, s.uploadId)
        .abort()
        .catch(() => undefined);
    }
  }
  if (sources.length) await env.MEDIA.delete(sources.map((s) => s.objectKey));
  const at = new Date().toISOString();
  await db().batch([
    db().delete(clipSources).where(eq(clipSources.creatorUserId, userId)),
    db()
      .update(clipperLinks)
      .set({ status: "revoked", revokedAt: at })
      .where(and(or(eq(clipperLinks.creatorUserId, userId), eq(clipperLinks.clipperUserId, userId)), eq(clipperLinks.status, "active"))),
  ]);
}
