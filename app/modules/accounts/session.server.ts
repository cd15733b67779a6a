import type { RouterContextProvider } from "react-router";
import { requestContext } from "~/platform/context.server";
import { readCookie, serializeCookie } from "~/platform/cookies.server";
import { randomToken, sha256Hex } from "~/platform/crypto.server";
import { env } from "~/platform/env.server";
import { clientIp, userAgent } from "~/platform/request-info.server";
import { isSecureRequest } from "~/platform/toast.server";

// Sessions live in D1. The cookie carries a random 160-bit token; D1 stores only its SHA-256.
// Sliding expiry: a session idle for 7 days ends; none lives past 30 days. See
// docs/decisions/0004-sessions-and-passwords.md.
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** How stale last_seen_at may get before a request extends the session (one write per hour). */
export const SESSION_TOUCH_MS = 60 * 60 * 1000;

export function sessionCookieName(request: Request): string {
  // The __Host- prefix needs Secure, which plain-http localhost cannot have.
  return isSecureRequest(request) ? "__Host-sb_session" : "sb_session";
}

export type SessionUser = {
  sessionId: string;
  id: string;
  email: string;
  emailVerified: boolean;
  fullName: string | null;
  metadataFullName: string | null;
  avatarUrl: string | null;
  creatorId: string;
  approvalStatus: "pending" | "approved" | "rejected";
  isBanned: boolean;
  banReason: string | null;
  isMusicPartner: boolean;
  isAdmin: boolean;
  hasActiveAgency: boolean;
  unreadCount: number;
  expiresAt: string;
  lastSeenAt: string;
  absoluteExpiresAt: string;
};

type Row = {
  session_id: string;
  expires_at: string;
  absolute_expires_at: string;
  last_seen_at: string;
  id: string;
  email: string;
  email_verified_at: string | null;
  user_metadata: string;
  full_name: string | null;
  avatar_url: string | null;
  creator_id: string;
  approval_status: SessionUser["approvalStatus"];
  is_banned: number;
  ban_reason: string | null;
  is_music_partner: number;
  is_admin: number;
  has_active_agency: number;
  unread_count: number;
};

// One round trip: session, user, profile, role, agency membership and unread count.
const SESSION_QUERY = `
SELECT s.id AS session_id, s.expires_at, s.absolute_expires_at, s.last_seen_at,
       u.id, u.email, u.email_verified_at, u.user_metadata,
       p.full_name, p.avatar_url, p.creator_id, p.approval_status, p.is_banned, p.ban_reason, p.is_music_partner,
       EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin') AS is_admin,
       (EXISTS (SELECT 1 FROM agency_users au JOIN agencies a ON a.id = au.agency_id
                 WHERE au.user_id = u.id AND a.approval_status = 'approved' AND a.status = 'active')
        OR EXISTS (SELECT 1 FROM agencies a WHERE a.user_id = u.id AND a.approval_status = 'approved' AND a.status = 'active'))
         AS has_active_agency,
       (SELECT count(*) FROM user_notifications n WHERE n.user_id = u.id AND n.is_read = 0) AS unread_count
FROM sessions s
JOIN users u ON u.id = s.user_id
JOIN profiles p ON p.user_id = u.id
WHERE s.id = ?`;

function toUser(row: Row): SessionUser {
  let metadataFullName: string | null = null;
  try {
    const meta = JSON.parse(row.user_metadata) as { full_name?: unknown };
    metadataFullName = typeof meta.full_name === "string" ? meta.full_name : null;
  } catch {
    // metadata is informational; a bad row must not break sign-in
  }
  return {
    sessionId: row.session_id,
    id: row.id,
    email: row.email,
    emailVerified: row.email_verified_at !== null,
    fullName: row.full_name,
    metadataFullName,
    avatarUrl: row.avatar_url,
    creatorId: row.creator_id,
    approvalStatus: row.approval_status,
    isBanned: row.is_banned === 1,
    banReason: row.ban_reason,
    isMusicPartner: row.is_music_partner === 1,
    isAdmin: row.is_admin === 1,
    hasActiveAgency: row.has_active_agency === 1,
    unreadCount: row.unread_count,
    expiresAt: row.expires_at,
    lastSeenAt: row.last_seen_at,
    absoluteExpiresAt: row.absolute_expires_at,
  };
}

/** Looks the session up by token; extends it when due. Null when absent or expired. */
export async function validateSessionToken(token: string, now = Date.now()): Promise<SessionUser | null> {
  const id = sha256Hex(token);
  const row = await env.DB.prepare(SESSION_QUERY).bind(id).first<Row>();
  if (!row) return null;
  const expires = Date.parse(row.expires_at);
  const absolute = Date.parse(row.absolute_expires_at);
  if (now >= expires || now >= absolute) {
    await env.DB.prepare("DELETE FROM sessions WHERE id = ?").bind(id).run();
    return null;
  }
  const user = toUser(row);
  if (now - Date.parse(row.last_seen_at) > SESSION_TOUCH_MS) {
    const newExpiry = new Date(Math.min(now + SESSION_IDLE_MS, absolute)).toISOString();
    const touched = new Date(now).toISOString();
    user.expiresAt = newExpiry;
    user.lastSeenAt = touched;
    await env.DB.prepare("UPDATE sessions SET expires_at = ?, last_seen_at = ? WHERE id = ?")
      .bind(newExpiry, touched, id)
      .run();
  }
  return user;
}

/** The signed-in user of this request (memoized per request), or null. */
export function getSessionUser(request: Request, context: Readonly<RouterContextProvider>): Promise<SessionUser | null> {
  const rc = context.get(requestContext);
  if (!rc.session) {
    const token = readCookie(request, sessionCookieName(request));
    rc.session = token && token.length <= 128 ? validateSessionToken(token) : Promise.resolve(null);
  }
  return rc.session;
}

/** Creates a fresh session (a new token on every sign-in) and returns its Set-Cookie header. */
export async function createSession(request: Request, userId: string, now = Date.now()): Promise<string> {
  const token = randomToken();
  const id = sha256Hex(token);
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO sessions (id, user_id, expires_at, absolute_expires_at, last_seen_at, user_agent, ip)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).bind(
      id,
      userId,
      new Date(now + SESSION_IDLE_MS).toISOString(),
      new Date(now + SESSION_ABSOLUTE_MS).toISOString(),
      new Date(now).toISOString(),
      userAgent(request),
      clientIp(request),
    ),
    env.DB.prepare("UPDATE profiles SET last_sign_in_at = ? WHERE user_id = ?").bind(new Date(now).toISOString(), userId),
  ]);
  return sessionCookie(request, token, SESSION_ABSOLUTE_MS / 1000);
}

export function sessionCookie(request: Request, token: string, maxAgeSeconds: number): string {
  return serializeCookie(sessionCookieName(request), token, {
    maxAge: maxAgeSeconds,
    httpOnly: true,
    secure: isSecureRequest(request),
    sameSite: "Lax",
  });
}

export function clearSessionCookie(request: Request): string {
  return sessionCookie(request, "", 0);
}

/** Ends the session this request carries (if any). */
export async function endCurrentSession(request: Request): Promise<void> {
  const token = readCookie(request, sessionCookieName(request));
  if (token) await env.DB.prepare("DELETE FROM sessions WHERE id = ?").bind(sha256Hex(token)).run();
}

/** Statement ending every session of a user (optionally all but one), for batches. */
export function endSessionsStatement(userId: string, exceptSessionId?: string): D1PreparedStatement {
  return exceptSessionId
    ? env.DB.prepare("DELETE FROM sessions WHERE user_id = ? AND id != ?").bind(userId, exceptSessionId)
    : env.DB.prepare("DELETE FROM sessions WHERE user_id = ?").bind(userId);
}

/**
 * Ends every session of a user and closes their open sockets. Called on password change and
 * reset, ban, role change and by admins.
 */
export async function endAllSessions(userId: string, exceptSessionId?: string): Promise<void> {
  await endSessionsStatement(userId, exceptSessionId).run();
  await afterSessionsEnded(userId);
}

/** Hook for the realtime layer: sockets of ended sessions are closed. */
export async function afterSessionsEnded(userId: string): Promise<void> {
  try {
    const stub = env.USER_NOTIFIER.get(env.USER_NOTIFIER.idFromName(userId));
    await stub.fetch("https://notifier/sessions-ended", { method: "POST" });
  } catch (error) {
    console.error("closing sockets failed", error);
  }
}

export async function listSessions(userId: string) {
  const { results } = await env.DB.prepare(
    `SELECT id, created_at, last_seen_at, expires_at, user_agent, ip FROM sessions WHERE user_id = ? ORDER BY last_seen_at DESC`,
  )
    .bind(userId)
    .all<{ id: string; created_at: string; last_seen_at: string; expires_at: string; user_agent: string | null; ip: string | null }>();
  return results;
}
