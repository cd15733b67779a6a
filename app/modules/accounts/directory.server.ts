import { and, eq, or, type Placeholder, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { profiles, userRoles, users } from "~/db/schema";
import type { Actor } from "~/lib/permissions";
import { builtOnce, db, inJsonList } from "~/platform/db.server";
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

const personColumns = {
  id: users.id,
  email: users.email,
  fullName: profiles.fullName,
  avatarUrl: profiles.avatarUrl,
  creatorId: profiles.creatorId,
  approvalStatus: profiles.approvalStatus,
  isBanned: profiles.isBanned,
};

/** A profile's standing as the admin's user panel and the data export show it (moderation, deletion). */
export const profileStandingColumns = {
  fullName: profiles.fullName,
  creatorId: profiles.creatorId,
  approvalStatus: profiles.approvalStatus,
  rejectionReason: profiles.rejectionReason,
  isBanned: profiles.isBanned,
  banReason: profiles.banReason,
  isMusicPartner: profiles.isMusicPartner,
  artistName: profiles.artistName,
  catalogueUrl: profiles.catalogueUrl,
  lastSignInAt: profiles.lastSignInAt,
};

/** The people whose `column` is in a list (one JSON slot), built once per isolate (db.server `builtOnce`). */
function peopleIn(column: SQLiteColumn) {
  return builtOnce((slot) =>
    db()
      .select(personColumns)
      .from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id))
      .where(inJsonList(column, slot("values"))),
  );
}

/**
 * The people whose user id is in any of `lists` (SQL subquery selects, e.g. over the session's user),
 * as a select for another module's statement built once (db.server `builtOnce`): the caller's batch,
 * the accounts module's tables. (D1 allows few terms in a compound select: each list is its own `in`.)
 * `limit`: an admin page's adminSessionLimit (docs/decisions/0356).
 */
export function peopleWhereIdIn(lists: readonly SQL[], limit: number | Placeholder = -1) {
  return db()
    .select(personColumns)
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(or(...lists.map((list) => sql`${users.id} in (${list})`)))
    .limit(limit);
}

const peopleQueries = { byId: peopleIn(users.id), byCreatorId: peopleIn(profiles.creatorId) };

/** The people whose `column` is one of `values`, keyed by `keyOf` (one statement, one round trip). */
async function peopleWhere(
  query: keyof typeof peopleQueries,
  values: readonly string[],
  keyOf: (p: PersonSummary) => string,
): Promise<Map<string, PersonSummary>> {
  const unique = [...new Set(values)];
  const rows = unique.length === 0 ? [] : await peopleQueries[query]({ values: JSON.stringify(unique) }).all();
  return new Map(rows.map((r) => [keyOf(r), r]));
}

/** peopleByIds as one statement for a caller's own batch; `peopleMap` makes its rows the same map. */
export function peopleByIdsStatement(ids: readonly string[]) {
  return peopleQueries.byId({ values: JSON.stringify([...new Set(ids)]) });
}

/** The rows of peopleByIdsStatement by user id. */
export function peopleMap(rows: readonly PersonSummary[]): Map<string, PersonSummary> {
  return new Map(rows.map((r) => [r.id, r]));
}

/** Names and statuses of the given users, for lists that show people; unknown ids are absent. */
export function peopleByIds(ids: readonly string[]): Promise<Map<string, PersonSummary>> {
  return peopleWhere("byId", ids, (p) => p.id);
}

/** One user's name and status (peopleByIds for a single id); undefined for an unknown id. */
export async function personById(id: string): Promise<PersonSummary | undefined> {
  return (await peopleByIds([id])).get(id);
}

/** The users behind these public creator ids (profiles.creator_id, upper case): the revenue import matches rows with it. */
export function peopleByCreatorIds(creatorIds: readonly string[]): Promise<Map<string, PersonSummary>> {
  return peopleWhere(
    "byCreatorId",
    creatorIds.map((c) => c.toUpperCase()),
    (p) => p.creatorId,
  );
}
