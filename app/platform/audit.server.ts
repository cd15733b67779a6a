import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { securityAuditLog } from "~/db/schema";
import { d1, db } from "./db.server";
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

/** The audit row of an event, as stored. */
function auditRow(e: AuditEvent): typeof securityAuditLog.$inferInsert {
  return {
    id: crypto.randomUUID(),
    eventType: e.eventType,
    severity: e.severity ?? "low",
    userId: e.userId ?? null,
    targetUserId: e.targetUserId ?? null,
    ip: e.request ? clientIp(e.request) : null,
    userAgent: e.request ? userAgent(e.request) : null,
    path: e.request ? new URL(e.request.url).pathname : null,
    details: JSON.stringify({ timestamp: new Date().toISOString(), ...scrub(e.details ?? {}) }),
  };
}

/** The audit row as a statement, to join a batch with the change it records. */
export function auditStatement(e: AuditEvent): D1PreparedStatement {
  const r = auditRow(e);
  return d1()
    .prepare(
      `INSERT INTO security_audit_log (id, event_type, severity, user_id, target_user_id, ip, user_agent, path, details)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(r.id, r.eventType, r.severity, r.userId, r.targetUserId, r.ip, r.userAgent, r.path, r.details);
}

/** The audit row as a drizzle query (not executed), to join a `db().batch([...])` with the change it records. */
export function auditQuery(e: AuditEvent) {
  return db().insert(securityAuditLog).values(auditRow(e));
}

/**
 * The audit row as a drizzle INSERT ... SELECT (not executed) that writes only if `condition` holds when
 * it runs, e.g. `changes() = 1` right after a guarded update in the same batch (nothing aborts).
 */
export function auditQueryWhen(e: AuditEvent, condition: SQL) {
  const r: Record<string, unknown> = auditRow(e);
  const values = Object.keys(getTableColumns(securityAuditLog)).map((k) =>
    k === "createdAt" ? (securityAuditLog.createdAt.default as SQL) : sql`${r[k] ?? null}`,
  );
  return db()
    .insert(securityAuditLog)
    .select(sql`select ${sql.join(values, sql`, `)} where ${condition}`);
}

/** Writes an audit record. Failures are logged, never shown to the user (spec: ignored). */
export async function audit(e: AuditEvent): Promise<void> {
  try {
    await auditStatement(e).run();
  } catch (error) {
    console.error("audit log write failed", error);
  }
}
