import { z } from "zod";
import "~/lib/zod-config";

// The chat room socket's protocol, in one place: what a room's Durable Object
// (workers/chat-room.ts) sends, what the browser (components/chat-socket.ts) reads, the keep-alive
// frames and the close codes. Client-safe: no server imports. Messages are SENT over HTTP
// (POST /api/chat, so every send passes the session, approval, ban and mute checks); the socket
// only delivers.
//
//   server → browser   one JSON text frame per message (`ChatSocketMessage`), or "pong"
//   browser → server   "ping" only (answered by the object's auto-response, without waking it)

/** GET ?room=<room id> with `Upgrade: websocket` (answered in workers/app.ts, before React Router). */
export const CHAT_SOCKET_PATH = "/api/chat/socket";

export const CHAT_PING = "ping";
export const CHAT_PONG = "pong";

/** Application close codes (the same meanings as the notifications socket's). */
export const CHAT_CLOSE_SESSION_ENDED = 4001;
export const CHAT_CLOSE_BANNED = 4003;
/** The room went away (deleted) or the user may no longer read it. */
export const CHAT_CLOSE_GONE = 4004;

export const chatMessageItem = z.object({
  id: z.string(),
  roomId: z.string(),
  /** The room object's order: the same for every reader. */
  seq: z.number().int(),
  userId: z.string(),
  authorName: z.string(),
  authorAvatarUrl: z.string().nullable(),
  body: z.string(),
  /** Mentioned user ids with the name shown when the message was written. */
  mentions: z.array(z.object({ id: z.string(), name: z.string() })),
  createdAt: z.string(),
  editedAt: z.string().nullable(),
});
export type ChatMessageItem = z.infer<typeof chatMessageItem>;

export const chatMuteState = z.object({ until: z.string(), reason: z.string() });
export type ChatMuteState = z.infer<typeof chatMuteState>;

export const chatRoomState = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(["general", "announcements"]),
  archived: z.boolean(),
});
export type ChatRoomState = z.infer<typeof chatRoomState>;

export const chatSocketMessage = z.discriminatedUnion("type", [
  /** A new message, in the room's order. `trace`: the benchmark's timestamps (devtools only). */
  z.object({ type: z.literal("message"), message: chatMessageItem, trace: z.record(z.string(), z.number()).optional() }),
  z.object({ type: z.literal("edited"), message: chatMessageItem }),
  z.object({ type: z.literal("deleted"), id: z.string(), seq: z.number().int() }),
  /** How many people have the room open now. */
  z.object({ type: z.literal("presence"), count: z.number().int() }),
  /** To the muted user's sockets only: null when the mute ended. */
  z.object({ type: z.literal("mute"), mute: chatMuteState.nullable() }),
  /** The room was renamed, described, archived or restored. */
  z.object({ type: z.literal("room"), room: chatRoomState }),
  /** Sent before a close for a ban (the tab signs out, as with the notifications socket). */
  z.object({ type: z.literal("banned"), reason: z.string().nullable() }),
]);
export type ChatSocketMessage = z.infer<typeof chatSocketMessage>;

/** One text frame from the server as a message, or null (a pong, a malformed or unknown frame). */
export function parseChatFrame(frame: unknown): ChatSocketMessage | null {
  if (typeof frame !== "string" || frame === CHAT_PONG) return null;
  try {
    const parsed = chatSocketMessage.safeParse(JSON.parse(frame));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
