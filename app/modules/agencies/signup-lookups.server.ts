import { and, eq, isNull } from "drizzle-orm";
import { agencies, agencySignupTokens } from "~/db/schema";
import { db } from "~/platform/db.server";
import { isActiveAgency } from "./directory.server";

// The sign-up's agency lookups. The accounts module asks `agencyForSignUp` (a fact this module
// provides through app/platform/account-hooks.server.ts) beside its own reads.

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

/**
 * The agency a creator's sign-up is attributed to: an unrevoked signup token of an active agency
 * first, else an active agency by its slug; null when neither. Both lookups in one round trip.
 */
export async function agencyForSignUp(slug: string, token: string): Promise<{ agencyId: string; tokenId: string | null } | null> {
  const [bySlug, byToken] = await db().batch([activeAgencyBySlugQuery(slug), agencyForSignupTokenQuery(token)]);
  const viaToken = byToken[0];
  if (viaToken) return { agencyId: viaToken.agencyId, tokenId: viaToken.tokenId };
  return bySlug[0] ? { agencyId: bySlug[0].id, tokenId: null } : null;
}
