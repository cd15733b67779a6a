// The chat room socket's protocol, in one place: what a room's Durable Object
// (workers/chat-room.ts) sends, what the browser (components/chat-socket.ts) reads, the keep-alive
// frames and the close codes. Client-safe: no server imports, and no zod (this file is on the
// first load of /community-chat; the frames are checked by hand, like notifications/protocol.ts).
// Messages are SENT over HTTP (POST /api/chat, so every send passes the session, approval, ban
// and mute checks, with zod in ./schema.ts); the socket only delivers.
//
//   server → browser   one JSON text frame per message (`ChatSocketMessage`), or "pong"
//   browser → server   "ping" (answered by the object's auto-response, without waking it), and
//                      "typing" while the person types (at most every TYPING_SEND_MS; decision 0247)

/** GET ?room=<room id> with `Upgrade: websocket` (answered in workers/app.ts, before React Router). */
export const CHAT_SOCKET_PATH = "/api/chat/socket";

export const CHAT_PING = "ping";
export const CHAT_PONG = "pong";
/** The browser types in the composer (decision 0247): never stored, relayed to the room's other sockets. */
export const CHAT_TYPING = "typing";
/** The browser sends "typing" at most this often while the person types. */
export const TYPING_SEND_MS = 3000;
/** The room relays one "typing" per person at most this often, across all their sockets (a faster client is ignored; decision 0298). */
export const TYPING_RELAY_MIN_MS = 2000;
/** A reader shows "… is typing" this long after the last frame (or until that person's message arrives). */
export const TYPING_SHOW_MS = 6000;

/** Application close codes (the same meanings as the notifications socket's). */
export const CHAT_CLOSE_SESSION_ENDED = 4001;
export const CHAT_CLOSE_BANNED = 4003;
/** The room went away (deleted) or the user may no longer read it. */
export const CHAT_CLOSE_GONE = 4004;

export const CHAT_ROOM_KINDS = ["general", "announcements"] as const;
export type ChatRoomKind = (typeof CHAT_ROOM_KINDS)[number];

export type ChatMessageItem = {
  id: string;
  roomId: string;
  /** The room object's order: the same for every reader. */
  seq: number;
  userId: string;
  authorName: string;
  authorAvatarUrl: string | null;
  body: string;
  /** Mentioned user ids with the name shown when the message was written. */
  mentions: { id: string; name: string }[];
  createdAt: string;
  editedAt: string | null;
};

/** A mute that holds in the room: `allRooms` when it holds in every room (decision 0246). */
export type ChatMuteState = { until: string; reason: string; allRooms: boolean };

export type ChatRoomState = { id: string; name: string; description: string; kind: ChatRoomKind; archived: boolean };

export type ChatSocketMessage =
  /** A new message, in the room's order. `trace`: the benchmark's timestamps (devtools only). */
  | { type: "message"; message: ChatMessageItem; trace?: Record<string, number> }
  | { type: "edited"; message: ChatMessageItem }
  | { type: "deleted"; id: string; seq: number }
  /** How many people have the room open now. */
  | { type: "presence"; count: number }
  /** To the muted user's sockets only: null when the mute ended. */
  | { type: "mute"; mute: ChatMuteState | null }
  /** The room was renamed, described, archived or restored. */
  | { type: "room"; room: ChatRoomState }
  /** Sent before a close for a ban (the tab signs out, as with the notifications socket). */
  | { type: "banned"; reason: string | null }
  /** A new message in ANOTHER room (its seq and author): the room list's unread count grows. docs/decisions/0162. */
  | { type: "activity"; roomId: string; seq: number; userId: string }
  /** Someone else is typing in this room (decision 0247). */
  | { type: "typing"; userId: string; name: string };

// Hand-written checks: known keys only (unknown keys are dropped, like a zod object), every field
// of the right type, or the whole frame is refused.
const isStr = (v: unknown): v is string => typeof v === "string";
const isStrOrNull = (v: unknown): v is string | null => v === null || typeof v === "string";
const isInt = (v: unknown): v is number => Number.isSafeInteger(v);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function mentionOf(v: unknown): { id: string; name: string } | null {
  return isRecord(v) && isStr(v.id) && isStr(v.name) ? { id: v.id, name: v.name } : null;
}

export function chatMessageItemOf(v: unknown): ChatMessageItem | null {
  if (!isRecord(v)) return null;
  const { id, roomId, seq, userId, authorName, authorAvatarUrl, body, mentions, createdAt, editedAt } = v;
  if (!isStr(id) || !isStr(roomId) || !isInt(seq) || !isStr(userId) || !isStr(authorName) || !isStr(body) || !isStr(createdAt)) return null;
  if (!isStrOrNull(authorAvatarUrl) || !isStrOrNull(editedAt) || !Array.isArray(mentions)) return null;
  const list = mentions.map(mentionOf);
  if (list.some((m) => m === null)) return null;
  return { id, roomId, seq, userId, authorName, authorAvatarUrl, body, mentions: list as ChatMessageItem["mentions"], createdAt, editedAt };
}

function muteStateOf(v: unknown): ChatMuteState | null {
  if (!isRecord(v) || !isStr(v.until) || !isStr(v.reason)) return null;
  // A frame of an object deployed before mutes per room has no allRooms: every mute was global then.
  if (v.allRooms !== undefined && typeof v.allRooms !== "boolean") return null;
  return { until: v.until, reason: v.reason, allRooms: v.allRooms ?? true };
}

function roomStateOf(v: unknown): ChatRoomState | null {
  if (!isRecord(v)) return null;
  const { id, name, description, kind, archived } = v;
  if (!isStr(id) || !isStr(name) || !isStr(description) || typeof archived !== "boolean") return null;
  if (!CHAT_ROOM_KINDS.includes(kind as ChatRoomKind)) return null;
  return { id, name, description, kind: kind as ChatRoomKind, archived };
}

function traceOf(v: unknown): Record<string, number> | null {
  if (!isRecord(v)) return null;
  const entries = Object.entries(v);
  return entries.every(([, n]) => typeof n === "number" && Number.isFinite(n)) ? Object.fromEntries(entries as [string, number][]) : null;
}

/** A parsed JSON value as a message of the protocol, or null. */
export function chatSocketMessageOf(v: unknown): ChatSocketMessage | null {
  if (!isRecord(v)) return null;
  switch (v.type) {
    case "message": {
      const message = chatMessageItemOf(v.message);
      if (!message) return null;
      if (v.trace === undefined) return { type: "message", message };
      const trace = traceOf(v.trace);
      return trace ? { type: "message", message, trace } : null;
    }
    case "edited": {
      const message = chatMessageItemOf(v.message);
      return message ? { type: "edited", message } : null;
    }
    case "deleted":
      return isStr(v.id) && isInt(v.seq) ? { type: "deleted", id: v.id, seq: v.seq } : null;
    case "presence":
      return isInt(v.count) && v.count >= 0 ? { type: "presence", count: v.count } : null;
    case "mute": {
      if (v.mute === null) return { type: "mute", mute: null };
      const mute = muteStateOf(v.mute);
      return mute ? { type: "mute", mute } : null;
    }
    case "room": {
      const room = roomStateOf(v.room);
      return room ? { type: "room", room } : null;
    }
    case "banned":
      return isStrOrNull(v.reason) ? { type: "banned", reason: v.reason } : null;
    case "typing":
      return isStr(v.userId) && isStr(v.name) ? { type: "typing", userId: v.userId, name: v.name } : null;
    case "activity":
      return isStr(v.roomId) && isInt(v.seq) && isStr(v.userId) ? { type: "activity", roomId: v.roomId, seq: v.seq, userId: v.userId } : null;
    default:
      return null;
  }
}

/** One text frame from the server as a message, or null (a pong, a malformed or unknown frame). */
export function parseChatFrame(frame: unknown): ChatSocketMessage | null {
  if (typeof frame !== "string" || frame === CHAT_PONG) return null;
  let value: unknown;
  try {
    value = JSON.parse(frame);
  } catch {
    return null;
  }
  return chatSocketMessageOf(value);
}
