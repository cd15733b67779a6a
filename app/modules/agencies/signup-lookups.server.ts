import { and, eq, isNull } from "drizzle-orm";
import { agencies, agencySignupTokens } from "~/db/schema";
import { db } from "~/platform/db.server";
import { isActiveAgency } from "./directory.server";

// The sign-up's agency lookups as query builders (not executed), so the accounts module puts them
// in the same db().batch as its own reads: one round trip for a sign-up's lookups. Each result is
// an array of at most one row.

/** An approved, active agency by its slug (`/{slug}/signup`). */
export function activeAgencyBySlugQuery(slug: string) {
  return db()
    .select({
      id: agencies.id,
      name: agencies.name,
      slug: agencies.slug,
      logoUrl: agencies.logoUrl,
      description: agencies.description,
    })
    .from(agencies)
    .where(and(eq(agencies.slug, slug), isActiveAgency()))
    .limit(1);
}

export type PublicAgency = { id: string; name: string; slug: string; logoUrl: string | null; description: string | null };

/** An approved, active agency by its slug (`/{slug}/signup`), or null. */
export async function activeAgencyBySlug(slug: string): Promise<PublicAgency | null> {
  return (await activeAgencyBySlugQuery(slug).get()) ?? null;
}

/** The unrevoked signup token of an approved, active agency. */
export function agencyForSignupTokenQuery(token: string) {
  return db()
    .select({ tokenId: agencySignupTokens.id, agencyId: agencySignupTokens.agencyId })
    .from(agencySignupTokens)
    .innerJoin(agencies, eq(agencies.id, agencySignupTokens.agencyId))
    .where(and(eq(agencySignupTokens.token, token), isNull(agencySignupTokens.revokedAt), isActiveAgency()))
    .limit(1);
}
