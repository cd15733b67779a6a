import { eq } from "drizzle-orm";
import { clipSources } from "~/db/schema";
import { forbidden, notFound } from "~/lib/errors";
import { type Actor, authorize } from "~/lib/permissions";
import { personById } from "~/modules/accounts/accounts.server";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { attachmentDisposition, fileNotFound, serveObject, signUrl, verifySignedUrl, type VideoType } from "~/platform/storage.server";
import { folderAccess } from "./links.server";
import { DOWNLOAD_URL_SECONDS, CLIPPING_MESSAGES as M } from "./messages";
import { EXT } from "./source-uploads.server";

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
