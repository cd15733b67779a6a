import type { AuditQuery, UserActionInput, UserListQuery } from "./schema";
import { auditStatement, audit } from "~/platform/audit.server";
import { safeEqual } from "~/platform/crypto.server";
import { emailStatement } from "~/platform/email.server";
import { appName, env } from "~/platform/env.server";
import { notifyAccountDecision, notifyUser } from "~/modules/notifications/notifications.server";
import { LIMITS, consume, ipScope, logRateLimitHit } from "~/platform/rate-limit.server";
import { afterSessionsEnded, endSessionsStatement, type SessionUser } from "~/modules/accounts/session.server";

// The admin console's rules: user approval, bans, roles, sessions; the audit log reader; and
// break-glass recovery. Each action takes the acting admin, checks what it may do, writes the
// change and its audit row in one D1 batch, then notifies the user.

export type Actor = Pick<SessionUser, "id" | "email">;
export type ActionResult = { ok: true; message: string } | { ok: false; status: number; message: string };

const ok = (message: string): ActionResult => ({ ok: true, message });
const refuse = (status: number, message: string): ActionResult => ({ ok: false, status, message });

export const USERS_PAGE_SIZE = 20;
export const AUDIT_PAGE_SIZE = 50;

// ---------------------------------------------------------------------------------------------
// Batch helpers
// ---------------------------------------------------------------------------------------------

const PRECONDITION = "precondition_failed";

/**
 * A statement that aborts its batch, and so rolls back every other statement in it, unless
 * `condition` holds when the batch runs. SQLite has no ASSERT outside triggers; inserting a row
 * that breaks a CHECK constraint is what makes a D1 batch conditional as a whole (see
 * docs/decisions/0021-admin-actions.md). Used where a race could otherwise remove the last
 * admin or the last manager of an agency.
 */
export function precondition(condition: string, ...binds: unknown[]): D1PreparedStatement {
  return env.DB.prepare(
    `INSERT INTO security_audit_log (id, event_type, severity) SELECT '${PRECONDITION}', '${PRECONDITION}', '${PRECONDITION}' WHERE NOT (${condition})`,
  ).bind(...binds);
}

export function isPreconditionFailure(error: unknown): boolean {
  return /CHECK constraint failed/i.test(String(error));
}

// The change is made and audited before these run; a failed notification must not turn it into
// an error. Both store the notification in D1 and push it to the user's open tabs.
async function notifyQuietly(userId: string, decision: "approved" | "rejected" | "banned" | "unbanned", reason?: string | null) {
  try {
    await notifyAccountDecision(userId, decision, reason ?? null);
  } catch (error) {
    console.error("account notification failed", error);
  }
}

export async function noticeQuietly(userId: string, title: string, content: string, createdBy: string | null, kind = "account") {
  try {
    await notifyUser(userId, { title, content, kind, createdBy });
  } catch (error) {
    console.error("notification failed", error);
  }
}

// ---------------------------------------------------------------------------------------------
// Users: list and details
// ---------------------------------------------------------------------------------------------

export type AdminUserRow = {
  id: string;
  email: string;
  full_name: string | null;
  approval_status: "pending" | "approved" | "rejected";
  is_banned: number;
  is_music_partner: number;
  is_admin: number;
  created_at: string;
  email_verified_at: string | null;
};

function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listUsers(query: UserListQuery) {
  const where: string[] = [];
  const binds: unknown[] = [];
  if (query.q) {
    where.push("(lower(u.email) LIKE ? ESCAPE '\\' OR lower(coalesce(p.full_name, '')) LIKE ? ESCAPE '\\')");
    const like = likePattern(query.q.toLowerCase());
    binds.push(like, like);
  }
  switch (query.status) {
    case "pending":
    case "approved":
    case "rejected":
      where.push("p.approval_status = ?");
      binds.push(query.status);
      break;
    case "banned":
      where.push("p.is_banned = 1");
      break;
    case "admin":
      where.push("EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin')");
      break;
  }
  const whereSql = where.length ? `WHERE ${where.join(" AND ")}` : "";
  const from = `FROM users u JOIN profiles p ON p.user_id = u.id ${whereSql}`;
  const [rows, count] = await env.DB.batch<Record<string, unknown>>([
    env.DB.prepare(
      `SELECT u.id, u.email, p.full_name, p.approval_status, p.is_banned, p.is_music_partner, u.created_at, u.email_verified_at,
              EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin') AS is_admin
       ${from} ORDER BY u.created_at DESC, u.id LIMIT ? OFFSET ?`,
    ).bind(...binds, USERS_PAGE_SIZE, (query.page - 1) * USERS_PAGE_SIZE),
    env.DB.prepare(`SELECT count(*) AS n ${from}`).bind(...binds),
  ]);
  const total = Number((count.results[0] as { n: number } | undefined)?.n ?? 0);
  return {
    users: rows.results as unknown as AdminUserRow[],
    total,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(total / USERS_PAGE_SIZE)),
  };
}

export type SignUpDetails = {
  youtube_channel_url: string | null;
  subscriber_count: number | null;
  monthly_views: number | null;
  referral_code: string | null;
  agency_slug: string | null;
  agency_name: string | null;
  wants_to_be_clipper: boolean;
  clipper_agreement_accepted: boolean;
};

function signUpDetails(raw: string): SignUpDetails {
  let m: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (parsed && typeof parsed === "object") m = parsed as Record<string, unknown>;
  } catch {
    // shown as empty
  }
  const str = (k: string) => (typeof m[k] === "string" && m[k] ? String(m[k]) : null);
  const num = (k: string) => (typeof m[k] === "number" ? (m[k] as number) : typeof m[k] === "string" && /^\d+$/.test(m[k] as string) ? Number(m[k]) : null);
  return {
    youtube_channel_url: str("youtube_channel_url"),
    subscriber_count: num("subscriber_count"),
    monthly_views: num("monthly_views"),
    referral_code: str("referral_code"),
    agency_slug: str("agency_slug"),
    agency_name: str("agency_name"),
    wants_to_be_clipper: m.wants_to_be_clipper === true,
    clipper_agreement_accepted: m.clipper_agreement_accepted === true,
  };
}

export async function getUserDetails(userId: string) {
  const row = await env.DB.prepare(
    `SELECT u.id, u.email, u.email_verified_at, u.user_metadata, u.created_at,
            p.full_name, p.creator_id, p.approval_status, p.rejection_reason, p.is_banned, p.ban_reason, p.is_music_partner,
            p.artist_name, p.catalogue_url, p.last_sign_in_at,
            a.name AS agency_name, a.slug AS agency_slug, ref.email AS referred_by_email,
            EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin') AS is_admin,
            (SELECT count(*) FROM sessions s WHERE s.user_id = u.id AND s.expires_at > ?) AS session_count
     FROM users u JOIN profiles p ON p.user_id = u.id
     LEFT JOIN agencies a ON a.id = p.agency_id
     LEFT JOIN users ref ON ref.id = p.referred_by
     WHERE u.id = ?`,
  )
    .bind(new Date().toISOString(), userId)
    .first<{
      id: string;
      email: string;
      email_verified_at: string | null;
      user_metadata: string;
      created_at: string;
      full_name: string | null;
      creator_id: string;
      approval_status: "pending" | "approved" | "rejected";
      rejection_reason: string | null;
      is_banned: number;
      ban_reason: string | null;
      is_music_partner: number;
      artist_name: string | null;
      catalogue_url: string | null;
      last_sign_in_at: string | null;
      agency_name: string | null;
      agency_slug: string | null;
      referred_by_email: string | null;
      is_admin: number;
      session_count: number;
    }>();
  if (!row) return null;
  const { user_metadata, ...rest } = row;
  return { ...rest, signUp: signUpDetails(user_metadata) };
}
export type AdminUserDetails = NonNullable<Awaited<ReturnType<typeof getUserDetails>>>;

// ---------------------------------------------------------------------------------------------
// Users: actions
// ---------------------------------------------------------------------------------------------

type Target = {
  id: string;
  email: string;
  full_name: string | null;
  approval_status: string;
  is_banned: number;
  is_music_partner: number;
  is_admin: number;
};

async function loadTarget(userId: string): Promise<Target | null> {
  return env.DB.prepare(
    `SELECT u.id, u.email, p.full_name, p.approval_status, p.is_banned, p.is_music_partner,
            EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin') AS is_admin
     FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = ?`,
  )
    .bind(userId)
    .first<Target>();
}

const NOT_FOUND = refuse(404, "User not found.");
const nameOf = (t: Target) => t.full_name || t.email;
const greeting = (t: Target) => `Hi ${t.full_name || "there"},`;

/** Another admin who is not banned remains besides `targetId` (SQL, binds: targetId). */
const ANOTHER_ADMIN_REMAINS = `(SELECT count(*) FROM user_roles r JOIN profiles p ON p.user_id = r.user_id
  WHERE r.role = 'admin' AND p.is_banned = 0 AND r.user_id != ?) >= 1`;
/** The actor still is an admin when the batch runs (binds: actorId). */
const ACTOR_IS_ADMIN = `EXISTS (SELECT 1 FROM user_roles WHERE user_id = ? AND role = 'admin')`;

export async function approveUser(actor: Actor, userId: string, request: Request): Promise<ActionResult> {
  const target = await loadTarget(userId);
  if (!target) return NOT_FOUND;
  if (target.approval_status === "approved") return refuse(409, `${nameOf(target)} is already approved.`);
  const now = new Date().toISOString();
  const origin = new URL(request.url).origin;
  await env.DB.batch([
    env.DB.prepare("UPDATE profiles SET approval_status = 'approved', rejection_reason = NULL, updated_at = ? WHERE user_id = ?").bind(
      now,
      userId,
    ),
    emailStatement({
      to: target.email,
      kind: "account_approved",
      subject: `Your ${appName()} account is approved`,
      text: `${greeting(target)}\n\nGood news: your ${appName()} account has been approved. Sign in to get started:\n${origin}/auth\n`,
    }),
    auditStatement({
      eventType: "user_approved",
      severity: "medium",
      userId: actor.id,
      targetUserId: userId,
      request,
      details: { previous_status: target.approval_status },
    }),
  ]);
  await notifyQuietly(userId, "approved");
  return ok(`${nameOf(target)} is approved.`);
}

export async function rejectUser(actor: Actor, userId: string, reason: string, request: Request): Promise<ActionResult> {
  const target = await loadTarget(userId);
  if (!target) return NOT_FOUND;
  if (target.id === actor.id) return refuse(400, "You cannot reject your own account.");
  if (target.approval_status === "rejected") return refuse(409, `${nameOf(target)} is already rejected.`);
  const now = new Date().toISOString();
  await env.DB.batch([
    env.DB.prepare("UPDATE profiles SET approval_status = 'rejected', rejection_reason = ?, updated_at = ? WHERE user_id = ?").bind(
      reason,
      now,
      userId,
    ),
    emailStatement({
      to: target.email,
      kind: "account_rejected",
      subject: `Your ${appName()} application`,
      text: `${greeting(target)}\n\nWe have reviewed your ${appName()} account and cannot approve it at this time.\n\nReason: ${reason}\n\nYou can reply to this message if you think this is a mistake.`,
    }),
    auditStatement({
      eventType: "user_rejected",
      severity: "medium",
      userId: actor.id,
      targetUserId: userId,
      request,
      details: { previous_status: target.approval_status, reason },
    }),
  ]);
  await notifyQuietly(userId, "rejected", reason);
  return ok(`${nameOf(target)} is rejected.`);
}

export async function banUser(actor: Actor, userId: string, reason: string, request: Request): Promise<ActionResult> {
  if (userId === actor.id) return refuse(400, "You cannot ban yourself.");
  const target = await loadTarget(userId);
  if (!target) return NOT_FOUND;
  if (target.is_banned) return refuse(409, `${nameOf(target)} is already banned.`);
  const now = new Date().toISOString();
  try {
    await env.DB.batch([
      // Banning an admin must leave another active admin (and the actor must still be one).
      precondition(`${ACTOR_IS_ADMIN} AND (NOT EXISTS (SELECT 1 FROM user_roles WHERE user_id = ? AND role = 'admin') OR ${ANOTHER_ADMIN_REMAINS})`, actor.id, userId, userId),
      env.DB.prepare("UPDATE profiles SET is_banned = 1, ban_reason = ?, updated_at = ? WHERE user_id = ?").bind(reason, now, userId),
      endSessionsStatement(userId),
      emailStatement({
        to: target.email,
        kind: "account_banned",
        subject: `Your ${appName()} account has been banned`,
        text: `${greeting(target)}\n\nYour ${appName()} account has been banned and you have been signed out.\n\nReason: ${reason}\n\nYou can reply to this message if you think this is a mistake.`,
      }),
      auditStatement({
        eventType: "user_banned",
        severity: "high",
        userId: actor.id,
        targetUserId: userId,
        request,
        details: { reason },
      }),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) return refuse(409, "You cannot remove the last admin.");
    throw error;
  }
  // The open tabs hear 'banned' first (they sign out), then their sockets close.
  await notifyQuietly(userId, "banned", reason);
  await afterSessionsEnded(userId);
  return ok(`${nameOf(target)} is banned and signed out everywhere.`);
}

export async function unbanUser(actor: Actor, userId: string, reason: string, request: Request): Promise<ActionResult> {
  const target = await loadTarget(userId);
  if (!target) return NOT_FOUND;
  if (!target.is_banned) return refuse(409, `${nameOf(target)} is not banned.`);
  const now = new Date().toISOString();
  await env.DB.batch([
    env.DB.prepare("UPDATE profiles SET is_banned = 0, ban_reason = NULL, updated_at = ? WHERE user_id = ?").bind(now, userId),
    emailStatement({
      to: target.email,
      kind: "account_unbanned",
      subject: `Your ${appName()} account is active again`,
      text: `${greeting(target)}\n\nThe ban on your ${appName()} account has been lifted. You can sign in again at ${new URL(request.url).origin}/auth\n\nNote: ${reason}`,
    }),
    auditStatement({
      eventType: "user_unbanned",
      severity: "medium",
      userId: actor.id,
      targetUserId: userId,
      request,
      details: { reason },
    }),
  ]);
  await notifyQuietly(userId, "unbanned", reason);
  return ok(`${nameOf(target)} is no longer banned.`);
}

export async function toggleMusicPartner(actor: Actor, userId: string, request: Request): Promise<ActionResult> {
  const target = await loadTarget(userId);
  if (!target) return NOT_FOUND;
  const next = target.is_music_partner ? 0 : 1;
  await env.DB.batch([
    env.DB.prepare("UPDATE profiles SET is_music_partner = ?, updated_at = ? WHERE user_id = ?").bind(next, new Date().toISOString(), userId),
    auditStatement({
      eventType: next ? "music_partner_granted" : "music_partner_revoked",
      severity: "medium",
      userId: actor.id,
      targetUserId: userId,
      request,
    }),
  ]);
  await noticeQuietly(
    userId,
    next ? "You are now a music partner" : "Music partner access removed",
    next
      ? "You can now submit music under Submit Music and follow it under Music Submissions."
      : "Your music partner access has been removed by an admin.",
    actor.id,
  );
  return ok(next ? `${nameOf(target)} is now a music partner.` : `${nameOf(target)} is no longer a music partner.`);
}

export async function grantAdmin(actor: Actor, userId: string, request: Request): Promise<ActionResult> {
  const target = await loadTarget(userId);
  if (!target) return NOT_FOUND;
  if (target.is_admin) return refuse(409, `${nameOf(target)} is already an admin.`);
  if (target.is_banned) return refuse(409, "Lift the ban before granting admin.");
  await env.DB.batch([
    env.DB.prepare("INSERT OR IGNORE INTO user_roles (id, user_id, role) VALUES (?, ?, 'admin')").bind(crypto.randomUUID(), userId),
    // A role change ends the user's sessions (SECURITY.md): the next sign-in carries the new role.
    endSessionsStatement(userId),
    auditStatement({ eventType: "admin_role_granted", severity: "high", userId: actor.id, targetUserId: userId, request }),
  ]);
  await afterSessionsEnded(userId);
  await noticeQuietly(userId, "You are now an admin", "An admin gave you access to the admin console. Sign in again to use it.", actor.id);
  return ok(`${nameOf(target)} is now an admin.`);
}

export async function revokeAdmin(actor: Actor, userId: string, request: Request): Promise<ActionResult> {
  if (userId === actor.id) return refuse(400, "You cannot remove your own admin role.");
  const target = await loadTarget(userId);
  if (!target) return NOT_FOUND;
  if (!target.is_admin) return refuse(409, `${nameOf(target)} is not an admin.`);
  try {
    await env.DB.batch([
      precondition(`${ACTOR_IS_ADMIN} AND ${ANOTHER_ADMIN_REMAINS}`, actor.id, userId),
      env.DB.prepare("DELETE FROM user_roles WHERE user_id = ? AND role = 'admin'").bind(userId),
      endSessionsStatement(userId),
      auditStatement({ eventType: "admin_role_revoked", severity: "high", userId: actor.id, targetUserId: userId, request }),
    ]);
  } catch (error) {
    if (isPreconditionFailure(error)) return refuse(409, "You cannot remove the last admin.");
    throw error;
  }
  await afterSessionsEnded(userId);
  await noticeQuietly(userId, "Admin access removed", "Your admin role has been removed by another admin.", actor.id);
  return ok(`${nameOf(target)} is no longer an admin.`);
}

export async function endUserSessions(actor: Actor, userId: string, request: Request): Promise<ActionResult> {
  const target = await loadTarget(userId);
  if (!target) return NOT_FOUND;
  await env.DB.batch([
    endSessionsStatement(userId),
    auditStatement({ eventType: "sessions_ended_by_admin", severity: "medium", userId: actor.id, targetUserId: userId, request }),
  ]);
  await afterSessionsEnded(userId);
  await noticeQuietly(userId, "You were signed out", "An admin ended your sessions on every device. Sign in again to continue.", actor.id);
  return ok(`${nameOf(target)} is signed out everywhere.`);
}

/** One entry point for the /admin action. */
export async function performUserAction(actor: Actor, input: UserActionInput, request: Request): Promise<ActionResult> {
  switch (input.intent) {
    case "approve":
      return approveUser(actor, input.userId, request);
    case "reject":
      return rejectUser(actor, input.userId, input.reason, request);
    case "ban":
      return banUser(actor, input.userId, input.reason, request);
    case "unban":
      return unbanUser(actor, input.userId, input.reason, request);
    case "toggle_music_partner":
      return toggleMusicPartner(actor, input.userId, request);
    case "grant_admin":
      return grantAdmin(actor, input.userId, request);
    case "revoke_admin":
      return revokeAdmin(actor, input.userId, request);
    case "end_sessions":
      return endUserSessions(actor, input.userId, request);
  }
}

// ---------------------------------------------------------------------------------------------
// Security audit log (read-only)
// ---------------------------------------------------------------------------------------------

export type AuditRow = {
  id: string;
  event_type: string;
  severity: "low" | "medium" | "high" | "critical";
  user_id: string | null;
  target_user_id: string | null;
  actor_email: string | null;
  target_email: string | null;
  ip: string | null;
  user_agent: string | null;
  path: string | null;
  details: string;
  created_at: string;
};

export async function listAuditLog(query: AuditQuery) {
  const where: string[] = ["1 = 1"];
  const binds: unknown[] = [];
  if (query.type) {
    where.push("l.event_type = ?");
    binds.push(query.type);
  }
  if (query.severity !== "all") {
    where.push("l.severity = ?");
    binds.push(query.severity);
  }
  if (query.user) {
    where.push("(lower(ua.email) LIKE ? ESCAPE '\\' OR lower(ut.email) LIKE ? ESCAPE '\\')");
    const like = likePattern(query.user);
    binds.push(like, like);
  }
  if (query.from) {
    where.push("l.created_at >= ?");
    binds.push(`${query.from}T00:00:00.000Z`);
  }
  if (query.to) {
    // Inclusive: the whole of the 'to' day (UTC).
    where.push("l.created_at < ?");
    binds.push(new Date(Date.parse(`${query.to}T00:00:00Z`) + 86_400_000).toISOString());
  }
  const from = `FROM security_audit_log l LEFT JOIN users ua ON ua.id = l.user_id LEFT JOIN users ut ON ut.id = l.target_user_id
    WHERE ${where.join(" AND ")}`;
  const [rows, count, types] = await env.DB.batch<Record<string, unknown>>([
    env.DB.prepare(
      `SELECT l.id, l.event_type, l.severity, l.user_id, l.target_user_id, ua.email AS actor_email, ut.email AS target_email,
              l.ip, l.user_agent, l.path, l.details, l.created_at
       ${from} ORDER BY l.created_at DESC, l.id LIMIT ? OFFSET ?`,
    ).bind(...binds, AUDIT_PAGE_SIZE, (query.page - 1) * AUDIT_PAGE_SIZE),
    env.DB.prepare(`SELECT count(*) AS n ${from}`).bind(...binds),
    env.DB.prepare("SELECT DISTINCT event_type FROM security_audit_log ORDER BY event_type"),
  ]);
  const total = Number((count.results[0] as { n: number } | undefined)?.n ?? 0);
  return {
    entries: rows.results as unknown as AuditRow[],
    total,
    page: query.page,
    pageCount: Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE)),
    eventTypes: (types.results as { event_type: string }[]).map((t) => t.event_type),
  };
}

// ---------------------------------------------------------------------------------------------
// Break-glass recovery
// ---------------------------------------------------------------------------------------------

/** The one answer /admin-recovery gives, whatever happened (it must reveal nothing). */
export const RECOVERY_ANSWER =
  "If the recovery secret and the e-mail address are both correct, that account now has admin access. Sign in to continue.";

/** Below this length a configured secret is treated as unset: recovery stays closed. */
export const RECOVERY_SECRET_MIN = 16;

export type RecoveryResult =
  | { ok: true }
  | { ok: false; limited: true; retryAfterSeconds: number };

/**
 * The deployment's recovery secret plus an existing account's e-mail grants admin. Rate-limited
 * per connecting address, logged as a critical event either way, and answered the same way
 * whether the secret was wrong, the e-mail unknown, or the grant made.
 */
export async function recoverAdmin(request: Request, email: string, secret: string): Promise<RecoveryResult> {
  const limit = await consume("admin-recovery", ipScope(request), LIMITS.generic);
  if (!limit.allowed) {
    await logRateLimitHit(request, "admin-recovery");
    return { ok: false, limited: true, retryAfterSeconds: limit.retryAfterSeconds };
  }
  const configured = env.ADMIN_RECOVERY_SECRET ?? "";
  // Look the account up on every path, so a wrong secret and a right one take the same work.
  const user = await env.DB.prepare(
    `SELECT u.id, EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin') AS is_admin
     FROM users u WHERE u.email = ?`,
  )
    .bind(email)
    .first<{ id: string; is_admin: number }>();
  const secretOk = configured.length >= RECOVERY_SECRET_MIN && safeEqual(secret, configured);

  if (!secretOk || !user) {
    await audit({
      eventType: "admin_recovery_failed",
      severity: "critical",
      targetUserId: user?.id ?? null,
      request,
      details: {
        reason: !secretOk ? (configured.length < RECOVERY_SECRET_MIN ? "recovery_disabled" : "wrong_secret") : "unknown_account",
        email,
      },
    });
    return { ok: true };
  }

  await env.DB.batch([
    env.DB.prepare("INSERT OR IGNORE INTO user_roles (id, user_id, role) VALUES (?, ?, 'admin')").bind(crypto.randomUUID(), user.id),
    // A role change ends the account's sessions; the person signs in again with the new role.
    endSessionsStatement(user.id),
    emailStatement({
      to: email,
      kind: "admin_recovery",
      subject: `Admin access granted on ${appName()}`,
      text: `Admin access to ${appName()} was granted to this account through the recovery page (${new URL(request.url).origin}/admin-recovery).\n\nIf this was not you or your team, the deployment's recovery secret is known to someone else: rotate ADMIN_RECOVERY_SECRET and review the admins at once.`,
    }),
    auditStatement({
      eventType: "admin_recovery_granted",
      severity: "critical",
      userId: user.id,
      targetUserId: user.id,
      request,
      details: { email, already_admin: user.is_admin === 1 },
    }),
  ]);
  await afterSessionsEnded(user.id);
  return { ok: true };
}

/**
 * Where an action sends the browser back to: the page it was posted from (also for `.data`
 * requests), with some query parameters changed (null removes one).
 */
export function pageUrl(request: Request, changes: Record<string, string | null> = {}): string {
  const url = new URL(request.url);
  const pathname = url.pathname.replace(/\.data$/, "").replace(/\/_root$/, "/") || "/";
  const params = new URLSearchParams(url.search);
  params.delete("_routes");
  params.delete("index");
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === "") params.delete(k);
    else params.set(k, v);
  }
  const qs = params.toString();
  return qs ? `${pathname}?${qs}` : pathname;
}
