import { and, desc, eq, gt, isNull, lte } from "drizzle-orm";
import { chatMutes } from "~/db/schema";
import { db } from "~/platform/db.server";
import type { ChatMuteState } from "./types";

// Mutes: a user is muted while a row has ended_at null and muted_until in the future. One open
// row per user (unique index); an expired open row is closed before a new mute is written.

export function activeMuteQuery(userId: string, now = new Date().toISOString()) {
  return db()
    .select({ until: chatMutes.mutedUntil, reason: chatMutes.reason })
    .from(chatMutes)
    .where(and(eq(chatMutes.userId, userId), isNull(chatMutes.endedAt), gt(chatMutes.mutedUntil, now)))
    .limit(1);
}

export const muteStateOf = (rows: { until: string; reason: string }[]): ChatMuteState | null =>
  rows[0] ? { until: rows[0].until, reason: rows[0].reason } : null;

/** Closes the user's open mute that has run out, so a new one may be written. */
export function closeExpiredMuteQuery(userId: string, now: string) {
  return db()
    .update(chatMutes)
    .set({ endedAt: now })
    .where(and(eq(chatMutes.userId, userId), isNull(chatMutes.endedAt), lte(chatMutes.mutedUntil, now)));
}

export function activeMutesQuery(now = new Date().toISOString()) {
  return db()
    .select()
    .from(chatMutes)
    .where(and(isNull(chatMutes.endedAt), gt(chatMutes.mutedUntil, now)))
    .orderBy(desc(chatMutes.createdAt))
    .limit(200);
}
