import { z } from "zod";

// The notifications socket's protocol, in one place: what the user's Durable Object
// (workers/user-notifier.ts) sends, what the browser (components/notification-socket.ts) reads,
// the keep-alive frames and the close codes. Client-safe: no server imports.
//
//   server → browser   one JSON text frame per message (`SocketMessage`), or "pong"
//   browser → server   "ping" only (answered by the object's auto-response, without waking it)

export const NOTIFICATIONS_SOCKET_PATH = "/api/notifications/socket";

/** Keep-alive frames: the browser sends PING, the object answers PONG. */
export const PING = "ping";
export const PONG = "pong";
/** The only frame a browser sends. Anything else is ignored by the object. */
export type ClientMessage = typeof PING;

/** Application close codes (4000-4999 are the application's own). */
export const SOCKET_CLOSE_SESSION_ENDED = 4001;
export const SOCKET_CLOSE_BANNED = 4003;

export const ACCOUNT_EVENTS = ["approved", "rejected", "banned", "unbanned"] as const;
export type AccountEvent = (typeof ACCOUNT_EVENTS)[number];

/** One row of user_notifications joined with its notification (spec section 7). */
export const notificationItemSchema = z.object({
  /** user_notifications.id: what 'Mark as read' names. */
  id: z.string(),
  notificationId: z.string(),
  title: z.string(),
  content: z.string(),
  /** Public URL in the avatars store, or null. */
  imageUrl: z.string().nullable(),
  /** URL signed for 3600 s, or null. */
  videoUrl: z.string().nullable(),
  kind: z.string(),
  isRead: z.boolean(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});
export type NotificationItem = z.infer<typeof notificationItemSchema>;

const notificationMessage = z.object({ type: z.literal("notification"), notification: notificationItemSchema });
/** Another tab marked something read: `ids` or "all" (created up to `before`, when given). */
const readMessage = z.object({
  type: z.literal("read"),
  ids: z.union([z.array(z.string()), z.literal("all")]),
  readAt: z.string(),
  before: z.string().nullable().optional(),
});
const accountMessage = z.object({
  type: z.literal("account"),
  event: z.enum(ACCOUNT_EVENTS),
  reason: z.string().nullable(),
});

/** What the server sends on the socket. */
export const socketMessageSchema = z.discriminatedUnion("type", [notificationMessage, readMessage, accountMessage]);
export type SocketMessage = z.infer<typeof socketMessageSchema>;
export type AccountEventMessage = z.infer<typeof accountMessage>;

/** The account event message for a decision, as the object sends it. */
export function accountMessageOf(event: AccountEvent, reason: string | null = null): AccountEventMessage {
  return { type: "account", event, reason };
}

/** One text frame from the server as a message, or null (a pong, a malformed or unknown frame). */
export function parseSocketMessage(frame: unknown): SocketMessage | null {
  if (typeof frame !== "string" || frame === PONG) return null;
  let value: unknown;
  try {
    value = JSON.parse(frame);
  } catch {
    return null;
  }
  const parsed = socketMessageSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
