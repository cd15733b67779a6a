import { waitUntil } from "cloudflare:workers";
import { and, eq, gte, isNull, or, sql } from "drizzle-orm";
import { chatMessages, chatReads, chatRooms } from "~/db/schema";
import { formatDateTime } from "~/lib/dates";
import { conflict, forbidden, notFound, rateLimited } from "~/lib/errors";
import { authorize, type Actor } from "~/lib/permissions";
import { isAdminUser, peopleByIds, userIdsWhere } from "~/modules/accounts/accounts.server";
import { notifyUserQuietly } from "~/modules/notifications/notifications.server";
import { auditQuery } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { isPreconditionFailure, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { consumeRecent, releaseRecent } from "~/platform/rate-limit.server";
import { wordStartsWithText } from "~/platform/text-search.server";
import { catchUpRows, displayName, historyQuery, itemsOf, messageById, pageOf } from "./messages.server";
import { CHAT_EDIT_WINDOW_MS, CHAT_RATE_LIMIT, CHAT_RATE_WINDOW_MS, CHAT_TEXT, mutedText } from "./messages";
import { muteIn, userMutesQuery } from "./mutes.server";
import { chatRoom, eachRoom } from "./room-object.server";
import { UUID, allRoomIds, roomById, roomsWithUnreadQuery, summaryOf, type RoomRow } from "./rooms.server";
import type { ChatActionInput } from "./schema";
import type { ChatCatchUp, ChatHistory, ChatMember, ChatMessageItem, ChatMuteState, ChatPage, RoomPost } from "./types";

// What members do in /community-chat: read a room, post, edit and delete their own messages, mark
// a room read, find members to mention. D1 is the record; the room's object orders new messages,
// counts the send rate and fans everything out (docs/decisions/0160).

/**
 * "23 Nov 2026, 21:15": how a mute's end reads where a send or an edit is refused, in the person's
 * zone and the style of every other date (the page's LocalTime; decision 0314, issue 42 §4).
 */
const untilLabel = (iso: string, timeZone: string | undefined) => formatDateTime(iso, timeZone);

function canPostIn(actor: Actor, room: RoomRow): boolean {
  return room.archivedAt === null && (room.kind !== "announcements" || actor.isAdmin);
}

/** /community-chat: the rooms with unread counts, the chosen room's last 50 messages, the viewer's mute. */
export async function chatPage(actor: Actor, slug: string | null): Promise<ChatPage> {
  authorize(actor, "chat", "read");
  const [rooms, mutes] = await db().batch([roomsWithUnreadQuery(actor.id), userMutesQuery(actor.id)]);
  const chosen = rooms.find((r) => r.room.slug === slug) ?? rooms.find((r) => r.room.archivedAt === null) ?? rooms[0];
  if (slug && chosen?.room.slug !== slug) throw notFound("This room does not exist.");
  let messages: ChatMessageItem[] = [];
  let hasMore = false;
  if (chosen) {
    const page = pageOf(await historyQuery(chosen.room.id, null));
    messages = await itemsOf(page.rows);
    hasMore = page.hasMore;
  }
  return {
    rooms: rooms.map(summaryOf),
    room: chosen ? summaryOf(chosen) : null,
    messages,
    hasMore,
    mute: chosen ? muteIn(mutes, chosen.room.id) : null,
    canPost: chosen ? canPostIn(actor, chosen.room) : false,
    me: { id: actor.id, isAdmin: actor.isAdmin },
  };
}

/** Older messages: the 50 before `beforeSeq` (cursor pagination by the room's order). */
export async function chatHistory(actor: Actor, roomId: string, beforeSeq: number | null): Promise<ChatHistory> {
  authorize(actor, "chat", "read");
  await roomById(roomId);
  const page = pageOf(await historyQuery(roomId, beforeSeq));
  return { messages: await itemsOf(page.rows), hasMore: page.hasMore };
}

/** After a reconnect: what the tab missed since its newest message (`afterSeq`) and since it dropped (`since`). */
export async function chatCatchUp(actor: Actor, roomId: string, afterSeq: number, since: string | null): Promise<ChatCatchUp> {
  authorize(actor, "chat", "read");
  await roomById(roomId);
  const { fresh, edited, deleted } = await catchUpRows(roomId, afterSeq, since);
  const [messages, editedItems] = await Promise.all([itemsOf(fresh), itemsOf(edited)]);
  return { messages, edited: editedItems, deleted: deleted.map((r) => ({ id: r.id, seq: r.seq })) };
}

/** The person's send rate across rooms: an exact sliding window in the RATE_LIMITER object (0204). */
const CHAT_SEND_BUCKET = "chat-send";
const CHAT_SEND_LIMIT = { maxAttempts: CHAT_RATE_LIMIT, windowMs: CHAT_RATE_WINDOW_MS };

/** Members whose name starts with `q` (approved or admins, not banned), for the mention autocomplete. */
export async function chatMembers(actor: Actor, q: string): Promise<ChatMember[]> {
  authorize(actor, "chat", "read");
  // Any script and length: instr, not LIKE (D1 refuses LIKE patterns over 50 bytes; 0201).
  const prefix = q.trim().slice(0, 40);
  if (!prefix) return [];
  const ids = await userIdsWhere((p) => and(or(eq(p.approvalStatus, "approved"), isAdminUser(p.userId)), wordStartsWithText(p.fullName, prefix)));
  const people = await peopleByIds(ids.slice(0, 8));
  return [...people.values()].filter((p) => p.fullName?.trim()).map((p) => ({ id: p.id, name: displayName(p), avatarUrl: p.avatarUrl }));
}

/** Refuses a muted author, saying until when, why and where (this room, or every room). */
function refuseMuted(mute: ChatMuteState | null, roomName: string, timeZone: string | undefined): void {
  if (mute)
    throw forbidden(mutedText(untilLabel(mute.until, timeZone), mute.reason, mute.allRooms ? null : roomName), {
      title: "You are muted",
      details: { mutedUntil: mute.until, reason: mute.reason, allRooms: mute.allRooms },
    });
}

/** Why the room's INSERT refused a message: the room, announcements, or a mute. Always throws. */
async function explainRefusal(actor: Actor, roomId: string, timeZone: string | undefined): Promise<never> {
  const [roomRows, muteRows] = await db().batch([db().select().from(chatRooms).where(eq(chatRooms.id, roomId)), userMutesQuery(actor.id)]);
  const room = roomRows[0];
  if (!room) throw notFound("This room does not exist.");
  if (room.archivedAt !== null) throw forbidden(CHAT_TEXT.archived, { title: "Room archived" });
  if (room.kind === "announcements" && !actor.isAdmin) throw forbidden(CHAT_TEXT.announcementsOnly, { title: "Announcements" });
  refuseMuted(muteIn(muteRows, roomId), room.name, timeZone);
  throw conflict("The message was not sent. Try again.");
}

/**
 * Posts a message: the room must be open (announcements: admins only), the author not muted; the
 * room's object then counts the send rate (5 per 10 s), orders, stores and fans it out. Mentioned
 * members (by id) get a bell notification. A retry with the same `clientId` returns the first.
 */
export async function postMessage(
  actor: Actor,
  author: { name: string; avatarUrl: string | null },
  input: Extract<ChatActionInput, { intent: "send" }>,
  opts: { timeZone?: string; trace?: Record<string, number> } = {},
): Promise<ChatMessageItem> {
  const { timeZone, trace } = opts;
  authorize(actor, "chat", "post");
  // The browser's id for the message: a retry of a send whose answer was lost is stored once.
  const messageId = UUID.test(input.clientId) ? input.clientId.toLowerCase() : crypto.randomUUID();
  const mentionIds = [...new Set(input.mentions.map((m) => m.toLowerCase()))].filter((id) => id !== actor.id);
  const people = mentionIds.length ? await peopleByIds(mentionIds) : new Map();
  const mentions = mentionIds.flatMap((id) => {
    const p = people.get(id);
    return p && !p.isBanned ? [{ id, name: displayName(p) }] : [];
  });

  // The hot path is the room's object and its one guarded INSERT (room open, announcements, mute);
  // only a refusal reads why.
  const post: RoomPost = {
    id: messageId,
    roomId: input.roomId,
    userId: actor.id,
    authorIsAdmin: actor.isAdmin,
    authorName: author.name,
    authorAvatarUrl: author.avatarUrl,
    body: input.body,
    mentions,
  };
  if (trace) post.trace = trace;
  // The person's rate across every room first (exact, one object per person; decision 0204): four
  // rooms must not let four times the limit through. Given back when the room does not store it.
  const sendRate = await consumeRecent(CHAT_SEND_BUCKET, `user:${actor.id}`, CHAT_SEND_LIMIT);
  if (!sendRate.allowed) throw rateLimited(sendRate.retryAfterMs / 1000, CHAT_TEXT.tooFast, CHAT_TEXT.tooFastTitle);
  let result: Awaited<ReturnType<ReturnType<typeof chatRoom>["post"]>>;
  try {
    result = await chatRoom(input.roomId).post(post);
  } catch (error) {
    await releaseRecent(CHAT_SEND_BUCKET, `user:${actor.id}`, sendRate.at);
    throw error;
  }
  if (!result.ok) {
    await releaseRecent(CHAT_SEND_BUCKET, `user:${actor.id}`, sendRate.at);
    if (result.code === "duplicate") {
      const first = await messageById(messageId);
      if (first && first.userId === actor.id) {
        const [item] = await itemsOf([first]);
        if (item) return item;
      }
      throw conflict("This message was already sent.");
    }
    if (result.code === "refused") await explainRefusal(actor, input.roomId, timeZone);
    const retryAfterMs = "retryAfterMs" in result ? result.retryAfterMs : 1000;
    throw rateLimited(retryAfterMs / 1000, CHAT_TEXT.tooFast, CHAT_TEXT.tooFastTitle);
  }
  // The other rooms' open pages count it as unread (after the answer; a lost one is caught up by the page's refresh).
  const { seq } = result.message;
  waitUntil(
    allRoomIds().then((ids) =>
      eachRoom(
        ids.filter((id) => id !== input.roomId),
        (room) => room.activity(input.roomId, seq, actor.id),
      ),
    ),
  );
  if (mentions.length > 0) {
    const excerpt = input.body.length > 140 ? `${input.body.slice(0, 139)}…` : input.body;
    waitUntil(
      roomById(input.roomId).then((room) =>
        Promise.all(
          mentions.map((m) =>
            notifyUserQuietly(m.id, { title: `${author.name} mentioned you in #${room.name}`, content: excerpt, kind: "chat_mention", createdBy: actor.id }),
          ),
        ),
      ),
    );
  }
  return result.message;
}

/** Edits one's own message within 15 minutes of sending (shown as edited); every open tab sees it. */
export async function editMessage(actor: Actor, id: string, body: string, timeZone?: string): Promise<ChatMessageItem> {
  authorize(actor, "chat", "post");
  const row = await messageById(id);
  if (!row || row.deletedAt) throw notFound(CHAT_TEXT.messageGone);
  authorize(actor, "chat", "editMessage", { ownerId: row.userId });
  const [room, mutes] = await Promise.all([roomById(row.roomId), userMutesQuery(actor.id)]);
  refuseMuted(muteIn(mutes, row.roomId), room.name, timeZone);
  const cutoff = new Date(Date.now() - CHAT_EDIT_WINDOW_MS).toISOString();
  if (row.createdAt < cutoff) throw forbidden(CHAT_TEXT.editWindow, { title: "Too late to edit" });
  const updated = await db()
    .update(chatMessages)
    .set({ body, editedAt: sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` })
    .where(and(eq(chatMessages.id, id), eq(chatMessages.userId, actor.id), isNull(chatMessages.deletedAt), gte(chatMessages.createdAt, cutoff)))
    .returning();
  if (!updated[0]) throw conflict(CHAT_TEXT.messageGone);
  const [item] = await itemsOf(updated);
  if (!item) throw conflict(CHAT_TEXT.messageGone);
  await chatRoom(row.roomId)
    .edited(item)
    .catch((error) => console.error("chat edit fan-out failed", error));
  return item;
}

/**
 * Deletes a message: its author, or an admin (audit-logged). One of two parallel deletes wins; the
 * message disappears from every open socket of the room at once.
 */
export async function deleteMessage(actor: Actor, id: string, request?: Request): Promise<{ id: string; seq: number }> {
  const row = await messageById(id);
  if (!row || row.deletedAt) {
    authorize(actor, "chat", "read");
    throw notFound(CHAT_TEXT.messageGone);
  }
  authorize(actor, "chat", "deleteMessage", { ownerId: row.userId });
  try {
    await db().batch([
      db()
        .update(chatMessages)
        .set({ deletedAt: sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`, deletedBy: actor.id })
        .where(and(eq(chatMessages.id, id), isNull(chatMessages.deletedAt))),
      precondition(previousStatementChanged()),
      ...(actor.isAdmin
        ? [
            auditQuery({
              eventType: "chat_message_deleted",
              severity: "medium",
              userId: actor.id,
              targetUserId: row.userId,
              request,
              details: { message_id: id, room_id: row.roomId, own: row.userId === actor.id },
            }),
          ]
        : []),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) throw notFound(CHAT_TEXT.messageGone);
    throw error;
  }
  await chatRoom(row.roomId)
    .deleted(id, row.seq)
    .catch((error) => console.error("chat delete fan-out failed", error));
  return { id, seq: row.seq };
}

/** Marks the room read up to `seq` (never backwards): the unread count counts after it. */
export async function markRoomRead(actor: Actor, roomId: string, seq: number): Promise<void> {
  authorize(actor, "chat", "read");
  await roomById(roomId);
  await db()
    .insert(chatReads)
    .values({ userId: actor.id, roomId, lastReadSeq: seq })
    .onConflictDoUpdate({
      target: [chatReads.userId, chatReads.roomId],
      set: { lastReadSeq: sql`max(${chatReads.lastReadSeq}, excluded.last_read_seq)`, updatedAt: sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` },
    });
}

/** The author as a message shows them, from the signed-in user. */
export function authorOf(user: { fullName: string | null; avatarUrl: string | null }): { name: string; avatarUrl: string | null } {
  return { name: displayName(user), avatarUrl: user.avatarUrl };
}
