import { eq } from "drizzle-orm";
import type { RouterContextProvider } from "react-router";
import { endedSessions, profiles } from "~/db/schema";
import { requestContext } from "~/platform/context.server";
import { expireOnResponse, hasCookie, readCookie } from "~/platform/cookies.server";
import { sha256Hex } from "~/platform/crypto.server";
import { type BatchEntry, type BatchResultOf, batch, db } from "~/platform/db.server";
import { bannedMessage } from "./schema";
import { clearSessionCookie, sessionCookieName } from "./session-cookie.server";
import { type Companion, type SessionUser, type SessionValues, validateSessionToken } from "./session.server";

// The session of one request: looked up once (getSessionUser), with the statements other modules
// want in the same D1 round trip (alongsideSession), and why a banned browser is signed out.

/** The session token this request carries, when it could be one. */
function sessionToken(request: Request): string | null {
  const token = readCookie(request, sessionCookieName(request));
  return token && token.length <= 128 ? token : null;
}

/** Per request: the ban message of a browser whose session a ban ended (see bannedSignOutNotice). */
const banNotices = new WeakMap<object, string>();

/** 'Your account has been banned: …' when the session of this token was ended by someone else and the account is banned now. */
async function banNoticeOfEndedSession(token: string): Promise<string | null> {
  const row = await db()
    .select({ isBanned: profiles.isBanned, banReason: profiles.banReason })
    .from(endedSessions)
    .innerJoin(profiles, eq(profiles.userId, endedSessions.userId))
    .where(eq(endedSessions.id, sha256Hex(token)))
    .get();
  return row?.isBanned ? bannedMessage(row.banReason) : null;
}

/** Statements waiting for this request's session lookup, until it starts. */
const companionsOf = new WeakMap<object, Companion[]>();

/** How `alongsideSession` fails when the request has no session: expected, not worth a log line. */
export class NoSessionError extends Error {
  constructor() {
    super("no session");
    this.name = "NoSessionError";
  }
}

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Runs `build(session)` in the same D1 batch as this request's session lookup (one round trip for
 * the session and the page's data; docs/decisions/0083). A statement about the person is built once
 * over `sessionUserOf(slot)` and runs with `session` as its values (0285). Call it at the start of a
 * loader, before the first `await`, and await the guard before the result: the statement runs
 * whoever is asking, and only the guard decides whether its rows may be shown (for an unknown
 * session the user is NULL, and the promise rejects). Called after the lookup has started, it runs
 * on its own once the session is known.
 */
export function alongsideSession<Q extends BatchEntry>(
  { request, context }: { request: Request; context: Readonly<RouterContextProvider> },
  build: (session: SessionValues) => Q,
): Promise<BatchResultOf<Q>> {
  const rc = context.get(requestContext);
  if (!rc.session) void getSessionUser(request, context).catch(() => undefined);
  const waiting = companionsOf.get(rc);
  const result: Promise<BatchResultOf<Q>> = waiting
    ? new Promise<BatchResultOf<Q>>((resolve, reject) => {
        waiting.push({ build, resolve: resolve as (rows: unknown) => void, reject });
      })
    : getSessionUser(request, context).then(async (user): Promise<BatchResultOf<Q>> => {
        if (!user) throw new NoSessionError();
        const [rows] = await batch([build({ sessionId: user.sessionId })]);
        return rows as BatchResultOf<Q>;
      });
  // The caller awaits its guard first; a failure here must not surface as an unhandled rejection.
  result.catch(() => undefined);
  return result;
}

/**
 * The signed-in user of this request (memoized per request: one session query), or null. A
 * session cookie that matches no live session (ended, expired, made up or unreadable) is cleared
 * in this request's response, unless a ban ended it: that cookie stays until a response tells the
 * browser why (the guards, /auth and sign-out clear it then; docs/decisions/0068).
 */
export function getSessionUser(request: Request, context: Readonly<RouterContextProvider>): Promise<SessionUser | null> {
  const rc = context.get(requestContext);
  if (!rc.session) {
    const token = sessionToken(request);
    const waiting: Companion[] = [];
    companionsOf.set(rc, waiting);
    // The lookup waits one turn of the event loop, so that every loader of the request (React Router
    // starts them together) can add its statements to the same batch (alongsideSession).
    rc.session = nextTurn()
      .then(() => {
        companionsOf.delete(rc);
        if (token) return validateSessionToken(token, Date.now(), waiting);
        for (const c of waiting) c.reject(new NoSessionError());
        return null;
      })
      .then(async (user) => {
        if (user || !hasCookie(request, sessionCookieName(request))) return user;
        const notice = token ? await banNoticeOfEndedSession(token) : null;
        if (notice) banNotices.set(rc, notice);
        else expireOnResponse(rc, clearSessionCookie(request));
        return null;
      });
  }
  // Only this function stores it, always as a SessionUser.
  return rc.session as Promise<SessionUser | null>;
}

/**
 * Why this browser is signed out when its account is banned: 'Your account has been banned:
 * <reason>', for a banned user's live session or the cookie of a session someone ended while the
 * account is banned now. Null otherwise (no cookie, a session that expired or was signed out, a
 * ban since lifted). Whoever shows it also clears the session cookie.
 */
export async function bannedSignOutNotice(request: Request, context: Readonly<RouterContextProvider>): Promise<string | null> {
  const user = await getSessionUser(request, context);
  if (user) return user.isBanned ? bannedMessage(user.banReason) : null;
  return banNotices.get(context.get(requestContext)) ?? null;
}
