import { env } from "./env.server";
import { clientIp, userAgent } from "./request-info.server";

export type Severity = "low" | "medium" | "high" | "critical";

export type AuditEvent = {
  eventType: string;
  severity?: Severity;
  userId?: string | null;
  targetUserId?: string | null;
  request?: Request;
  details?: Record<string, unknown>;
};

const SECRET_KEYS = /password|token|secret|code_verifier|cookie/i;

/** Drops anything that looks like a secret, so it can never reach the log. */
function scrub(details: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(details).filter(([k]) => !SECRET_KEYS.test(k)));
}

/** The audit row as a statement, to join a batch with the change it records. */
export function auditStatement(e: AuditEvent): D1PreparedStatement {
  const url = e.request ? new URL(e.request.url) : null;
  return env.DB.prepare(
    `INSERT INTO security_audit_log (id, event_type, severity, user_id, target_user_id, ip, user_agent, path, details)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).bind(
    crypto.randomUUID(),
    e.eventType,
    e.severity ?? "low",
    e.userId ?? null,
    e.targetUserId ?? null,
    e.request ? clientIp(e.request) : null,
    e.request ? userAgent(e.request) : null,
    url ? url.pathname : null,
    JSON.stringify({ timestamp: new Date().toISOString(), ...scrub(e.details ?? {}) }),
  );
}

/** Writes an audit record. Failures are logged, never shown to the user (spec: ignored). */
export async function audit(e: AuditEvent): Promise<void> {
  try {
    await auditStatement(e).run();
  } catch (error) {
    console.error("audit log write failed", error);
  }
}
