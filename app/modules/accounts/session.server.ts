import { and, count, desc, eq, ne, sql } from "drizzle-orm";
import type { RouterContextProvider } from "react-router";
import { profiles, sessions, userNotifications, users } from "~/db/schema";
import { authorize } from "~/lib/permissions";
import { managesActiveAgency } from "~/modules/agencies/agencies.server";
import { audit } from "~/platform/audit.server";
import { requestContext } from "~/platform/context.server";
import { readCookie, serializeCookie } from "~/platform/cookies.server";
import { randomToken, sha256Hex } from "~/platform/crypto.server";
import { db } from "~/platform/db.server";
import { userNotifier } from "~/platform/realtime.server";
import { clientIp, userAgent } from "~/platform/request-info.server";
import { isSecureRequest } from "~/platform/toast.server";
import { actorOf, isAdminUser } from "./directory.server";

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

/**
 * The one session query (docs/decisions/0004): session, user, profile, admin role, active-agency
 * membership and unread count in one round trip on every signed-in request. It reads the
 * notifications domain's user_notifications directly (the allowed cross-read listed in
 * tests/unit/architecture.test.ts); the role and agency conditions are their owners' predicates.
 */
function sessionQuery(sessionId: string) {
  const unread = db()
    .select({ n: count() })
    .from(userNotifications)
    .where(and(eq(userNotifications.userId, users.id), eq(userNotifications.isRead, false)));
  return db()
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      absoluteExpiresAt: sessions.absoluteExpiresAt,
      lastSeenAt: sessions.lastSeenAt,
      id: users.id,
      email: users.email,
      emailVerifiedAt: users.emailVerifiedAt,
      userMetadata: users.userMetadata,
      fullName: profiles.fullName,
      avatarUrl: profiles.avatarUrl,
      creatorId: profiles.creatorId,
      approvalStatus: profiles.approvalStatus,
      isBanned: profiles.isBanned,
      banReason: profiles.banReason,
      isMusicPartner: profiles.isMusicPartner,
      isAdmin: sql<boolean>`${isAdminUser(users.id)}`.mapWith(Boolean),
      hasActiveAgency: sql<boolean>`${managesActiveAgency(users.id)}`.mapWith(Boolean),
      unreadCount: sql<number>`${unread}`.mapWith(Number),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(sessions.id, sessionId));
}

type SessionRow = NonNullable<Awaited<ReturnType<ReturnType<typeof sessionQuery>["get"]>>>;

function toUser({ emailVerifiedAt, userMetadata, ...row }: SessionRow): SessionUser {
  let metadataFullName: string | null = null;
  try {
    const meta = JSON.parse(userMetadata) as { full_name?: unknown };
    metadataFullName = typeof meta.full_name === "string" ? meta.full_name : null;
  } catch {
    // metadata is informational; a bad row must not break sign-in
  }
  return { ...row, emailVerified: emailVerifiedAt !== null, metadataFullName };
}

/** Looks the session up by token; extends it when due. Null when absent or expired. */
export async function validateSessionToken(token: string, now = Date.now()): Promise<SessionUser | null> {
  const id = sha256Hex(token);
  const row = await sessionQuery(id).get();
  if (!row) return null;
  const absolute = Date.parse(row.absoluteExpiresAt);
  if (now >= Date.parse(row.expiresAt) || now >= absolute) {
    await db().delete(sessions).where(eq(sessions.id, id)).run();
    return null;
  }
  const user = toUser(row);
  if (now - Date.parse(row.lastSeenAt) > SESSION_TOUCH_MS) {
    user.expiresAt = new Date(Math.min(now + SESSION_IDLE_MS, absolute)).toISOString();
    user.lastSeenAt = new Date(now).toISOString();
    await db().update(sessions).set({ expiresAt: user.expiresAt, lastSeenAt: user.lastSeenAt }).where(eq(sessions.id, id)).run();
  }
  return user;
}

/** The signed-in user of this request (memoized per request: one session query), or null. */
export function getSessionUser(request: Request, context: Readonly<RouterContextProvider>): Promise<SessionUser | null> {
  const rc = context.get(requestContext);
  if (!rc.session) {
    const token = readCookie(request, sessionCookieName(request));
    rc.session = token && token.length <= 128 ? validateSessionToken(token) : Promise.resolve(null);
  }
  // Only this function stores it, always as a SessionUser.
  return rc.session as Promise<SessionUser | null>;
}

/** Creates a fresh session (a new token on every sign-in) and returns its Set-Cookie header. */
export async function createSession(request: Request, userId: string, now = Date.now()): Promise<string> {
  const token = randomToken();
  const at = new Date(now).toISOString();
  await db().batch([
    db()
      .insert(sessions)
      .values({
        id: sha256Hex(token),
        userId,
        expiresAt: new Date(now + SESSION_IDLE_MS).toISOString(),
        absoluteExpiresAt: new Date(now + SESSION_ABSOLUTE_MS).toISOString(),
        lastSeenAt: at,
        userAgent: userAgent(request),
        ip: clientIp(request),
      }),
    db().update(profiles).set({ lastSignInAt: at }).where(eq(profiles.userId, userId)),
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
  if (token)
    await db()
      .delete(sessions)
      .where(eq(sessions.id, sha256Hex(token)))
      .run();
}

/** Query (not executed) ending every session of a user (optionally all but one), for batches. */
export function endSessionsQuery(userId: string, exceptSessionId?: string) {
  return db()
    .delete(sessions)
    .where(exceptSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, exceptSessionId)) : eq(sessions.userId, userId));
}

/**
 * Ends every session of a user and closes their open sockets. Called on password change and
 * reset, ban, role change and by admins.
 */
export async function endAllSessions(userId: string, exceptSessionId?: string): Promise<void> {
  await endSessionsQuery(userId, exceptSessionId).run();
  await afterSessionsEnded(userId);
}

/** Hook for the realtime layer: sockets of ended sessions are closed. */
export async function afterSessionsEnded(userId: string): Promise<void> {
  try {
    await userNotifier(userId).closeEndedSessions();
  } catch (error) {
    console.error("closing sockets failed", error);
  }
}

/** 'Sign out other sessions': every session of the user but this one ends, and their sockets close. */
export async function endOtherSessions(request: Request, user: SessionUser): Promise<void> {
  authorize(actorOf(user), "account", "endSession", { ownerId: user.id });
  await endAllSessions(user.id, user.sessionId);
  await audit({ eventType: "sessions_ended", userId: user.id, targetUserId: user.id, request, details: { scope: "others" } });
}

/** Ends one of the user's other sessions, named by the first 12 hex digits of its stored id. */
export async function endSessionByPrefix(user: SessionUser, prefix: string): Promise<void> {
  authorize(actorOf(user), "account", "endSession", { ownerId: user.id });
  await db()
    .delete(sessions)
    .where(and(eq(sessions.userId, user.id), sql`substr(${sessions.id}, 1, 12) = ${prefix}`, ne(sessions.id, user.sessionId)))
    .run();
}

export type SessionSummary = {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  userAgent: string | null;
  ip: string | null;
};

/** The user's sessions, most recently used first. */
export async function listSessions(userId: string): Promise<SessionSummary[]> {
  return db()
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.lastSeenAt))
    .all();
}
