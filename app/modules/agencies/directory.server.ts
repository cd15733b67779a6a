import { and, eq, isNull, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { agencies, agencySignupTokens, agencyUsers } from "~/db/schema";
import { db } from "~/platform/db.server";

// What other modules ask the agencies module: which agency a sign-up joins, whether someone
// manages an approved, active agency, and the derived agency state of spec section 4.

/** "Approved and active": the one definition of an agency that counts (spec section 6). */
export const isActiveAgency = () => and(eq(agencies.approvalStatus, "approved"), eq(agencies.status, "active"));

/** "This user manages or owns an approved, active agency", for a WHERE over a user id column. */
export function managesActiveAgency(userId: SQLiteColumn | SQL): SQL {
  return sql`(exists (select 1 from ${agencyUsers} join ${agencies} on ${agencies.id} = ${agencyUsers.agencyId}
      where ${agencyUsers.userId} = ${userId} and ${isActiveAgency()})
    or exists (select 1 from ${agencies} where ${agencies.userId} = ${userId} and ${isActiveAgency()}))`;
}

/** The unrevoked signup token of an approved, active agency, or null. */
export async function agencyForSignupToken(token: string): Promise<{ tokenId: string; agencyId: string } | null> {
  const row = await db()
    .select({ tokenId: agencySignupTokens.id, agencyId: agencySignupTokens.agencyId })
    .from(agencySignupTokens)
    .innerJoin(agencies, eq(agencies.id, agencySignupTokens.agencyId))
    .where(and(eq(agencySignupTokens.token, token), isNull(agencySignupTokens.revokedAt), isActiveAgency()))
    .get();
  return row ?? null;
}

export type AgencyState = "approved" | "pending" | "rejected" | "none";

/**
 * The derived agency state of spec section 4: approved (any approved agency owned, or approved
 * membership, or admin); else pending; else rejected; else none. Also the approved, active
 * agencies the user manages, which use requires. Any failure means none (spec section 8), so a
 * failing query never grants agency access.
 */
export async function agencyStateOf(user: { id: string; isAdmin: boolean }): Promise<{ state: AgencyState; activeAgencyIds: string[] }> {
  let rows: { id: string; approvalStatus: string; isActive: boolean }[] = [];
  try {
    const isActive = sql<boolean>`${isActiveAgency()}`.mapWith(Boolean);
    const cols = { id: agencies.id, approvalStatus: agencies.approvalStatus, isActive };
    rows = await db()
      .selectDistinct(cols)
      .from(agencies)
      .leftJoin(agencyUsers, and(eq(agencyUsers.agencyId, agencies.id), eq(agencyUsers.userId, user.id)))
      .where(or(eq(agencies.userId, user.id), eq(agencyUsers.userId, user.id)))
      .all();
  } catch (error) {
    console.error("agency state lookup failed", error);
    return { state: "none", activeAgencyIds: [] };
  }
  const activeAgencyIds = rows.filter((r) => r.isActive).map((r) => r.id);
  const has = (s: string) => rows.some((r) => r.approvalStatus === s);
  const state: AgencyState = user.isAdmin || has("approved") ? "approved" : has("pending") ? "pending" : has("rejected") ? "rejected" : "none";
  return { state, activeAgencyIds };
}
