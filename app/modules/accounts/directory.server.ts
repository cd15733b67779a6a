import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { profiles, userRoles, users } from "~/db/schema";
import type { Actor } from "~/lib/permissions";
import { db } from "~/platform/db.server";
import type { SessionUser } from "./session.server";

// What other modules ask the accounts module about people: the actor a guard proved, the
// "is admin" predicate, and names for lists (rosters, queues, audit views).

/** The actor the domain modules authorize, from the user a guard proved. */
export function actorOf(user: SessionUser): Actor {
  return {
    id: user.id,
    email: user.email,
    isAdmin: user.isAdmin,
    approvalStatus: user.approvalStatus,
    isBanned: user.isBanned,
    isMusicPartner: user.isMusicPartner,
    hasActiveAgency: user.hasActiveAgency,
  };
}

/** "This user holds the admin role": the one definition, for a WHERE over a user id column. */
export function isAdminUser(userId: SQLiteColumn | SQL): SQL {
  return sql`exists (select 1 from ${userRoles} where ${and(eq(userRoles.userId, userId), eq(userRoles.role, "admin"))})`;
}

export type PersonSummary = {
  id: string;
  email: string;
  fullName: string | null;
  avatarUrl: string | null;
  creatorId: string;
  approvalStatus: "pending" | "approved" | "rejected";
  isBanned: boolean;
};

/** Names and statuses of the given users, for lists that show people; unknown ids are absent. */
export async function peopleByIds(ids: readonly string[]): Promise<Map<string, PersonSummary>> {
  const unique = [...new Set(ids)];
  const out = new Map<string, PersonSummary>();
  // D1 binds at most 100 parameters per statement.
  for (let i = 0; i < unique.length; i += 90) {
    const rows = await db()
      .select({
        id: users.id,
        email: users.email,
        fullName: profiles.fullName,
        avatarUrl: profiles.avatarUrl,
        creatorId: profiles.creatorId,
        approvalStatus: profiles.approvalStatus,
        isBanned: profiles.isBanned,
      })
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(inArray(users.id, unique.slice(i, i + 90)))
      .all();
    for (const r of rows) out.set(r.id, r);
  }
  return out;
}

/** The users behind these public creator ids (profiles.creator_id, upper case): the revenue import matches rows with it. */
export async function peopleByCreatorIds(creatorIds: readonly string[]): Promise<Map<string, PersonSummary>> {
  const unique = [...new Set(creatorIds.map((c) => c.toUpperCase()))];
  const out = new Map<string, PersonSummary>();
  for (let i = 0; i < unique.length; i += 90) {
    const rows = await db()
      .select({
        id: users.id,
        email: users.email,
        fullName: profiles.fullName,
        avatarUrl: profiles.avatarUrl,
        creatorId: profiles.creatorId,
        approvalStatus: profiles.approvalStatus,
        isBanned: profiles.isBanned,
      })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .where(inArray(profiles.creatorId, unique.slice(i, i + 90)))
      .all();
    for (const r of rows) out.set(r.creatorId, r);
  }
  return out;
}
