import {
  NOTIFIER_SESSION_ENDS_HEADER,
  NOTIFIER_SESSION_HEADER,
  NOTIFIER_USER_HEADER,
  NOTIFICATIONS_SOCKET_PATH,
} from "./notifications";
import { readCookie } from "~/platform/cookies.server";
import { env } from "~/platform/env.server";
import { allowedOrigins } from "~/platform/headers.server";
import { sessionCookieName, validateSessionToken } from "~/modules/accounts/session.server";

export { NOTIFICATIONS_SOCKET_PATH };

const text = (body: string, status: number) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/**
 * GET /api/notifications/socket: the WebSocket of the signed-in user's tab. Runs in the worker
 * entry before React Router. Browsers send Origin on every WebSocket handshake and cookies go
 * with it whatever the page's site, so the Origin check is what stops another site from opening
 * a socket with the user's cookie (cross-site WebSocket hijacking). Then the session; then the
 * upgrade is handed to the user's Durable Object with the user and session ids the object trusts
 * (the object is reachable only through our binding, and this request is built here, not copied).
 */
export async function handleNotificationSocket(request: Request): Promise<Response> {
  if (request.method !== "GET") return text("Method Not Allowed", 405);
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return text("Expected a WebSocket upgrade", 426);

  const origin = request.headers.get("Origin");
  if (!origin || !allowedOrigins(request, env).has(origin)) return text("Forbidden: cross-origin socket refused", 403);

  const token = readCookie(request, sessionCookieName(request));
  const user = token && token.length <= 128 ? await validateSessionToken(token) : null;
  if (!user) return text("Auth session missing!", 401);
  if (user.isBanned) return text("Account banned", 403);

  const endsAt = Date.parse(user.expiresAt) < Date.parse(user.absoluteExpiresAt) ? user.expiresAt : user.absoluteExpiresAt;
  const stub = env.USER_NOTIFIER.get(env.USER_NOTIFIER.idFromName(user.id));
  return stub.fetch("https://notifier/socket", {
    headers: {
      Upgrade: "websocket",
      [NOTIFIER_USER_HEADER]: user.id,
      [NOTIFIER_SESSION_HEADER]: user.sessionId,
      [NOTIFIER_SESSION_ENDS_HEADER]: endsAt,
    },
  });
}
