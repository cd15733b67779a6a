import { env } from "~/platform/env.server";

// The room's Durable Object (workers/chat-room.ts), one per room (idFromName(roomId)). Its methods
// are typed RPC calls on the stub; only the WebSocket upgrade goes through its fetch().

export function chatRoom(roomId: string) {
  return env.CHAT_ROOM.get(env.CHAT_ROOM.idFromName(roomId));
}

/** Headers of the upgrade request the worker builds after it checked Origin, session, approval and ban. */
export const CHAT_USER_HEADER = "X-Shortbeat-User";
export const CHAT_SESSION_HEADER = "X-Shortbeat-Session";
export const CHAT_SESSION_ENDS_HEADER = "X-Shortbeat-Session-Ends";
export const CHAT_ROOM_HEADER = "X-Shortbeat-Room";
/** The name others see in "… is typing" (URI-encoded), and whether the person is an admin (announcements). */
export const CHAT_NAME_HEADER = "X-Shortbeat-Name";
export const CHAT_ADMIN_HEADER = "X-Shortbeat-Admin";

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
