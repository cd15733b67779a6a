import { desc, eq, lt, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { endedSessions, sessions } from "~/db/schema";
import { db } from "~/platform/db.server";
import { ENDED_KEPT_MS } from "./session.server";

// The session rows as records: a person's list (Settings → Sessions), their erasure with the
// account, and the retention purge (docs/privacy.md). Starting and ending sessions: session.server.ts.

export type SessionSummary = {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string | null;
  ip: string | null;
};

/** The user's sessions, most recently used first. */
export async function listSessions(userId: string): Promise<SessionSummary[]> {
  return db()
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.lastSeenAt))
    .all();
}

/** A deleted account's sessions and the reasons kept for ended ones: all gone (the account is anonymised in the same batch). */
export function eraseSessionsStatements(userId: string): [BatchItem<"sqlite">, BatchItem<"sqlite">] {
  return [db().delete(sessions).where(eq(sessions.userId, userId)), db().delete(endedSessions).where(eq(endedSessions.userId, userId))];
}

/**
 * Retention (docs/privacy.md): sessions past their expiry (idle or absolute) and the reasons kept
 * for ended ones past ENDED_KEPT_MS go, with their user agents and addresses. Returns how many rows.
 */
export async function purgeEndedSessions(now = Date.now()): Promise<number> {
  const at = new Date(now).toISOString();
  const [expired, ended] = await db().batch([
    db().delete(sessions).where(sql`${sessions.expiresAt} < ${at} or ${sessions.absoluteExpiresAt} < ${at}`),
    db()
      .delete(endedSessions)
      .where(lt(endedSessions.endedAt, new Date(now - ENDED_KEPT_MS).toISOString())),
  ]);
  return (expired.meta.changes ?? 0) + (ended.meta.changes ?? 0);
}
