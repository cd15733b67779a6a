import { redirect } from "react-router";
import { requireUser, type GuardArgs } from "~/modules/accounts/guards.server";
import type { SessionUser } from "~/modules/accounts/accounts.server";
import { agencyStateOf } from "./directory.server";

// The agency area's guard: who may open /agency-dashboard. What they may do there is the
// module's check (PERMISSIONS.agency.manage, per agency).

/**
 * An approved, active agency (admins always). Without any agency the user is sent to the
 * application form; pending, rejected or inactive ones to the status page.
 */
export async function requireAgencyAccess(args: GuardArgs): Promise<SessionUser & { activeAgencyIds: string[] }> {
  const user = await requireUser(args);
  const { state, activeAgencyIds } = await agencyStateOf(user);
  if (user.isAdmin) return { ...user, activeAgencyIds };
  if (state === "none") throw redirect("/agency-application-signup");
  if (state !== "approved" || activeAgencyIds.length === 0) throw redirect("/agency-application-status");
  return { ...user, activeAgencyIds };
}
