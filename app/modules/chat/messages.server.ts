import { and, asc, desc, eq, gt, gte, isNull, lt, lte, ne, notExists, or, sql } from "drizzle-orm";
import { chatMessages, chatMutes, chatRooms } from "~/db/schema";
import { isAdminUser, type PersonSummary, peopleByIds } from "~/modules/accounts/accounts.server";
import { builtOnce, db } from "~/platform/db.server";
import { CHAT_HISTORY_PAGE } from "./messages";
import { mutedIn } from "./mutes.server";
import type { ChatMessageItem, RoomPost } from "./types";

// Messages in D1 (the record): history pages by the room's order (seq), catch-up after a
// reconnect, the admin feed. The room's object assigns seq and calls `storeMessage`.

export type MessageRow = typeof chatMessages.$inferSelect;

/** The name shown for a person: the profile's full name, never the e-mail. */
export const displayName = (p: { fullName: string | null } | undefined) => p?.fullName?.trim() || "Member";

function mentionsOf(raw: string): { id: string; name: string }[] {
  try {
    const v = JSON.parse(raw);
    return Array.isArray(v) ? v.filter((m) => m && typeof m.id === "string" && typeof m.name === "string") : [];
  } catch {
    return [];
  }
}

/** Rows as items, with the authors' names and avatars (one round trip for all authors). */
export async function itemsOf(rows: readonly MessageRow[]): Promise<ChatMessageItem[]> {
  return itemsWith(rows, await peopleByIds(rows.map((r) => r.userId)));
}

/** Rows as items, their authors from a lookup the caller already made (peopleByIds of at least the rows' authors). */
export function itemsWith(rows: readonly MessageRow[], people: ReadonlyMap<string, PersonSummary>): ChatMessageItem[] {
  return rows.map((r) => {
    const p = people.get(r.userId);
    return {
      id: r.id,
      roomId: r.roomId,
      seq: r.seq,
      userId: r.userId,
      authorName: displayName(p),
      authorAvatarUrl: p?.avatarUrl ?? null,
      body: r.body,
      mentions: mentionsOf(r.mentions),
      createdAt: r.createdAt,
      editedAt: r.editedAt,
    };
  });
}

/** The page of `limit` live messages before `beforeSeq` (the newest when null), oldest first. */
export function historyQuery(roomId: string, beforeSeq: number | null, limit = CHAT_HISTORY_PAGE) {
  return db()
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.roomId, roomId), isNull(chatMessages.deletedAt), beforeSeq === null ? undefined : lt(chatMessages.seq, beforeSeq)))
    .orderBy(desc(chatMessages.seq))
    .limit(limit + 1);
}

export function pageOf(rows: MessageRow[], limit = CHAT_HISTORY_PAGE): { rows: MessageRow[]; hasMore: boolean } {
  return { rows: rows.slice(0, limit).reverse(), hasMore: rows.length > limit };
}

/** After a reconnect: live messages after `afterSeq`, and the older ones edited or deleted since `since`. */
export async function catchUpRows(roomId: string, afterSeq: number, since: string | null) {
  const [fresh, changed] = await db().batch([
    db()
      .select()
      .from(chatMessages)
      .where(and(eq(chatMessages.roomId, roomId), gt(chatMessages.seq, afterSeq), isNull(chatMessages.deletedAt)))
      .orderBy(asc(chatMessages.seq))
      .limit(500),
    db()
      .select()
      .from(chatMessages)
      .where(
        and(
          eq(chatMessages.roomId, roomId),
          lte(chatMessages.seq, afterSeq),
          since ? or(gte(chatMessages.editedAt, since), gte(chatMessages.deletedAt, since)) : sql`0`,
        ),
      )
      .limit(500),
  ]);
  return { fresh, edited: changed.filter((r) => r.deletedAt === null), deleted: changed.filter((r) => r.deletedAt !== null) };
}

/**
 * Writes a message the room's object ordered, in one statement that also holds the room's rules:
 * the room exists and is not archived, announcements take admins only, the author is not muted.
 * Null when a rule refused it (the facade then reads which one, off the hot path).
 */
export async function storeMessage(post: RoomPost, seq: number): Promise<MessageRow | null> {
  const now = new Date().toISOString();
  const rows = await db()
    .insert(chatMessages)
    .select(
      db()
        .select({
          id: sql`${post.id}`.as("id"),
          roomId: chatRooms.id,
          seq: sql`${seq}`.as("seq"),
          userId: sql`${post.userId}`.as("user_id"),
          body: sql`${post.body}`.as("body"),
          mentions: sql`${JSON.stringify(post.mentions)}`.as("mentions"),
          createdAt: sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`.as("created_at"),
          editedAt: sql`null`.as("edited_at"),
          deletedAt: sql`null`.as("deleted_at"),
          deletedBy: sql`null`.as("deleted_by"),
        })
        .from(chatRooms)
        .where(postRules(post, now)),
    )
    .returning();
  return rows[0] ?? null;
}

/**
 * The room's rules for a post, as a WHERE over chat_rooms: the room exists and is not archived,
 * announcements take admins only, the author is not muted in it (this room, or every room).
 * One statement with the insert, so a mute written at the same moment is either before it or after.
 */
function postRules(who: { roomId: string; userId: string; authorIsAdmin: boolean }, now: string) {
  return and(
    eq(chatRooms.id, who.roomId),
    isNull(chatRooms.archivedAt),
    who.authorIsAdmin ? undefined : ne(chatRooms.kind, "announcements"),
    notExists(
      db()
        .select({ one: sql`1` })
        .from(chatMutes)
        .where(mutedIn(who.userId, who.roomId, now)),
    ),
  );
}

/** Whether the person may post in the room now (the typing indicator is sent only for them; decision 0247). */
export async function mayPostIn(roomId: string, userId: string, isAdmin: boolean): Promise<boolean> {
  const row = await db()
    .select({ id: chatRooms.id })
    .from(chatRooms)
    .where(postRules({ roomId, userId, authorIsAdmin: isAdmin }, new Date().toISOString()))
    .get();
  return !!row;
}

export async function messageById(id: string): Promise<MessageRow | undefined> {
  return db().select().from(chatMessages).where(eq(chatMessages.id, id)).get();
}

/** The admin feed: the newest messages across rooms (deleted ones included, marked). */
export function feedQuery(limit = 50) {
  return feedStatement({ limit });
}

const feedStatement = builtOnce((slot) =>
  db()
    .select({ message: chatMessages, roomName: chatRooms.name, authorIsAdmin: sql<number>`${isAdminUser(chatMessages.userId)}` })
    .from(chatMessages)
    .innerJoin(chatRooms, eq(chatRooms.id, chatMessages.roomId))
    .orderBy(desc(chatMessages.createdAt))
    .limit(slot<number>("limit")),
);
