import { and, desc, eq, gte, lt, or, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { securityAuditLog } from "~/db/schema";
import { columnsOf } from "~/db/columns";
import type { Severity } from "./audit.server";
import { cappedCount, one } from "./capped-count.server";
import { batch, builtOncePerShape, db, type Slot } from "./db.server";

// Reading the security audit log (writing is audit.server.ts). Nobody edits it through the app.
// Who may read it is the admin module's call (authorize "auditLog"); people's e-mails come from
// the accounts module as SQL fragments over a user id column, so one batch answers the page.

export type AuditLogFilter = {
  type: string;
  severity: "all" | Severity;
  /** From this UTC day, inclusive (YYYY-MM-DD), or "". */
  from: string;
  /** To this UTC day, inclusive (YYYY-MM-DD), or "". */
  to: string;
  /** Only events whose actor or target has an e-mail containing this, or "" for all. */
  user: string;
  page: number;
  pageSize: number;
};

export type AuditLogPeople = {
  /** The e-mail of the user in a user id column (null when unknown). */
  emailOf: (userId: SQLiteColumn) => SQL<string | null>;
  /** "The user in this user id column has an e-mail containing `text`" (the filter's `user`). */
  emailContains: (userId: SQLiteColumn, text: string) => SQL;
};

export type AuditEntry = {
  id: string;
  eventType: string;
  severity: Severity;
  userId: string | null;
  targetUserId: string | null;
  actorEmail: string | null;
  targetEmail: string | null;
  ip: string | null;
  userAgent: string | null;
  path: string | null;
  details: string;
  createdAt: string;
};

/** Which filters a page has: its statements' shape (each shape is built once per isolate, 0284). */
const shapeOf = (f: AuditLogFilter) => [f.type ? "t" : "", f.severity !== "all" ? "s" : "", f.user ? "u" : "", f.from ? "f" : "", f.to ? "o" : ""].join("");

/** The filters of a shape, as SQL over slots (the values come with each request). */
function whereOf(slot: Slot, f: AuditLogFilter, people: AuditLogPeople) {
  const l = securityAuditLog;
  const conditions: (SQL | undefined)[] = [];
  if (f.type) conditions.push(eq(l.eventType, slot("type")));
  if (f.severity !== "all") conditions.push(eq(l.severity, slot("severity")));
  if (f.user) conditions.push(or(people.emailContains(l.userId, slot("user")), people.emailContains(l.targetUserId, slot("user"))));
  if (f.from) conditions.push(gte(l.createdAt, slot("from")));
  if (f.to) conditions.push(lt(l.createdAt, slot("before")));
  return and(...conditions);
}

/**
 * The page's two statements per shape of filters, built once per isolate with the values as slots
 * (db.server builtOncePerShape, 0284): building them was most of drizzle's time on /admin/audit-log.
 * `people` is the same functions on every call (the accounts module's), so a shape's SQL is too.
 */
let statements: ReturnType<typeof auditStatements> | null = null;
function auditStatements(people: AuditLogPeople) {
  const l = securityAuditLog;
  return {
    entries: builtOncePerShape(shapeOf, (slot, f: AuditLogFilter) =>
      db()
        .select({
          id: l.id,
          eventType: l.eventType,
          severity: l.severity,
          userId: l.userId,
          targetUserId: l.targetUserId,
          actorEmail: people.emailOf(l.userId),
          targetEmail: people.emailOf(l.targetUserId),
          ip: l.ip,
          userAgent: l.userAgent,
          path: l.path,
          details: l.details,
          createdAt: l.createdAt,
        })
        .from(l)
        .where(whereOf(slot, f, people))
        .orderBy(desc(l.createdAt), l.id)
        .limit(slot("limit"))
        .offset(slot("offset")),
    ),
    total: builtOncePerShape(shapeOf, (slot, f: AuditLogFilter) =>
      cappedCount(
        db()
          .select({ one: one() })
          .from(l)
          .where(whereOf(slot, f, people)),
      ),
    ),
  };
}

/** One page of events, newest first, with the total counted up to COUNT_CAP (0340) and every event type (one batch). */
export async function readAuditLog(filter: AuditLogFilter, people: AuditLogPeople) {
  statements ??= auditStatements(people);
  const values = {
    type: filter.type,
    severity: filter.severity,
    user: filter.user,
    from: `${filter.from}T00:00:00.000Z`,
    // Inclusive: the whole of the 'to' day (UTC).
    before: filter.to ? new Date(Date.parse(`${filter.to}T00:00:00Z`) + 86_400_000).toISOString() : "",
    limit: filter.pageSize,
    offset: (filter.page - 1) * filter.pageSize,
  };
  const [entries, total, types] = await batch([statements.entries(filter, values), statements.total(filter, values), eventTypesStatement()]);
  return {
    entries: entries satisfies AuditEntry[],
    total: total[0]?.n ?? 0,
    eventTypes: types.map((t) => t.eventType),
  };
}

/**
 * Every event type in the log, in order, read as a skip-scan of security_audit_log_type_idx: one
 * index seek per type (a few dozen) instead of reading the index's million entries (0340).
 */
function eventTypesStatement() {
  return db().all<{ eventType: string }>(sql`
    with recursive types(event_type) as (
      select min(event_type) from ${securityAuditLog}
      union all
      select (select min(event_type) from ${securityAuditLog} where event_type > types.event_type) from types where types.event_type is not null
    )
    select event_type as eventType from types where event_type is not null`);
}

/** Retention (docs/privacy.md): security log entries older than this are deleted by the daily job. */
export const AUDIT_RETENTION_DAYS = 365;

/** Deletes audit log entries older than AUDIT_RETENTION_DAYS (the privacy policy's 12 months). Returns how many. */
export async function purgeOldAuditEntries(now = Date.now()): Promise<number> {
  const before = new Date(now - AUDIT_RETENTION_DAYS * 86_400_000).toISOString();
  const result = await db().delete(securityAuditLog).where(lt(securityAuditLog.createdAt, before)).run();
  return result.meta.changes ?? 0;
}

/**
 * The security events about a person (as actor or target), newest first, for their data export. No
 * details (they may name others), and the address and browser only of the person's own actions:
 * where someone else acted on them (an admin's ban, export, deletion), those are the other
 * person's data (issue 40; docs/privacy.md).
 */
export function auditEventsAboutQuery(userId: string, limit = 1000) {
  const own = eq(securityAuditLog.userId, userId);
  return db()
    .select({
      ...columnsOf(securityAuditLog, "eventType", "severity"),
      byYou: sql<boolean>`coalesce(${own}, 0)`.mapWith(Boolean),
      ip: sql<string | null>`case when ${own} then ${securityAuditLog.ip} end`,
      userAgent: sql<string | null>`case when ${own} then ${securityAuditLog.userAgent} end`,
      ...columnsOf(securityAuditLog, "path", "createdAt"),
    })
    .from(securityAuditLog)
    .where(or(eq(securityAuditLog.userId, userId), eq(securityAuditLog.targetUserId, userId)))
    .orderBy(desc(securityAuditLog.createdAt))
    .limit(limit);
}

/** CSP violation reports (admins' browsers, forwarded to the log) are technical noise after this. */
export const CSP_REPORT_RETENTION_DAYS = 90;

export async function purgeOldCspReports(now = Date.now()): Promise<number> {
  const before = new Date(now - CSP_REPORT_RETENTION_DAYS * 86_400_000).toISOString();
  const result = await db()
    .delete(securityAuditLog)
    .where(and(eq(securityAuditLog.eventType, "csp_violation"), lt(securityAuditLog.createdAt, before)))
    .run();
  return result.meta.changes ?? 0;
}
