import { DomainError, forbidden } from "~/lib/errors";
import { isApproved } from "~/lib/permissions";
import { actorOf, sessionCookieName, validateSessionToken } from "~/modules/accounts/accounts.server";
import { readCookie } from "~/platform/cookies.server";
import { env } from "~/platform/env.server";
import { allowedOrigins } from "~/platform/headers.server";
import { displayName } from "./messages.server";
import { chatRoom, socketIdentityHeaders } from "./room-object.server";
import { roomById, roomIdParam } from "./rooms.server";

/**
 * GET /api/chat/socket?room=<id> (a WebSocket upgrade; workers/app.ts checks it is one with
 * `refuseNonUpgrade`): a tab's socket to one room. Same checks as the notifications socket, in the
 * same order: Origin (403: stops cross-site WebSocket hijacking), the session (401), a ban (403),
 * then approval (403; admins need none) and the room (404). The upgrade then goes to the room's
 * object with the identity headers it trusts (reachable only through our binding).
 */
export async function openChatSocket(request: Request): Promise<Response> {
  const origin = request.headers.get("Origin");
  if (!origin || !allowedOrigins(request, env).has(origin)) throw forbidden("Forbidden: cross-origin socket refused");

  const token = readCookie(request, sessionCookieName(request));
  const user = token && token.length <= 128 ? await validateSessionToken(token) : null;
  if (!user) throw new DomainError("unauthenticated", "Auth session missing!");
  if (user.isBanned) throw forbidden("Account banned");
  if (!isApproved(actorOf(user))) throw forbidden("Approval required");

  const roomId = roomIdParam(new URL(request.url).searchParams.get("room"));
  await roomById(roomId);

  const endsAt = Date.parse(user.expiresAt) < Date.parse(user.absoluteExpiresAt) ? user.expiresAt : user.absoluteExpiresAt;
  return chatRoom(roomId).fetch("https://chat-room/socket", {
    headers: {
      Upgrade: "websocket",
      ...socketIdentityHeaders({ userId: user.id, sessionId: user.sessionId, sessionEndsAt: endsAt, roomId, name: displayName(user), isAdmin: user.isAdmin }),
    },
  });
}
