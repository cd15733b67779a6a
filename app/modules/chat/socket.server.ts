import { DomainError, forbidden } from "~/lib/errors";
import { isApproved } from "~/lib/permissions";
import { actorOf, sessionCookieName, validateSessionToken } from "~/modules/accounts/accounts.server";
import { readCookie } from "~/platform/cookies.server";
import { env } from "~/platform/env.server";
import { allowedOrigins } from "~/platform/headers.server";
import { displayName } from "./messages.server";
import {
  CHAT_ADMIN_HEADER,
  CHAT_NAME_HEADER,
  CHAT_ROOM_HEADER,
  CHAT_SESSION_ENDS_HEADER,
  CHAT_SESSION_HEADER,
  CHAT_USER_HEADER,
  chatRoom,
} from "./room-object.server";
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
      [CHAT_USER_HEADER]: user.id,
      [CHAT_SESSION_HEADER]: user.sessionId,
      [CHAT_SESSION_ENDS_HEADER]: endsAt,
      [CHAT_ROOM_HEADER]: roomId,
      [CHAT_NAME_HEADER]: encodeURIComponent(displayName(user)),
      [CHAT_ADMIN_HEADER]: user.isAdmin ? "1" : "0",
    },
  });
}
