import { asc, eq } from "drizzle-orm";
import { chatMessages, chatMutes, chatReads, chatRooms } from "~/db/schema";
import { columnsOf } from "~/db/columns";
import { db } from "~/platform/db.server";

// The chat domain's part of a data export and of an account deletion (issue 28). A deleted
// account's messages stay in their rooms, shown as from "Deleted user" (the author's profile name
// after anonymisation), so that conversations keep their sense (docs/decisions/0213).

export async function chatDataFor(userId: string) {
  return db()
    .select({ room: chatRooms.name, ...columnsOf(chatMessages, "body", "createdAt", "editedAt", "deletedAt") })
    .from(chatMessages)
    .innerJoin(chatRooms, eq(chatRooms.id, chatMessages.roomId))
    .where(eq(chatMessages.userId, userId))
    .orderBy(asc(chatMessages.createdAt))
    .limit(20_000);
}

/** Read markers and mutes of a deleted account go; its messages stay, authored by "Deleted user". */
export function eraseChatDataQueries(userId: string) {
  return [db().delete(chatReads).where(eq(chatReads.userId, userId)), db().delete(chatMutes).where(eq(chatMutes.userId, userId))] as const;
}
