import { and, asc, count, eq, isNull, max, or, sql } from "drizzle-orm";
import { chatMessages, chatReads, chatRooms } from "~/db/schema";
import { conflict, invalid, notFound } from "~/lib/errors";
import { builtOnce, db } from "~/platform/db.server";
import { startsWithText } from "~/platform/text-search.server";
import type { ChatRoomState, ChatRoomSummary } from "./types";

// Rooms as the pages read them: order (position, archived last), unread counts per viewer.

export type RoomRow = typeof chatRooms.$inferSelect;

export const roomStateOf = (r: RoomRow): ChatRoomState => ({
  id: r.id,
  name: r.name,
  description: r.description,
  kind: r.kind,
  archived: r.archivedAt !== null,
});

const roomOrder = [sql`${chatRooms.archivedAt} is not null`, asc(chatRooms.position), asc(chatRooms.createdAt)];

/** Every room with the viewer's unread count (others' messages after their read marker). */
export function roomsWithUnreadQuery(userId: string) {
  // Qualified by hand: drizzle leaves the columns of a one-table select bare, which inside a
  // correlated subquery would name the inner table's column.
  const roomIdRef = sql.raw(`"chat_rooms"."id"`);
  const lastRead = sql`coalesce((select r.last_read_seq from ${chatReads} r where r.user_id = ${userId} and r.room_id = ${roomIdRef}), 0)`;
  return db()
    .select({
      room: chatRooms,
      lastSeq: sql<number>`coalesce((select max(m.seq) from ${chatMessages} m where m.room_id = ${roomIdRef}), 0)`.mapWith(Number),
      unread:
        sql<number>`(select count(*) from ${chatMessages} m where m.room_id = ${roomIdRef} and m.deleted_at is null and m.user_id <> ${userId} and m.seq > ${lastRead})`.mapWith(
          Number,
        ),
    })
    .from(chatRooms)
    .orderBy(...roomOrder);
}

export function summaryOf(r: { room: RoomRow; lastSeq: number; unread: number }): ChatRoomSummary {
  return { ...roomStateOf(r.room), slug: r.room.slug, position: r.room.position, lastSeq: r.lastSeq, unread: r.unread };
}

export async function roomById(roomId: string): Promise<RoomRow> {
  const row = await db().select().from(chatRooms).where(eq(chatRooms.id, roomId)).get();
  if (!row) throw notFound("This room does not exist.");
  return row;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A room id from a query string (the socket, the history), or "Unknown room." (400). */
export function roomIdParam(value: string | null): string {
  if (value === null || !UUID.test(value)) throw invalid("Unknown room.");
  return value;
}

export async function allRoomIds(): Promise<string[]> {
  return (await db().select({ id: chatRooms.id }).from(chatRooms).all()).map((r) => r.id);
}

export function roomsForAdminQuery() {
  return roomsForAdminStatement({});
}

const roomsForAdminStatement = builtOnce(() =>
  db()
    .select({ room: chatRooms, messageCount: count(chatMessages.id) })
    .from(chatRooms)
    .leftJoin(chatMessages, and(eq(chatMessages.roomId, chatRooms.id), isNull(chatMessages.deletedAt)))
    .groupBy(chatRooms.id)
    .orderBy(...roomOrder),
);

/** The newest seq stored for a room (the object's starting point when its storage is empty). */
export async function maxSeqOf(roomId: string): Promise<number> {
  const row = await db()
    .select({ seq: max(chatMessages.seq) })
    .from(chatMessages)
    .where(eq(chatMessages.roomId, roomId))
    .get();
  return row?.seq ?? 0;
}

/** A URL-safe slug from a room name, unique among rooms (a suffix when taken). */
export async function freeSlug(name: string): Promise<string> {
  const base =
    name
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "room";
  const taken = new Set(
    (
      await db()
        .select({ slug: chatRooms.slug })
        .from(chatRooms)
        .where(or(eq(chatRooms.slug, base), startsWithText(chatRooms.slug, `${base}-`)))
        .all()
    ).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let i = 2; i < 1000; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
  throw conflict("Choose another room name.");
}

export async function nextPosition(): Promise<number> {
  const row = await db()
    .select({ p: max(chatRooms.position) })
    .from(chatRooms)
    .get();
  return (row?.p ?? 0) + 1;
}
