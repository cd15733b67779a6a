import { env } from "~/platform/env.server";

// The room's Durable Object (workers/chat-room.ts), one per room (idFromName(roomId)). Its methods
// are typed RPC calls on the stub; only the WebSocket upgrade goes through its fetch().

export function chatRoom(roomId: string) {
  return env.CHAT_ROOM.get(env.CHAT_ROOM.idFromName(roomId));
}

// The upgrade request's identity, written by the worker after it checked Origin, session, approval
// and ban (socket.server.ts), read by the room's object: one shape, encoded and decoded here.
const HEADERS = {
  userId: "X-Shortbeat-User",
  sessionId: "X-Shortbeat-Session",
  sessionEndsAt: "X-Shortbeat-Session-Ends",
  roomId: "X-Shortbeat-Room",
  name: "X-Shortbeat-Name",
  isAdmin: "X-Shortbeat-Admin",
} as const;

/** Who opens a room socket: the name others see in "… is typing", and whether they are an admin (announcements). */
export type SocketIdentity = { userId: string; sessionId: string; sessionEndsAt: string; roomId: string; name: string; isAdmin: boolean };

/** The upgrade request's identity headers (the name URI-encoded: a header carries no other characters). */
export function socketIdentityHeaders(who: SocketIdentity): Record<string, string> {
  return {
    [HEADERS.userId]: who.userId,
    [HEADERS.sessionId]: who.sessionId,
    [HEADERS.sessionEndsAt]: who.sessionEndsAt,
    [HEADERS.roomId]: who.roomId,
    [HEADERS.name]: encodeURIComponent(who.name),
    [HEADERS.isAdmin]: who.isAdmin ? "1" : "0",
  };
}

/** The identity an upgrade request carries; null without its user, session or room. */
export function socketIdentityOf(request: Request): SocketIdentity | null {
  const get = (name: string) => request.headers.get(name) ?? "";
  const who = {
    userId: get(HEADERS.userId),
    sessionId: get(HEADERS.sessionId),
    sessionEndsAt: get(HEADERS.sessionEndsAt),
    roomId: get(HEADERS.roomId),
    name: decodedName(get(HEADERS.name)),
    isAdmin: get(HEADERS.isAdmin) === "1",
  };
  return who.userId && who.sessionId && who.roomId ? who : null;
}

function decodedName(v: string): string {
  try {
    return decodeURIComponent(v).slice(0, 100) || "Member";
  } catch {
    return "Member";
  }
}

/** Runs `call` on each room's object at once; a failing object is logged, never thrown (D1 is the record). */
export async function eachRoom(roomIds: readonly string[], call: (room: ReturnType<typeof chatRoom>) => Promise<unknown>): Promise<void> {
  await Promise.all(
    roomIds.map(async (id) => {
      try {
        await call(chatRoom(id));
      } catch (error) {
        console.error("chat room call failed", id, error);
      }
    }),
  );
}
