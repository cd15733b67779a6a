import { redirect } from "react-router";
import { isApproved } from "~/lib/permissions";
import { requireUser, type GuardArgs } from "~/modules/accounts/guards.server";
import type { SessionUser } from "~/modules/accounts/accounts.server";
import { agencyStateOf } from "./directory.server";

// The agency area's guard: who may open /agency-dashboard. What they may do there is the
// module's check (PERMISSIONS.agency.manage, per agency).

/**
 * An approved account managing an approved, active agency (admins always). Without any agency
 * the user is sent to the application form; pending, rejected or inactive agencies, and managers
 * whose own account is pending or rejected, to the status page (docs/decisions/0066).
 */
export async function requireAgencyAccess(args: GuardArgs): Promise<SessionUser & { activeAgencyIds: string[] }> {
  const user = await requireUser(args);
  const { state, activeAgencyIds } = await agencyStateOf(user);
  if (user.isAdmin) return { ...user, activeAgencyIds };
  if (state === "none") throw redirect("/agency-application-signup");
  if (state !== "approved" || activeAgencyIds.length === 0 || !isApproved(user)) throw redirect("/agency-application-status");
  return { ...user, activeAgencyIds };
}
