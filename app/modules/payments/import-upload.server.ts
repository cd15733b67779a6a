import { eq } from "drizzle-orm";
import { revenueColumnMappings } from "~/db/schema";
import { invalid } from "~/lib/errors";
import type { Actor } from "~/lib/permissions";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { fitsColumns } from "./import-parse";
import { PAYMENT_MESSAGES as M } from "./messages";
import { type ColumnMapping, headerKey, MAX_IMPORT_BYTES } from "./revenue-csv";

// The revenue import's file: the upload read and refused when it cannot be a revenue CSV, a file
// waiting for its column mapping kept in the private bucket, and the mappings remembered per header
// (docs/decisions/0221-revenue-file-formats.md).

/** Reads the uploaded file, refusing what cannot be a revenue CSV. */
export async function fileText(file: unknown): Promise<{ name: string; text: string }> {
  if (!(file instanceof File) || file.size === 0) throw invalid(M.fileRequired, { fieldErrors: { file: M.fileRequired } });
  if (file.size > MAX_IMPORT_BYTES) throw invalid(M.fileTooLarge, { fieldErrors: { file: M.fileTooLarge } });
  const name = file.name.slice(0, 200);
  if (!/\.(csv|txt|tsv)$/i.test(name) && !/csv|text\/plain|tab-separated/.test(file.type)) throw invalid(M.notCsv, { fieldErrors: { file: M.notCsv } });
  const text = await file.text();
  if (text.includes("\u0000")) throw invalid(M.notCsv, { fieldErrors: { file: M.notCsv } });
  return { name, text };
}

// ---- Files waiting for a column mapping (decision 0221) -------------------------------------------
// A file the app does not recognise is kept in the private bucket while the admin maps its columns
// (a form cannot send the same file twice without the browser's help); the daily job deletes any
// left over after a day.

const UPLOAD_PREFIX = "revenue-uploads/";
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

export async function stashUpload(month: string, name: string, text: string, actor: Actor): Promise<string> {
  const id = crypto.randomUUID();
  await env.MEDIA.put(`${UPLOAD_PREFIX}${id}.csv`, text, {
    httpMetadata: { contentType: "text/csv; charset=utf-8" },
    customMetadata: { month, fileName: name, createdBy: actor.id },
  });
  return id;
}

export async function stashedUpload(uploadId: string): Promise<{ name: string; text: string }> {
  const object = /^[0-9a-f-]{36}$/.test(uploadId) ? await env.MEDIA.get(`${UPLOAD_PREFIX}${uploadId}.csv`) : null;
  if (!object) throw invalid(M.uploadGone, { fieldErrors: { file: M.uploadGone } });
  return { name: object.customMetadata?.fileName ?? "revenue.csv", text: await object.text() };
}

/** Uploads waiting for a mapping longer than a day are deleted (the daily job). */
export async function deleteStaleUploads(now = new Date()): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await env.MEDIA.list({ prefix: UPLOAD_PREFIX, cursor, limit: 500 });
    const stale = page.objects.filter((o) => now.getTime() - o.uploaded.getTime() > UPLOAD_TTL_MS).map((o) => o.key);
    if (stale.length > 0) await env.MEDIA.delete(stale);
    deleted += stale.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return deleted;
}

// ---- Mappings remembered per header ---------------------------------------------------------------

async function hashHeader(columns: readonly string[]): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(headerKey(columns)));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function rememberedMapping(columns: readonly string[]): Promise<ColumnMapping | null> {
  const row = await db()
    .select({ mapping: revenueColumnMappings.mapping })
    .from(revenueColumnMappings)
    .where(eq(revenueColumnMappings.headerHash, await hashHeader(columns)))
    .get();
  if (!row) return null;
  try {
    const m = JSON.parse(row.mapping) as ColumnMapping;
    return fitsColumns(m, columns) ? m : null;
  } catch {
    return null;
  }
}

/** The admin's mapping of this header, kept for the next file with the same columns. */
export async function rememberMapping(columns: readonly string[], mapping: ColumnMapping, actor: Actor): Promise<void> {
  const hash = await hashHeader(columns);
  const now = new Date().toISOString();
  await db()
    .insert(revenueColumnMappings)
    .values({ headerHash: hash, columns: JSON.stringify(columns), mapping: JSON.stringify(mapping), updatedBy: actor.id, updatedAt: now })
    .onConflictDoUpdate({ target: revenueColumnMappings.headerHash, set: { mapping: JSON.stringify(mapping), updatedBy: actor.id, updatedAt: now } })
    .run();
}
