import { and, eq, isNotNull } from "drizzle-orm";
import { agencies, agencyUsers } from "~/db/schema";
import { forbidden } from "~/lib/errors";
import { can, type Actor } from "~/lib/permissions";
import { notifyUserQuietly } from "~/modules/notifications/notifications.server";
import { audit } from "~/platform/audit.server";
import { db } from "~/platform/db.server";
import { agencyStateOf } from "./directory.server";

// Who may act on which agency, and who hears about it. Every dashboard action names its agency by
// id; `authorizeManage` checks it against PERMISSIONS.agency.manage with the approved, active
// agencies the actor manages (admins act on every agency that exists).

/** The approved, active agencies this user manages or owns: what `agency.manage` checks against. */
export async function managedActiveAgencyIds(userId: string): Promise<string[]> {
  return (await agencyStateOf({ id: userId, isAdmin: false })).activeAgencyIds;
}

/** Throws 403 'Access Denied' (audit-logged) unless the actor may manage this agency. */
export async function authorizeManage(actor: Actor, agencyId: string, intent: string, request: Request): Promise<void> {
  const managedAgencyIds = actor.isAdmin ? [] : await managedActiveAgencyIds(actor.id);
  let allowed = can(actor, "agency", "manage", { agencyId, managedAgencyIds });
  if (allowed && actor.isAdmin) {
    allowed = Boolean(await db().select({ id: agencies.id }).from(agencies).where(eq(agencies.id, agencyId)).get());
  }
  if (allowed) return;
  await audit({
    eventType: "agency_access_denied",
    severity: "high",
    userId: actor.id,
    request,
    details: { agency_id: agencyId.slice(0, 64), intent: intent.slice(0, 32) },
  });
  throw forbidden("You can only manage your own agency.", { title: "Access Denied" });
}

/** The managers and the owner of an agency: who hears of its review and status changes. */
export async function managerIdsOf(agencyId: string): Promise<string[]> {
  const [managers, [owner]] = await db().batch([
    db().select({ userId: agencyUsers.userId }).from(agencyUsers).where(eq(agencyUsers.agencyId, agencyId)),
    db()
      .select({ userId: agencies.userId })
      .from(agencies)
      .where(and(eq(agencies.id, agencyId), isNotNull(agencies.userId))),
  ]);
  const rows = owner ? [...managers, owner] : managers;
  return [...new Set(rows.flatMap((r) => (r.userId ? [r.userId] : [])))];
}

/**
 * Tells a user in the app. The change is made and audited before this runs; a failed
 * notification must not turn it into an error.
 */
export function noticeQuietly(userId: string, title: string, content: string, createdBy: string | null): Promise<void> {
  return notifyUserQuietly(userId, { title, content, kind: "agency", createdBy });
}

/** An agency as its dashboard and the admin's list show it: who it is and where it stands. */
export const agencyProfileColumns = () => ({
  id: agencies.id,
  name: agencies.name,
  slug: agencies.slug,
  contactEmail: agencies.contactEmail,
  description: agencies.description,
  logoUrl: agencies.logoUrl,
  status: agencies.status,
  approvalStatus: agencies.approvalStatus,
});
