import { DomainError, forbidden } from "~/lib/errors";
import { sessionCookieName, validateSessionToken } from "~/modules/accounts/accounts.server";
import { readCookie } from "~/platform/cookies.server";
import { env } from "~/platform/env.server";
import { allowedOrigins } from "~/platform/headers.server";
import { NOTIFIER_SESSION_ENDS_HEADER, NOTIFIER_SESSION_HEADER, NOTIFIER_USER_HEADER, userNotifier } from "~/platform/realtime.server";

/**
 * GET /api/notifications/socket (a WebSocket upgrade, checked by workers/app.ts with
 * `refuseNonUpgrade`): the socket of the signed-in user's tab. Runs in the worker entry before
 * React Router. Browsers send Origin on every WebSocket handshake and cookies go with it whatever
 * the page's site, so the Origin check is what stops another site from opening a socket with the
 * user's cookie (cross-site WebSocket hijacking): 403. Then the session: 401 without, 403 for a
 * banned user. Then the upgrade is handed to the user's Durable Object with the user and session
 * ids the object trusts (the object is reachable only through our binding, and this request is
 * built here, not copied). Refusals are thrown as DomainError; the answer is the object's 101.
 */
export async function openNotificationSocket(request: Request): Promise<Response> {
  const origin = request.headers.get("Origin");
  if (!origin || !allowedOrigins(request, env).has(origin)) {
    throw forbidden("Forbidden: cross-origin socket refused");
  }

  const token = readCookie(request, sessionCookieName(request));
  const user = token && token.length <= 128 ? await validateSessionToken(token) : null;
  if (!user) throw new DomainError("unauthenticated", "Auth session missing!");
  if (user.isBanned) throw forbidden("Account banned");

  const endsAt = Date.parse(user.expiresAt) < Date.parse(user.absoluteExpiresAt) ? user.expiresAt : user.absoluteExpiresAt;
  return userNotifier(user.id).fetch("https://notifier/socket", {
    headers: {
      Upgrade: "websocket",
      [NOTIFIER_USER_HEADER]: user.id,
      [NOTIFIER_SESSION_HEADER]: user.sessionId,
      [NOTIFIER_SESSION_ENDS_HEADER]: endsAt,
    },
  });
}
