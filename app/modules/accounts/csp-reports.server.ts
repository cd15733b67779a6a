import { audit } from "~/platform/audit.server";
import { readText } from "~/platform/body.server";
import type { SessionUser } from "./session.server";

// Content-Security-Policy violation reports (spec section 6): accepted from anyone, forwarded to
// the audit log only when the reporting session is an admin's. The body is a browser's JSON
// report, not a form; it is read only for admins, and only its first 4000 characters.

export async function recordCspReport(request: Request, user: SessionUser | null): Promise<void> {
  if (!user?.isAdmin || user.isBanned) return;
  const text = await readText(request, 4000);
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
    request,
    details: { concern: "content-security-policy violation", ...report },
  });
}
