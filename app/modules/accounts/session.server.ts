import { and, count, eq, exists, gt, isNull, lt, ne, type Placeholder, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { BatchItem } from "drizzle-orm/batch";
import { endedSessions, profiles, SESSION_END_REASONS, sessions, userNotifications, users } from "~/db/schema";
import { authorize } from "~/lib/permissions";
import { fact, statementsFor, tell } from "~/platform/account-hooks.server";
import { auditQuery } from "~/platform/audit.server";
import { randomToken, sha256Hex } from "~/platform/crypto.server";
import { type BatchEntry, batch, builtOnce, db, type Slot } from "~/platform/db.server";
import { userNotifier } from "~/platform/realtime.server";
import { clientIp, userAgent } from "~/platform/request-info.server";
import { actorOf, isAdminUser } from "./directory.server";
import { sessionCookie } from "./session-cookie.server";

// Sessions live in D1. The cookie carries a random 160-bit token; D1 stores only its SHA-256.
// Sliding expiry: a session idle for 7 days ends; none lives past 30 days. See
// docs/decisions/0004-sessions-and-passwords.md. The cookie is in session-cookie.server.ts, a
// request's own lookup (memoized, with the statements riding along) in session-request.server.ts;
// every way a session ends stays here, the only code that deletes session rows.
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** How stale last_seen_at may get before a request extends the session (one write per hour). */
export const SESSION_TOUCH_MS = 60 * 60 * 1000;

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
  /** Set while the account waits out its deletion grace period (docs/decisions/0213): the guards send it to /account-deletion. */
  deletionDueAt: string | null;
  /** A Google sign-up that has not given its sign-up details yet (docs/decisions/0324): the guards send it to /auth/finish-sign-up. */
  signUpDetailsMissing: boolean;
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
function sessionSelect(sessionId: string) {
  const unread = db()
    .select({ n: count() })
    .from(userNotifications)
    .where(and(eq(userNotifications.userId, users.id), eq(userNotifications.isRead, false)));
  return db()
    .select({
      // Named apart from users.id: in a D1 batch, drizzle reads rows by column name, and two
      // columns called "id" would collapse into one (alongsideSession).
      sessionId: sql<string>`${sessions.id}`.as("session_id"),
      expiresAt: sessions.expiresAt,
      absoluteExpiresAt: sessions.absoluteExpiresAt,
      lastSeenAt: sessions.lastSeenAt,
      id: users.id,
      email: users.email,
      emailVerifiedAt: users.emailVerifiedAt,
      userMetadata: users.userMetadata,
      deletionDueAt: users.deletionDueAt,
      fullName: profiles.fullName,
      avatarUrl: profiles.avatarUrl,
      creatorId: profiles.creatorId,
      approvalStatus: profiles.approvalStatus,
      isBanned: profiles.isBanned,
      banReason: profiles.banReason,
      isMusicPartner: profiles.isMusicPartner,
      signUpDetailsMissing: profiles.signUpDetailsMissing,
      isAdmin: sql<boolean>`${isAdminUser(users.id)}`.mapWith(Boolean),
      hasActiveAgency: sql<boolean>`${fact("managesActiveAgency")(users.id)}`.mapWith(Boolean),
      unreadCount: sql<number>`${unread}`.mapWith(Number),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(sessions.id, sessionId));
}

type SessionRow = NonNullable<Awaited<ReturnType<ReturnType<typeof sessionSelect>["get"]>>>;

/** The session lookup of every signed-in request, built once per isolate (db.server builtOnce, docs/decisions/0279). */
const sessionQuery = builtOnce((slot) => sessionSelect(slot("sessionId")));

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

/**
 * A statement another module wants in the same D1 round trip as the session lookup (see
 * `alongsideSession`), with the callbacks that hand its result back.
 */
export type Companion = { build: SessionStatementBuilder; resolve: (rows: unknown) => void; reject: (error: unknown) => void };

/** What a statement alongside the session is built from: this request's session, the values of a statement built once over `sessionUserOf(slot)`. */
type SessionStatementBuilder = (session: SessionValues) => BatchEntry;

/** The slot values of a statement built once over `sessionUserOf(slot)`: this request's session. */
export type SessionValues = { sessionId: string };

/**
 * The session's user id over the slot `sessionId`, as an SQL expression (NULL when there is no such
 * session), for a statement built once per isolate (db.server builtOnce) that rides alongside the
 * session: run it with the `session` values alongsideSession hands its builder (docs/decisions/0285).
 */
export const sessionUserOf = (slot: Slot): SQL<string | null> =>
  sql<string | null>`(select ${sessions.userId} from ${sessions} where ${sessions.id} = ${slot<string>("sessionId")})`;

/** The session, its user and profile, as the admin condition below reads them (named apart from the statement's own tables). */
const gateSession = alias(sessions, "admin_gate_session");
const gateUser = alias(users, "admin_gate_user");
const gateProfile = alias(profiles, "admin_gate_profile");
/** SQLite's clock in the form the session's expiries are stored in (Date#toISOString). */
const sqlNow = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/**
 * True only when the session in the slot `sessionId` is one requireAdmin admits: not expired (idle
 * or absolute, as validateSessionToken decides), its user not banned, not waiting out a deletion,
 * and holding the admin role (isAdminUser). Statements use it through adminSessionLimit.
 */
export const sessionIsAdmin = (slot: Slot): SQL =>
  exists(
    db()
      .select({ one: sql`1` })
      .from(gateSession)
      .innerJoin(gateUser, eq(gateUser.id, gateSession.userId))
      .innerJoin(gateProfile, eq(gateProfile.userId, gateSession.userId))
      .where(
        and(
          eq(gateSession.id, slot<string>("sessionId")),
          gt(gateSession.expiresAt, sqlNow),
          gt(gateSession.absoluteExpiresAt, sqlNow),
          eq(gateProfile.isBanned, false),
          isNull(gateUser.deletionDueAt),
          isAdminUser(gateSession.userId),
        ),
      ),
  );

/**
 * The LIMIT of a statement an admin page starts alongside the session, before its guard
 * (alongsideSession): `rows` (every row when omitted) when the session in the slot `sessionId` is
 * an admin's (sessionIsAdmin), else 0, so that a signed-in non-admin's request, or a cookie naming
 * no session, reads none of the page's rows (docs/decisions/0356). In the LIMIT, not the WHERE:
 * SQLite evaluates a LIMIT once, before the statement's first row, and stops at 0; a WHERE term with
 * a subquery is tested on every row the statement's index search visits (measured: the refused
 * page still read 1,864 rows). requireAdmin stays the authority: this is in addition to it.
 * Without `slot` (the same statement run for an already proven admin): `rows` alone.
 */
export function adminSessionLimit(slot: Slot | undefined, rows: number | Placeholder = -1): number | Placeholder {
  if (!slot) return rows;
  // drizzle renders whatever object .limit() is given as SQL (sqlite-core dialect buildLimit); -1 is SQLite's "no limit".
  return sql`(case when ${sessionIsAdmin(slot)} then ${rows} else 0 end)` as unknown as Placeholder;
}

/** Looks the session up by token; extends it when due. Null when absent or expired. */
export async function validateSessionToken(token: string, now = Date.now(), companions: readonly Companion[] = []): Promise<SessionUser | null> {
  const id = sha256Hex(token);
  let row: SessionRow | undefined;
  if (companions.length === 0) row = await sessionQuery({ sessionId: id }).get();
  else {
    // One round trip: the session and the page's own statements (docs/decisions/0083).
    try {
      const [rows, ...results] = await batch([sessionQuery({ sessionId: id }), ...companions.map((c) => c.build({ sessionId: id }))]);
      for (const [i, c] of companions.entries()) c.resolve(results[i]);
      row = (rows as SessionRow[])[0];
    } catch (error) {
      for (const c of companions) c.reject(error);
      throw error;
    }
  }
  if (!row) return null;
  const absolute = Date.parse(row.absoluteExpiresAt);
  if (now >= Date.parse(row.expiresAt) || now >= absolute) {
    await endSessions({ userId: row.id, reason: "expired", scope: "one", sessionId: id });
    return null;
  }
  const user = toUser(row);
  if (now - Date.parse(row.lastSeenAt) > SESSION_TOUCH_MS) {
    user.expiresAt = new Date(Math.min(now + SESSION_IDLE_MS, absolute)).toISOString();
    user.lastSeenAt = new Date(now).toISOString();
    // The day's activity rides in the same write (issue 18: at most once per user per day, no extra round trip).
    await db().batch([
      db().update(sessions).set({ expiresAt: user.expiresAt, lastSeenAt: user.lastSeenAt }).where(eq(sessions.id, id)),
      ...statementsFor("seenStatements", row.id, now),
    ]);
  }
  return user;
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
    ...statementsFor("seenStatements", userId, now),
  ]);
  return sessionCookie(request, token, SESSION_ABSOLUTE_MS / 1000);
}

// ---------------------------------------------------------------------------------------------
// Ending sessions: one path for every way a session ends
// ---------------------------------------------------------------------------------------------

/** Why sessions end. The reasons of SESSION_END_REASONS are kept (ended_sessions) for the browser that still holds the cookie. */
export type SessionEndReason = "signed_out" | "expired" | (typeof SESSION_END_REASONS)[number];

/** Which of a user's sessions end, and why. */
export type SessionsToEnd = { userId: string; reason: SessionEndReason } & (
  | { scope: "all" }
  | { scope: "others"; keep: string }
  | { scope: "one"; sessionId: string }
  /** One session named by the first 12 hex digits of its id (the Settings list), never `keep`. */
  | { scope: "prefix"; prefix: string; keep: string }
);

/** How long the reason a session ended is kept: as long as its cookie could have lived. */
export const ENDED_KEPT_MS = SESSION_ABSOLUTE_MS;

const isKeptReason = (reason: SessionEndReason): reason is (typeof SESSION_END_REASONS)[number] => (SESSION_END_REASONS as readonly string[]).includes(reason);

function sessionsOf(which: SessionsToEnd): SQL | undefined {
  const mine = eq(sessions.userId, which.userId);
  switch (which.scope) {
    case "all":
      return mine;
    case "others":
      return and(mine, ne(sessions.id, which.keep));
    case "one":
      return and(mine, eq(sessions.id, which.sessionId));
    case "prefix":
      return and(mine, sql`substr(${sessions.id}, 1, 12) = ${which.prefix}`, ne(sessions.id, which.keep));
  }
}

/**
 * The statements ending sessions, for the batch of the change that ends them (the only code that
 * deletes session rows): why they ended, when someone else ended them (ended_sessions, pruned after
 * 30 days), and the delete. Whoever runs them calls `afterSessionsEnded` once the batch held;
 * `endSessions` does both and is what callers use unless another runner owns their batch.
 */
export function endSessionsStatements(which: SessionsToEnd, now = Date.now()): [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] {
  const where = sessionsOf(which);
  const remove = db().delete(sessions).where(where);
  if (!isKeptReason(which.reason)) return [remove];
  const at = new Date(now).toISOString();
  const reason = which.reason;
  return [
    db()
      .insert(endedSessions)
      .select(
        db()
          .select({ id: sessions.id, userId: sessions.userId, reason: sql<typeof reason>`${reason}`.as("reason"), endedAt: sql<string>`${at}`.as("ended_at") })
          .from(sessions)
          .where(where),
      )
      .onConflictDoNothing(),
    remove,
    db()
      .delete(endedSessions)
      .where(lt(endedSessions.endedAt, new Date(now - ENDED_KEPT_MS).toISOString())),
  ];
}

/**
 * THE way sessions end (sign-out, one or all other sessions in Settings, an admin, a ban, a
 * password change or reset, a role change): the rows go (with the statements of the change itself
 * when `change` runs them in its batch), then the user's notifier closes the sockets of every
 * session that no longer exists. Nothing is closed when the change throws.
 */
export async function endSessions(which: SessionsToEnd, change?: (end: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]) => Promise<unknown>): Promise<void> {
  const end = endSessionsStatements(which);
  await (change ? change(end) : db().batch(end));
  await afterSessionsEnded(which.userId);
}

/** Every session of a user ends (all but one with `exceptSessionId`), and their sockets close. */
export async function endAllSessions(userId: string, exceptSessionId?: string, reason: SessionEndReason = "ended_by_admin"): Promise<void> {
  await endSessions(exceptSessionId ? { userId, reason, scope: "others", keep: exceptSessionId } : { userId, reason, scope: "all" });
}

/**
 * Tells the user's notifier that sessions ended: it closes the open sockets of every session that no
 * longer exists (a banned user's after the 'banned' event). Part of `endSessions`.
 */
export async function afterSessionsEnded(userId: string): Promise<void> {
  try {
    await userNotifier(userId).closeEndedSessions();
  } catch (error) {
    console.error("closing sockets failed", error);
  }
  // The same for the sockets other domains hold (chat rooms, issue 17), each logging its own failure.
  await tell("sessionsEnded", userId);
}

/** 'Sign out other sessions': every session of the user but this one ends, and their sockets close. */
export async function endOtherSessions(request: Request, user: SessionUser): Promise<void> {
  authorize(actorOf(user), "account", "endSession", { ownerId: user.id });
  await endSessions({ userId: user.id, reason: "ended_by_user", scope: "others", keep: user.sessionId }, (end) =>
    db().batch([...end, auditQuery({ eventType: "sessions_ended", userId: user.id, targetUserId: user.id, request, details: { scope: "others" } })]),
  );
}

/** Ends one of the user's other sessions, named by the first 12 hex digits of its stored id; its sockets close. */
export async function endSessionByPrefix(user: SessionUser, prefix: string): Promise<void> {
  authorize(actorOf(user), "account", "endSession", { ownerId: user.id });
  await endSessions({ userId: user.id, reason: "ended_by_user", scope: "prefix", prefix, keep: user.sessionId });
}

/** A deleted account's sessions and the reasons kept for ended ones: all gone (the account is anonymised in the same batch). */
export function eraseSessionsStatements(userId: string): [BatchItem<"sqlite">, BatchItem<"sqlite">] {
  return [db().delete(sessions).where(eq(sessions.userId, userId)), db().delete(endedSessions).where(eq(endedSessions.userId, userId))];
}

/**
 * Retention (docs/privacy.md): sessions past their expiry (idle or absolute) and the reasons kept
 * for ended ones past ENDED_KEPT_MS go, with their user agents and addresses. Returns how many rows.
 */
export async function purgeEndedSessions(now = Date.now()): Promise<number> {
  const at = new Date(now).toISOString();
  const [expired, ended] = await db().batch([
    db().delete(sessions).where(sql`${sessions.expiresAt} < ${at} or ${sessions.absoluteExpiresAt} < ${at}`),
    db()
      .delete(endedSessions)
      .where(lt(endedSessions.endedAt, new Date(now - ENDED_KEPT_MS).toISOString())),
  ]);
  return (expired.meta.changes ?? 0) + (ended.meta.changes ?? 0);
}
