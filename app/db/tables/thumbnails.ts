import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, inList, updatedAt } from "./shared";
import { users } from "./accounts";

// ---------------------------------------------------------------------------------------------
// Thumbnails (issue 19): the admins' thumbnail editor — projects (layers JSON, images in MEDIA),
// their images, and exports (PNG/JPEG in MEDIA, signed downloads; optionally sent to a creator).
// ---------------------------------------------------------------------------------------------

export const THUMBNAIL_FORMATS = ["landscape", "portrait"] as const;
export const THUMBNAIL_EXPORT_TYPES = ["image/png", "image/jpeg"] as const;

export const thumbnailProjects = sqliteTable(
  "thumbnail_projects",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    // 'landscape' 1280×720 (16:9) or 'portrait' 1080×1920 (9:16).
    format: text("format").notNull(),
    // The editor's document (layers, adjustments) as JSON; images are referenced by asset id.
    document: text("document").notNull(),
    // Optimistic concurrency: a save names the version it started from (guarded update).
    version: integer("version").notNull().default(1),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("thumbnail_projects_updated_idx").on(t.updatedAt),
    check("thumbnail_projects_format_check", inList("format", THUMBNAIL_FORMATS)),
    check("thumbnail_projects_name_check", sql`length(name) between 1 and 120`),
  ],
);

export const thumbnailAssets = sqliteTable(
  "thumbnail_assets",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => thumbnailProjects.id, { onDelete: "cascade" }),
    // Private MEDIA key made by the server (thumbnails/assets/<uuid>.<ext>).
    storageKey: text("storage_key").notNull(),
    contentType: text("content_type").notNull(),
    bytes: integer("bytes").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("thumbnail_assets_project_idx").on(t.projectId), uniqueIndex("thumbnail_assets_key_unique").on(t.storageKey)],
);

export const thumbnailExports = sqliteTable(
  "thumbnail_exports",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").references(() => thumbnailProjects.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    storageKey: text("storage_key").notNull(),
    contentType: text("content_type").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    bytes: integer("bytes").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    // 'Send to creator': the recipient and when (one send per export; a second is refused).
    sentTo: text("sent_to").references(() => users.id, { onDelete: "set null" }),
    sentAt: text("sent_at"),
  },
  (t) => [
    index("thumbnail_exports_created_idx").on(t.createdAt),
    uniqueIndex("thumbnail_exports_key_unique").on(t.storageKey),
    check("thumbnail_exports_type_check", inList("content_type", THUMBNAIL_EXPORT_TYPES)),
  ],
);
