import type { ChatMessageItem, ChatMuteState, ChatRoomState } from "./protocol";

export type { ChatMessageItem, ChatMuteState, ChatRoomState };

/** A room in the list of /community-chat, with the viewer's unread count. */
export type ChatRoomSummary = ChatRoomState & { slug: string; position: number; unread: number; lastSeq: number };

export type ChatPage = {
  rooms: ChatRoomSummary[];
  room: ChatRoomSummary | null;
  messages: ChatMessageItem[];
  hasMore: boolean;
  mute: ChatMuteState | null;
  /** Whether the viewer may post in this room now (not archived, announcements: admins). */
  canPost: boolean;
  me: { id: string; isAdmin: boolean };
};

export type ChatHistory = { messages: ChatMessageItem[]; hasMore: boolean };

/** Reconnect catch-up: messages after the newest one the tab has, and what changed meanwhile. */
export type ChatCatchUp = { messages: ChatMessageItem[]; edited: ChatMessageItem[]; deleted: { id: string; seq: number }[] };

export type ChatMember = { id: string; name: string; avatarUrl: string | null };

/** What the room object needs to store and deliver a message (the facade checked everything else). */
export type RoomPost = {
  id: string;
  roomId: string;
  userId: string;
  /** Admins post in announcement rooms. */
  authorIsAdmin: boolean;
  authorName: string;
  authorAvatarUrl: string | null;
  body: string;
  mentions: { id: string; name: string }[];
  /** The benchmark's timestamps (devtools builds only). */
  trace?: Record<string, number>;
};

export type RoomPostResult =
  | { ok: true; message: ChatMessageItem }
  | { ok: false; code: "rate_limited"; retryAfterMs: number }
  | { ok: false; code: "refused" | "duplicate" };

export type AdminRoom = ChatRoomState & { slug: string; position: number; messageCount: number; createdAt: string };
/** `authorIsAdmin`: admins cannot be muted, so their messages offer no mute. */
export type AdminFeedItem = ChatMessageItem & { roomName: string; deletedAt: string | null; authorIsAdmin: boolean };
/** `roomId`/`roomName` null: a mute in every room. */
export type AdminMute = {
  id: string;
  userId: string;
  name: string;
  roomId: string | null;
  roomName: string | null;
  reason: string;
  until: string;
  mutedByName: string | null;
  createdAt: string;
};
export type ChatAdminPage = { rooms: AdminRoom[]; feed: AdminFeedItem[]; mutes: AdminMute[] };
