import { and, Column, count, desc, eq, getTableName, is, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { profiles, users } from "~/db/schema";
import { db } from "~/platform/db.server";

// Pieces of the accounts tables that other modules put into their own batches (one round trip
// per page): correlated lookups by a user id column, the people who joined an agency
// (profiles.agency_id), and the account change an agency approval brings. Builders here are not
// executed; the caller batches them.

type Ref = SQLiteColumn | SQL;

/** A column as "table"."column": drizzle leaves select-list columns of one-table queries bare. */
function ref(c: Ref): SQL {
  return is(c, Column) ? sql`${sql.identifier(getTableName(c.table))}.${sql.identifier(c.name)}` : c;
}

/** The e-mail of the user in `userId`, or null. */
export function emailOfUser(userId: Ref): SQL<string | null> {
  return sql<string | null>`(select ${ref(users.email)} from ${users} where ${ref(users.id)} = ${ref(userId)})`;
}

/** The profile's full name of the user in `userId`, or null. */
export function fullNameOfUser(userId: Ref): SQL<string | null> {
  return sql<string | null>`(select ${ref(profiles.fullName)} from ${profiles} where ${ref(profiles.userId)} = ${ref(userId)})`;
}

/** How many people joined the agency in `agencyId` (profiles.agency_id). */
export function agencyMemberCountOf(agencyId: Ref): SQL<number> {
  return sql<number>`(select count(*) from ${profiles} where ${ref(profiles.agencyId)} = ${ref(agencyId)})`.mapWith(Number);
}

/** How many people signed up with the agency signup token in `tokenId`. */
export function signupCountOfToken(tokenId: Ref): SQL<number> {
  return sql<number>`(select count(*) from ${profiles} where ${ref(profiles.agencySignupTokenId)} = ${ref(tokenId)})`.mapWith(Number);
}

/**
 * One page of the people who joined an agency, newest first, with extra columns the caller
 * computes from the user id (e.g. the channels module's statistics).
 */
export function agencyMembersQuery<E extends Record<string, SQL>>(
  agencyId: string,
  page: { limit: number; offset: number },
  extra: (userId: SQLiteColumn) => E,
) {
  return db()
    .select({
      userId: profiles.userId,
      fullName: profiles.fullName,
      email: users.email,
      approvalStatus: profiles.approvalStatus,
      isBanned: profiles.isBanned,
      isMusicPartner: profiles.isMusicPartner,
      joinedAt: profiles.createdAt,
      viaToken: sql<boolean>`${profiles.agencySignupTokenId} is not null`.mapWith(Boolean),
      ...extra(profiles.userId),
    })
    .from(profiles)
    .innerJoin(users, eq(users.id, profiles.userId))
    .where(eq(profiles.agencyId, agencyId))
    .orderBy(desc(profiles.createdAt))
    .limit(page.limit)
    .offset(page.offset);
}

/** How many people joined an agency, as a query to batch. */
export function agencyMemberTotalQuery(agencyId: string) {
  return db().select({ n: count() }).from(profiles).where(eq(profiles.agencyId, agencyId));
}

/** An account by its (normalized) e-mail, for adding a manager; null when none. */
export async function personByEmail(email: string): Promise<{ id: string; fullName: string | null; isBanned: boolean } | null> {
  const row = await db()
    .select({ id: users.id, fullName: profiles.fullName, isBanned: profiles.isBanned })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.email, email))
    .get();
  return row ?? null;
}

/**
 * Approves a pending, unbanned account (an agency applicant the admin has just vetted). Guarded:
 * the row count says whether it happened, and so whether the user is told.
 */
export function approvePendingAccountQuery(userId: string, now = new Date().toISOString()) {
  return db()
    .update(profiles)
    .set({ approvalStatus: "approved", rejectionReason: null, updatedAt: now })
    .where(and(eq(profiles.userId, userId), eq(profiles.approvalStatus, "pending"), eq(profiles.isBanned, false)));
}
