import { and, desc, eq, isNull } from "drizzle-orm";
import { thumbnailAssets, thumbnailExports, thumbnailProjects } from "~/db/schema";
import { conflict, invalid, notFound } from "~/lib/errors";
import { authorize, type Actor } from "~/lib/permissions";
import { userIdsByEmail } from "~/modules/accounts/accounts.server";
import { putPublicImage, signMediaUrl } from "~/modules/media/media.server";
import { notifyUserQuietly } from "~/modules/notifications/notifications.server";
import { auditQuery } from "~/platform/audit.server";
import type { BodyLimit } from "~/platform/body.server";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { FORMATS, type Format, type ThumbnailDocument } from "./layers";
import { imageKindOf, imageProblem, imageSizeOf, MAX_IMAGE_BYTES, RECENT_EXPORTS, THUMBNAIL_MESSAGES } from "./messages";
import type { ExportInput, SaveProjectInput, SendExportInput } from "./schema";
import { aiStatus } from "./thumbnail-ai.server";
import type { EditorPage, ExportSummary, LoadedProject } from "./types";

export * from "./channel-thumbnails.server";
export * from "./thumbnail-ai.server";
export type * from "./types";

// The thumbnail editor's server side (issue 19): projects (layers JSON in D1, their images in the
// private MEDIA bucket), exports (PNG/JPEG at the format's exact size in MEDIA, downloaded through
// signed URLs), and sending an export to a creator (copied into the public AVATARS store that
// notification images use, then a bell notification). Admins only. See docs/decisions/0180.
// A creator's channel thumbnail is in channel-thumbnails.server.ts, the AI helpers (captions,
// backgrounds, their limits) in thumbnail-ai.server.ts; both are re-exported here.

const ASSET_FOLDER = "thumbnails/assets";
const EXPORT_FOLDER = "thumbnails/exports";
/** Images sent with a notification live with the other notification images. */
const NOTIFICATION_FOLDER = "notifications";
const MAX_ASSETS_PER_SAVE = 20;

/** A save may carry up to MAX_ASSETS_PER_SAVE images of 20 MB; an export one. */
export const SAVE_BODY_LIMIT: BodyLimit = {
  maxBytes: MAX_IMAGE_BYTES * 4 + 1024 * 1024,
  tooLarge: invalid("These images are larger than 80 MB together. Save after adding fewer images.", { title: "Project not saved" }),
};

export async function editorPage(actor: Actor): Promise<EditorPage> {
  authorize(actor, "thumbnail", "use");
  // One D1 round trip for both lists.
  const [projects, exports] = await db().batch([
    db()
      .select({
        id: thumbnailProjects.id,
        name: thumbnailProjects.name,
        format: thumbnailProjects.format,
        version: thumbnailProjects.version,
        updatedAt: thumbnailProjects.updatedAt,
      })
      .from(thumbnailProjects)
      .orderBy(desc(thumbnailProjects.updatedAt))
      .limit(50),
    db().select().from(thumbnailExports).orderBy(desc(thumbnailExports.createdAt)).limit(RECENT_EXPORTS),
  ]);
  return { projects: projects.map((p) => ({ ...p, format: p.format as Format })), exports: await exportSummaries(exports), ai: aiStatus() };
}

function exportSummaries(rows: (typeof thumbnailExports.$inferSelect)[]): Promise<ExportSummary[]> {
  return Promise.all(
    rows.map(async (r) => ({
      id: r.id,
      name: r.name,
      contentType: r.contentType,
      width: r.width,
      height: r.height,
      bytes: r.bytes,
      createdAt: r.createdAt,
      sentAt: r.sentAt,
      url: await signMediaUrl(r.storageKey),
    })),
  );
}

export async function loadProject(actor: Actor, id: string): Promise<LoadedProject> {
  authorize(actor, "thumbnail", "use");
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound("Project not found.");
  const [[row], assets] = await db().batch([
    db().select().from(thumbnailProjects).where(eq(thumbnailProjects.id, id)).limit(1),
    db().select({ id: thumbnailAssets.id, key: thumbnailAssets.storageKey }).from(thumbnailAssets).where(eq(thumbnailAssets.projectId, id)),
  ]);
  if (!row) throw notFound("Project not found.");
  const urls = Object.fromEntries(await Promise.all(assets.map(async (a) => [a.id, await signMediaUrl(a.key)] as const)));
  return {
    id: row.id,
    name: row.name,
    format: row.format as Format,
    version: row.version,
    updatedAt: row.updatedAt,
    document: JSON.parse(row.document) as ThumbnailDocument,
    assets: urls,
  };
}

/** Checks an uploaded image by its bytes, size and pixel dimensions; returns its type and size. */
async function checkImage(file: File) {
  const head = new Uint8Array(await file.slice(0, 512 * 1024).arrayBuffer());
  const problem = imageProblem(file.size, head);
  if (problem) throw invalid(problem, { title: "Image not accepted" });
  const type = imageKindOf(head);
  const size = imageSizeOf(head);
  if (!type || !size) throw invalid(THUMBNAIL_MESSAGES.notImage, { title: "Image not accepted" });
  return { type, ...size };
}

async function putPrivate(file: File, type: string, folder: string): Promise<string> {
  const ext = type === "image/png" ? "png" : type === "image/jpeg" ? "jpg" : type === "image/webp" ? "webp" : "gif";
  const key = `${folder}/${crypto.randomUUID()}.${ext}`;
  await env.MEDIA.put(key, file.stream(), {
    httpMetadata: { contentType: type },
    customMetadata: { filename: file.name.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 80) || `image.${ext}` },
  });
  return key;
}

/**
 * Saves a project: new images arrive as files named `asset:<local id>`; they are checked, stored
 * in MEDIA and their local ids in the document replaced by the stored asset ids. An existing
 * project is updated only from the version the editor opened (guarded update): a save from a
 * stale tab is refused with 409 and changes nothing (the editor keeps its copy in the browser).
 */
export async function saveProject(actor: Actor, request: Request, input: SaveProjectInput, form: FormData): Promise<{ id: string; version: number }> {
  authorize(actor, "thumbnail", "use");
  const files: [string, File][] = [];
  for (const [name, value] of form.entries()) {
    if (!name.startsWith("asset:")) continue;
    if (typeof value === "string" || !/^asset:[A-Za-z0-9_-]{1,64}$/.test(name)) throw invalid(THUMBNAIL_MESSAGES.notImage, { title: "Image not accepted" });
    files.push([name.slice(6), value]);
  }
  if (files.length > MAX_ASSETS_PER_SAVE) throw invalid(`Save at most ${MAX_ASSETS_PER_SAVE} new images at once.`);
  const checked = [];
  for (const [localId, file] of files) checked.push({ localId, file, ...(await checkImage(file)) });

  const projectId = input.projectId || crypto.randomUUID();
  if (input.projectId) {
    const existing = await db().select({ version: thumbnailProjects.version }).from(thumbnailProjects).where(eq(thumbnailProjects.id, projectId)).get();
    if (!existing) throw notFound("Project not found.");
    if (existing.version !== input.version) throw conflict(THUMBNAIL_MESSAGES.conflict, { title: "Project not saved" });
  }

  // Every image the document names must be one of this project's stored assets or a file sent now.
  const known = input.projectId
    ? new Set((await db().select({ id: thumbnailAssets.id }).from(thumbnailAssets).where(eq(thumbnailAssets.projectId, projectId)).all()).map((a) => a.id))
    : new Set<string>();
  const newIds = new Map(checked.map((c) => [c.localId, crypto.randomUUID()]));
  const document: ThumbnailDocument = {
    ...input.document,
    layers: input.document.layers.map((l) => {
      if (l.kind !== "image") return l;
      const stored = newIds.get(l.assetId);
      if (stored) return { ...l, assetId: stored };
      if (!known.has(l.assetId)) throw invalid("An image of this project is missing. Add it again, then save.", { title: "Project not saved" });
      return l;
    }),
  };

  const keys: string[] = [];
  try {
    const assetRows = [];
    for (const c of checked) {
      const storageKey = await putPrivate(c.file, c.type, ASSET_FOLDER);
      keys.push(storageKey);
      assetRows.push({
        id: newIds.get(c.localId) as string,
        projectId,
        storageKey,
        contentType: c.type,
        bytes: c.file.size,
        width: c.width,
        height: c.height,
        createdBy: actor.id,
      });
    }
    const now = new Date().toISOString();
    const json = JSON.stringify(document);
    const write = input.projectId
      ? db()
          .update(thumbnailProjects)
          .set({ name: input.name, format: document.format, document: json, version: input.version + 1, updatedBy: actor.id, updatedAt: now })
          .where(and(eq(thumbnailProjects.id, projectId), eq(thumbnailProjects.version, input.version)))
      : db()
          .insert(thumbnailProjects)
          .values({ id: projectId, name: input.name, format: document.format, document: json, version: 1, createdBy: actor.id, updatedBy: actor.id });
    await db().batch([
      write,
      precondition(previousStatementChanged(1)),
      ...(assetRows.length ? [db().insert(thumbnailAssets).values(assetRows)] : []),
      auditQuery({
        eventType: input.projectId ? "thumbnail_project_saved" : "thumbnail_project_created",
        severity: "low",
        userId: actor.id,
        request,
        details: { project_id: projectId, name: input.name, images: assetRows.length },
      }),
    ]);
    return { id: projectId, version: input.projectId ? input.version + 1 : 1 };
  } catch (error) {
    // Nothing was recorded: the images stored for this attempt go too.
    await Promise.all(keys.map((k) => env.MEDIA.delete(k).catch(() => {})));
    if (isPreconditionFailure(error)) throw conflict(THUMBNAIL_MESSAGES.conflict, { title: "Project not saved" });
    throw error;
  }
}

/**
 * Stores an export: a PNG or JPEG (by its bytes) of exactly the format's size, in MEDIA, and
 * returns it with a signed download URL.
 */
export async function storeExport(actor: Actor, request: Request, input: ExportInput, file: FormDataEntryValue | null): Promise<ExportSummary> {
  authorize(actor, "thumbnail", "use");
  if (!file || typeof file === "string") throw invalid("Export the thumbnail from the editor.", { title: "Export failed" });
  const image = await checkImage(file);
  if (image.type !== "image/png" && image.type !== "image/jpeg") throw invalid("An export is a PNG or a JPEG.", { title: "Export failed" });
  const size = FORMATS[input.format];
  if (image.width !== size.width || image.height !== size.height) {
    throw invalid(`An export of this format is ${size.width}×${size.height} pixels.`, { title: "Export failed" });
  }
  if (input.projectId) {
    const exists = await db().select({ id: thumbnailProjects.id }).from(thumbnailProjects).where(eq(thumbnailProjects.id, input.projectId)).get();
    if (!exists) throw notFound("Project not found.");
  }
  const key = await putPrivate(file, image.type, EXPORT_FOLDER);
  const id = crypto.randomUUID();
  try {
    const [[row]] = await db().batch([
      db()
        .insert(thumbnailExports)
        .values({
          id,
          projectId: input.projectId || null,
          name: input.name,
          storageKey: key,
          contentType: image.type,
          width: image.width,
          height: image.height,
          bytes: file.size,
          createdBy: actor.id,
        })
        .returning(),
      auditQuery({ eventType: "thumbnail_exported", severity: "low", userId: actor.id, request, details: { export_id: id, name: input.name } }),
    ]);
    // INSERT … RETURNING gives the row it wrote; none means the write did not happen (the catch removes the file).
    if (!row) throw new Error("thumbnail export insert returned no row");
    return {
      id,
      name: row.name,
      contentType: row.contentType,
      width: row.width,
      height: row.height,
      bytes: row.bytes,
      createdAt: row.createdAt,
      sentAt: null,
      url: await signMediaUrl(key),
    };
  } catch (error) {
    await env.MEDIA.delete(key).catch(() => {});
    throw error;
  }
}

/**
 * Sends an export to a creator: the image is copied into the public notification images, the
 * export is marked sent (once: a second send is refused with 409), and the creator gets a bell
 * notification with the image.
 */
export async function sendExport(actor: Actor, request: Request, input: SendExportInput): Promise<{ userId: string }> {
  authorize(actor, "thumbnail", "use");
  const row = await db().select().from(thumbnailExports).where(eq(thumbnailExports.id, input.exportId)).get();
  if (!row) throw notFound("Export not found.");
  if (row.sentAt) throw conflict(THUMBNAIL_MESSAGES.alreadySent, { title: "Not sent" });
  const userId = (await userIdsByEmail([input.email])).get(input.email);
  if (!userId) throw invalid(THUMBNAIL_MESSAGES.noCreator, { title: "Not sent", fieldErrors: { email: THUMBNAIL_MESSAGES.noCreator } });

  const object = await env.MEDIA.get(row.storageKey);
  if (!object) throw notFound("Export not found.");
  const bytes = await object.arrayBuffer();
  const type = row.contentType === "image/png" ? "image/png" : "image/jpeg";
  const publicKey = await putPublicImage(new File([bytes], row.name, { type }), type, NOTIFICATION_FOLDER);
  try {
    await db().batch([
      db()
        .update(thumbnailExports)
        .set({ sentTo: userId, sentAt: new Date().toISOString() })
        .where(and(eq(thumbnailExports.id, row.id), isNull(thumbnailExports.sentAt))),
      precondition(previousStatementChanged(1)),
      auditQuery({ eventType: "thumbnail_sent", severity: "low", userId: actor.id, targetUserId: userId, request, details: { export_id: row.id } }),
    ]);
  } catch (error) {
    await env.AVATARS.delete(publicKey).catch(() => {});
    if (isPreconditionFailure(error)) throw conflict(THUMBNAIL_MESSAGES.alreadySent, { title: "Not sent" });
    throw error;
  }
  await notifyUserQuietly(userId, {
    title: "A new thumbnail for you",
    content: input.message || `${row.name}: a thumbnail made for your channel. Open the image to download it.`,
    kind: "thumbnail",
    imageKey: publicKey,
    createdBy: actor.id,
  });
  return { userId };
}
