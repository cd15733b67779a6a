import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, inList, updatedAt } from "./shared";
import { users } from "./accounts";

// ---------------------------------------------------------------------------------------------
// Community chat (issue 17): rooms, messages (the record; the room's Durable Object orders them
// with `seq`), mutes and read markers for unread counts. docs/decisions/0160.
// ---------------------------------------------------------------------------------------------

export const CHAT_ROOM_KINDS = ["general", "announcements"] as const;

export const chatRooms = sqliteTable(
  "chat_rooms",
  {
    id: text("id").primaryKey(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    // 'announcements': only admins post.
    kind: text("kind", { enum: CHAT_ROOM_KINDS }).notNull().default("general"),
    position: integer("position").notNull().default(0),
    // Archived rooms are read-only and listed last.
    archivedAt: text("archived_at"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("chat_rooms_slug_unique").on(t.slug),
    index("chat_rooms_position_idx").on(t.position),
    check("chat_rooms_kind_check", inList("kind", CHAT_ROOM_KINDS)),
  ],
);

export const chatMessages = sqliteTable(
  "chat_messages",
  {
    id: text("id").primaryKey(),
    roomId: text("room_id")
      .notNull()
      .references(() => chatRooms.id, { onDelete: "cascade" }),
    // The room object's order: 1, 2, 3 … per room (gaps allowed), the same for every reader.
    seq: integer("seq").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    // JSON array of the mentioned user ids.
    mentions: text("mentions").notNull().default("[]"),
    createdAt: createdAt(),
    editedAt: text("edited_at"),
    deletedAt: text("deleted_at"),
    deletedBy: text("deleted_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("chat_messages_room_seq_unique").on(t.roomId, t.seq),
    index("chat_messages_created_idx").on(t.createdAt),
    index("chat_messages_user_idx").on(t.userId, t.createdAt),
    check("chat_messages_body_check", sql`length(body) between 1 and 1000`),
  ],
);

export const chatMutes = sqliteTable(
  "chat_mutes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // The room the mute applies to; null: every room (decision 0246).
    roomId: text("room_id").references(() => chatRooms.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    mutedUntil: text("muted_until").notNull(),
    mutedBy: text("muted_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    // Set by 'Unmute'; a mute counts while ended_at is null and muted_until is in the future.
    endedAt: text("ended_at"),
    endedBy: text("ended_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    // One open mute per user and room (every room counts as one: ''): muting again is refused (unmute first).
    uniqueIndex("chat_mutes_open_room_unique").on(t.userId, sql`coalesce(${t.roomId}, '')`).where(sql`ended_at is null`),
    index("chat_mutes_until_idx").on(t.mutedUntil),
  ],
);

export const chatReads = sqliteTable(
  "chat_reads",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    roomId: text("room_id")
      .notNull()
      .references(() => chatRooms.id, { onDelete: "cascade" }),
    lastReadSeq: integer("last_read_seq").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roomId] })],
);
