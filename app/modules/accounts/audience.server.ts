import { and, asc, eq, type SQL } from "drizzle-orm";
import { profiles, users } from "~/db/schema";
import { db, inJsonList } from "~/platform/db.server";

// Who a message reaches, as the accounts module answers it: the ids of the people a predicate
// selects. Other modules (notifications' broadcast audiences) say *which* people with a predicate
// over the columns below and other modules' named predicates over the user id (isAdminUser,
// isActiveClipper, managesActiveAgency); only this module reads profiles and users for it.

/** The facts about a person an audience predicate may test. */
export const audienceColumns = {
  userId: profiles.userId,
  email: users.email,
  fullName: profiles.fullName,
  approvalStatus: profiles.approvalStatus,
  isMusicPartner: profiles.isMusicPartner,
  isBanned: profiles.isBanned,
};
export type PersonColumns = typeof audienceColumns;

// A list of values as ONE bound parameter (an audience may name hundreds of people): the
// platform's inJsonList, re-exported for the modules that ask accounts for it.
export { inJsonList };

/**
 * The ids of the users a predicate selects, in id order. Banned users are left out unless
 * `includeBanned`: they receive nothing. `among` limits the answer to the given ids.
 */
export async function userIdsWhere(
  predicate: (p: PersonColumns) => SQL | undefined,
  opts: { among?: readonly string[]; includeBanned?: boolean } = {},
): Promise<string[]> {
  const rows = await db()
    .select({ id: profiles.userId })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(
      and(
        opts.includeBanned ? undefined : eq(profiles.isBanned, false),
        opts.among ? inJsonList(profiles.userId, opts.among) : undefined,
        predicate(audienceColumns),
      ),
    )
    .orderBy(asc(profiles.userId))
    .all();
  return rows.map((r) => r.id);
}

/** The account id of each e-mail (compared as stored: lower case) that has an account. */
export async function userIdsByEmail(emails: readonly string[]): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map();
  const rows = await db().select({ id: users.id, email: users.email }).from(users).where(inJsonList(users.email, emails)).all();
  return new Map(rows.map((r) => [r.email, r.id]));
}
