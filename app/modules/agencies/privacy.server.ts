import { eq } from "drizzle-orm";
import { agencies, agencyUsers } from "~/db/schema";
import { columnsOf } from "~/db/columns";
import { db } from "~/platform/db.server";

// The agencies domain's part of a data export and of an account deletion (issue 28).

export async function agenciesDataFor(userId: string) {
  const [memberships, applications] = await db().batch([
    db()
      .select({ agency: agencies.name, slug: agencies.slug, role: agencyUsers.role, since: agencyUsers.createdAt })
      .from(agencyUsers)
      .innerJoin(agencies, eq(agencies.id, agencyUsers.agencyId))
      .where(eq(agencyUsers.userId, userId)),
    db()
      .select(columnsOf(agencies, "name", "slug", "contactEmail", "approvalStatus", "createdAt"))
      .from(agencies)
      .where(eq(agencies.userId, userId)),
  ]);
  return { memberships, applications };
}

/** A deleted account manages no agency any more (the agency itself, a business, stays). */
export function eraseAgenciesDataQueries(userId: string) {
  return [db().delete(agencyUsers).where(eq(agencyUsers.userId, userId))] as const;
}
