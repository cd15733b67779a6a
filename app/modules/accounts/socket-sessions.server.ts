import { and, eq, gt, sql } from "drizzle-orm";
import { profiles, sessions } from "~/db/schema";
import { db } from "~/platform/db.server";
import { inJsonList } from "./audience.server";

// What the realtime layer asks the accounts module about the sessions behind open sockets
// (workers/user-notifier.ts): which of them still exist, until when, and whether the user is
// banned, in one round trip.

export type SocketSessionState = {
  /** The sessions that still exist and have not expired, with the time each ends unless used again. */
  live: { id: string; endsAt: string }[];
  banned: boolean;
  /** The ban's reason, for the 'banned' event of tabs whose sessions the ban ended. */
  banReason: string | null;
};

/** The state of the given sessions of a user (at most a few: one per open tab). */
export async function socketSessionState(userId: string, sessionIds: readonly string[], now = new Date()): Promise<SocketSessionState> {
  const at = now.toISOString();
  const [live, profile] = await db().batch([
    db()
      .select({ id: sessions.id, endsAt: sql<string>`min(${sessions.expiresAt}, ${sessions.absoluteExpiresAt})` })
      .from(sessions)
      .where(
        and(eq(sessions.userId, userId), inJsonList(sessions.id, [...new Set(sessionIds)]), gt(sessions.expiresAt, at), gt(sessions.absoluteExpiresAt, at)),
      ),
    db().select({ isBanned: profiles.isBanned, banReason: profiles.banReason }).from(profiles).where(eq(profiles.userId, userId)),
  ]);
  const banned = profile[0]?.isBanned === true;
  return { live, banned, banReason: banned ? (profile[0]?.banReason ?? null) : null };
}
