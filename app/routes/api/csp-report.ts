import { audit } from "~/platform/audit.server";
import { getOptionalUser } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/csp-report";

// Content-Security-Policy violation reports: accepted from anyone (204), forwarded to the audit
// log only when the reporting session is an admin's (spec section 6).
export async function action(args: Route.ActionArgs) {
  const user = await getOptionalUser(args);
  if (user?.isAdmin && !user.isBanned) {
    const text = (await args.request.text()).slice(0, 4000);
    let report: Record<string, unknown> = {};
    try {
      const body = JSON.parse(text) as { "csp-report"?: Record<string, unknown> };
      const r = (body["csp-report"] ?? body) as Record<string, unknown>;
      report = {
        blocked_uri: r["blocked-uri"],
        violated_directive: r["violated-directive"] ?? r["effective-directive"],
        document_uri: r["document-uri"],
      };
    } catch {
      report = { unparsed: true };
    }
    await audit({
      eventType: "csp_violation",
      severity: "low",
      userId: user.id,
      request: args.request,
      details: { concern: "content-security-policy violation", ...report },
    });
  }
  return new Response(null, { status: 204 });
}
