import { expectAt } from "~/lib/arrays";
import { and, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import { chatMutes, chatRooms } from "~/db/schema";
import { conflict, invalid, notFound } from "~/lib/errors";
import { authorize, type Actor } from "~/lib/permissions";
import { isAdminUser, peopleByIds, userIdsWhere, personById } from "~/modules/accounts/accounts.server";
import { auditQuery } from "~/platform/audit.server";
import { batch, db } from "~/platform/db.server";
import { isPreconditionFailure, isUniqueViolation, precondition, previousStatementChanged } from "~/platform/precondition.server";
import { deleteMessage } from "./chat-actions.server";
import { displayName, feedQuery, itemsWith } from "./messages.server";
import { CHAT_TEXT } from "./messages";
import { activeMutesQuery, closeExpiredMuteQuery, muteIn, userMutesQuery } from "./mutes.server";
import { eachRoom } from "./room-object.server";
import { allRoomIds, freeSlug, nextPosition, roomById, roomStateOf, roomsForAdminQuery } from "./rooms.server";
import type { ChatAdminInput } from "./schema";
import type { ChatAdminPage } from "./types";

// /chat-management: rooms (create, rename, describe, archive, restore, reorder), the feed of recent
// messages across rooms with delete, mutes with a period and reason. Every change is one batch
// with its audit row; the rooms' objects hear about it afterwards.

const nowIso = () => new Date().toISOString();

export async function chatAdminPage(actor: Actor): Promise<ChatAdminPage> {
  authorize(actor, "chat", "manage");
  const [rooms, feed, mutes] = await batch([roomsForAdminQuery(), feedQuery(50), activeMutesQuery()]);
  // One lookup for everyone the page names: the feed's authors, the muted and who muted them.
  const people = await peopleByIds([...feed.map((f) => f.message.userId), ...mutes.flatMap((m) => [m.userId, ...(m.mutedBy ? [m.mutedBy] : [])])]);
  const items = itemsWith(
    feed.map((f) => f.message),
    people,
  );
  return {
    rooms: rooms.map((r) => ({
      ...roomStateOf(r.room),
      slug: r.room.slug,
      position: r.room.position,
      messageCount: r.messageCount,
      createdAt: r.room.createdAt,
    })),
    feed: items.map((item, i) => {
      const row = expectAt(feed, i, "chat items per feed row");
      return { ...item, roomName: row.roomName, deletedAt: row.message.deletedAt, authorIsAdmin: Boolean(row.authorIsAdmin) };
    }),
    mutes: mutes.map((m) => ({
      id: m.id,
      userId: m.userId,
      name: displayName(people.get(m.userId)),
      roomId: m.roomId,
      roomName: m.roomId ? (rooms.find((r) => r.room.id === m.roomId)?.room.name ?? "a removed room") : null,
      reason: m.reason,
      until: m.mutedUntil,
      mutedByName: m.mutedBy ? displayName(people.get(m.mutedBy)) : null,
      createdAt: m.createdAt,
    })),
  };
}

/** Runs a guarded change: a precondition failure becomes `refusal`. */
async function guarded(batch: () => Promise<unknown>, refusal: () => Error): Promise<void> {
  try {
    await batch();
  } catch (error) {
    if (isPreconditionFailure(error)) throw refusal();
    if (isUniqueViolation(error)) throw refusal();
    throw error;
  }
}

async function announceRoom(roomId: string): Promise<void> {
  const room = await roomById(roomId);
  await eachRoom([roomId], (r) => r.roomChanged(roomStateOf(room)));
}

/** One admin action on chat (the /chat-management form intents). */
export async function chatAdminAction(actor: Actor, input: ChatAdminInput, request?: Request): Promise<{ message: string }> {
  authorize(actor, "chat", "manage");
  const audit = (eventType: string, details: Record<string, unknown>, targetUserId: string | null = null) =>
    auditQuery({ eventType, severity: "medium", userId: actor.id, targetUserId, request, details });
  switch (input.intent) {
    case "create-room": {
      const id = crypto.randomUUID();
      const slug = await freeSlug(input.name);
      const position = await nextPosition();
      await guarded(
        () =>
          db().batch([
            db().insert(chatRooms).values({ id, slug, name: input.name, description: input.description, kind: input.kind, position, createdBy: actor.id }),
            audit("chat_room_created", { room_id: id, name: input.name, kind: input.kind }),
          ]),
        () => conflict("Choose another room name."),
      );
      return { message: `Room ${input.name} created.` };
    }
    case "update-room": {
      await roomById(input.roomId);
      await db().batch([
        db()
          .update(chatRooms)
          .set({ name: input.name, description: input.description, kind: input.kind, updatedAt: nowIso() })
          .where(eq(chatRooms.id, input.roomId)),
        audit("chat_room_updated", { room_id: input.roomId, name: input.name, description: input.description, kind: input.kind }),
      ]);
      await announceRoom(input.roomId);
      return { message: "Room saved." };
    }
    case "archive-room":
    case "restore-room": {
      const archive = input.intent === "archive-room";
      await roomById(input.roomId);
      await guarded(
        () =>
          db().batch([
            db()
              .update(chatRooms)
              .set({ archivedAt: archive ? nowIso() : null, updatedAt: nowIso() })
              .where(and(eq(chatRooms.id, input.roomId), archive ? isNull(chatRooms.archivedAt) : isNotNull(chatRooms.archivedAt))),
            precondition(previousStatementChanged()),
            audit(archive ? "chat_room_archived" : "chat_room_restored", { room_id: input.roomId }),
          ]),
        () => conflict(archive ? "This room is already archived." : "This room is not archived."),
      );
      await announceRoom(input.roomId);
      return { message: archive ? "Room archived." : "Room restored." };
    }
    case "move-room": {
      const rooms = await db().select().from(chatRooms).orderBy(sql`${chatRooms.archivedAt} is not null`, chatRooms.position, chatRooms.createdAt).all();
      const at = rooms.findIndex((r) => r.id === input.roomId);
      const me = rooms[at];
      if (!me) throw notFound("This room does not exist.");
      const other = rooms[input.direction === "up" ? at - 1 : at + 1];
      if (!other) throw invalid(input.direction === "up" ? "This room is already first." : "This room is already last.");
      // Distinct positions even when two rooms shared one.
      const [a, b] =
        me.position === other.position
          ? input.direction === "up"
            ? [other.position, other.position + 1]
            : [other.position + 1, other.position]
          : [other.position, me.position];
      await guarded(
        () =>
          db().batch([
            db()
              .update(chatRooms)
              .set({ position: a })
              .where(and(eq(chatRooms.id, me.id), eq(chatRooms.position, me.position))),
            precondition(previousStatementChanged()),
            db()
              .update(chatRooms)
              .set({ position: b })
              .where(and(eq(chatRooms.id, other.id), eq(chatRooms.position, other.position))),
            precondition(previousStatementChanged()),
            audit("chat_room_moved", { room_id: me.id, direction: input.direction }),
          ]),
        () => conflict("The rooms changed meanwhile. Try again."),
      );
      return { message: "Room moved." };
    }
    case "delete-message": {
      await deleteMessage(actor, input.id, request);
      return { message: "Message deleted." };
    }
    case "mute": {
      const target = await personById(input.userId);
      if (!target) throw notFound("This user does not exist.");
      if (input.userId === actor.id) throw invalid("You cannot mute yourself.");
      // Admins moderate the chat; a mute would only hide their announcements. Refused, nothing stored.
      if ((await userIdsWhere((p) => isAdminUser(p.userId), { among: [input.userId], includeBanned: true })).length > 0)
        throw invalid(CHAT_TEXT.cannotMuteAdmin);
      const room = input.roomId ? await roomById(input.roomId) : null;
      const now = nowIso();
      const until = new Date(Date.now() + input.minutes * 60_000).toISOString();
      // One open mute per user and room (unique index): of two admins muting at once, one wins.
      await guarded(
        () =>
          db().batch([
            closeExpiredMuteQuery(input.userId, input.roomId, now),
            db()
              .insert(chatMutes)
              .values({ id: crypto.randomUUID(), userId: input.userId, roomId: input.roomId, reason: input.reason, mutedUntil: until, mutedBy: actor.id }),
            audit("chat_user_muted", { until, minutes: input.minutes, reason: input.reason, room_id: input.roomId }, input.userId),
          ]),
        () => conflict(CHAT_TEXT.alreadyMuted),
      );
      await tellUser(input.userId);
      return { message: room ? `${displayName(target)} is muted in #${room.name}.` : `${displayName(target)} is muted in every room.` };
    }
    case "unmute": {
      const mute = await db().select({ userId: chatMutes.userId, roomId: chatMutes.roomId }).from(chatMutes).where(eq(chatMutes.id, input.muteId)).get();
      if (!mute) throw conflict(CHAT_TEXT.notMuted);
      const at = nowIso();
      // Guarded: of two admins ending it at once, one does (one audit row).
      await guarded(
        () =>
          db().batch([
            db()
              .update(chatMutes)
              .set({ endedAt: at, endedBy: actor.id })
              .where(and(eq(chatMutes.id, input.muteId), isNull(chatMutes.endedAt), gt(chatMutes.mutedUntil, at))),
            precondition(previousStatementChanged()),
            audit("chat_user_unmuted", { mute_id: input.muteId, room_id: mute.roomId }, mute.userId),
          ]),
        () => conflict(CHAT_TEXT.notMuted),
      );
      await tellUser(mute.userId);
      return { message: "Mute ended." };
    }
  }
}

/**
 * The user's open chat tabs learn at once of the mute that now holds in their room (or that none
 * does): each room gets its own answer, since a mute may hold in one room and not another.
 */
async function tellUser(userId: string): Promise<void> {
  const [ids, mutes] = await Promise.all([allRoomIds(), userMutesQuery(userId)]);
  await Promise.all(ids.map((id) => eachRoom([id], (room) => room.toUser(userId, { type: "mute", mute: muteIn(mutes, id) }))));
}

/**
 * Sessions of the user ended (sign-out, ban, admin action): every room closes the sockets of
 * sessions that no longer exist (a banned user's after a 'banned' frame). Called by accounts'
 * afterSessionsEnded, next to the notifier's own check.
 */
export async function closeChatSocketsOf(userId: string): Promise<void> {
  await eachRoom(await allRoomIds(), (room) => room.closeEndedSessions(userId));
}
