import { recordCspReport } from "~/modules/accounts/accounts.server";
import { getOptionalUser } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/csp-report";

// Content-Security-Policy violation reports: accepted from anyone (204), forwarded to the audit
// log only when the reporting session is an admin's (spec section 6).
export async function action(args: Route.ActionArgs) {
  await recordCspReport(args.request, await getOptionalUser(args));
  return new Response(null, { status: 204 });
}
