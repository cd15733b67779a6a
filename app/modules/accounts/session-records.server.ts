import { desc, eq } from "drizzle-orm";
import { sessions } from "~/db/schema";
import { db } from "~/platform/db.server";

// A person's session rows as a list (Settings → Sessions). Every statement that deletes session
// rows (ending, erasure with the account, the retention purge) stays in session.server.ts: one path.

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
