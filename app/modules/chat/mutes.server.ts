import { and, desc, eq, gt, isNull, lte, or, type SQL } from "drizzle-orm";
import { chatMutes } from "~/db/schema";
import { builtOnce, db } from "~/platform/db.server";
import type { ChatMuteState } from "./types";

// Mutes (decision 0246): a user is muted in a room while a row for that room, or for every room
// (room_id null), has ended_at null and muted_until in the future. One open row per user and room
// (unique index); an expired open row is closed before a new one of the same room is written.

/** "This user is muted in this room now", for a WHERE (the message INSERT's rule and the typing check). */
export function mutedIn(userId: string | SQL, roomId: string | SQL, now: string): SQL {
  return and(
    eq(chatMutes.userId, userId),
    isNull(chatMutes.endedAt),
    gt(chatMutes.mutedUntil, now),
    or(isNull(chatMutes.roomId), eq(chatMutes.roomId, roomId)),
  ) as SQL;
}

/** The user's open mutes, every room's and each room's (a page picks the one of its room with `muteIn`). */
export function userMutesQuery(userId: string, now = new Date().toISOString()) {
  return db()
    .select({ until: chatMutes.mutedUntil, reason: chatMutes.reason, roomId: chatMutes.roomId })
    .from(chatMutes)
    .where(and(eq(chatMutes.userId, userId), isNull(chatMutes.endedAt), gt(chatMutes.mutedUntil, now)));
}

type MuteRow = { until: string; reason: string; roomId: string | null };

/** The mute that holds in `roomId` (the one that ends last), or null. */
export function muteIn(rows: readonly MuteRow[], roomId: string): ChatMuteState | null {
  const holding = rows.filter((r) => r.roomId === null || r.roomId === roomId).sort((a, b) => (a.until < b.until ? 1 : -1));
  const m = holding[0];
  return m ? { until: m.until, reason: m.reason, allRooms: m.roomId === null } : null;
}

/** Closes the user's open mute of this room (or of every room) that has run out, so a new one may be written. */
export function closeExpiredMuteQuery(userId: string, roomId: string | null, now: string) {
  return db()
    .update(chatMutes)
    .set({ endedAt: now })
    .where(
      and(
        eq(chatMutes.userId, userId),
        roomId === null ? isNull(chatMutes.roomId) : eq(chatMutes.roomId, roomId),
        isNull(chatMutes.endedAt),
        lte(chatMutes.mutedUntil, now),
      ),
    );
}

export function activeMutesQuery(now = new Date().toISOString()) {
  return activeMutesStatement({ now });
}

const activeMutesStatement = builtOnce((slot) =>
  db()
    .select()
    .from(chatMutes)
    .where(and(isNull(chatMutes.endedAt), gt(chatMutes.mutedUntil, slot<string>("now"))))
    .orderBy(desc(chatMutes.createdAt))
    .limit(200),
);
