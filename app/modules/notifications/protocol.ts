// The notifications socket's protocol, in one place: what the user's Durable Object
// (workers/user-notifier.ts) sends, what the browser (components/notification-socket.ts) reads,
// the keep-alive frames and the close codes. Client-safe: no server imports.
//
//   server → browser   one JSON text frame per message (`SocketMessage`), or "pong"
//   browser → server   "ping" only (answered by the object's auto-response, without waking it)

export const NOTIFICATIONS_SOCKET_PATH = "/api/notifications/socket";

/** Keep-alive frames: the browser sends PING, the object answers PONG. */
export const PING = "ping";

/** A window event the bell dispatches for each notification pushed live (detail: the NotificationItem), so a page can refresh what it shows. */
export const NOTIFICATION_PUSHED_EVENT = "shortbeat:notification";
export const PONG = "pong";
/** The only frame a browser sends. Anything else is ignored by the object. */
export type ClientMessage = typeof PING;

/** Application close codes (4000-4999 are the application's own). */
export const SOCKET_CLOSE_SESSION_ENDED = 4001;
export const SOCKET_CLOSE_BANNED = 4003;

export const ACCOUNT_EVENTS = ["approved", "rejected", "banned", "unbanned"] as const;
export type AccountEvent = (typeof ACCOUNT_EVENTS)[number];

/** One row of user_notifications joined with its notification (spec section 7). */
export type NotificationItem = {
  /** user_notifications.id: what 'Mark as read' names. */
  id: string;
  notificationId: string;
  title: string;
  content: string;
  /** Public URL in the avatars store, or null. */
  imageUrl: string | null;
  /** URL signed for 3600 s, or null. */
  videoUrl: string | null;
  kind: string;
  isRead: boolean;
  readAt: string | null;
  createdAt: string;
};

type NotificationMessage = { type: "notification"; notification: NotificationItem };
/** Another tab marked something read: `ids` or "all" (created up to `before`, when given). */
type ReadMessage = { type: "read"; ids: string[] | "all"; readAt: string; before?: string | null };
export type AccountEventMessage = { type: "account"; event: AccountEvent; reason: string | null };

/** What the server sends on the socket. */
export type SocketMessage = NotificationMessage | ReadMessage | AccountEventMessage;

// The browser reads every frame through these checks (hand-written, not zod: this file is on the
// first load of every signed-in page, docs/decisions/0086). Known keys only, like a zod object.
const isStr = (v: unknown): v is string => typeof v === "string";
const isStrOrNull = (v: unknown): v is string | null => v === null || typeof v === "string";
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function notificationItemOf(v: unknown): NotificationItem | null {
  if (!isRecord(v)) return null;
  const { id, notificationId, title, content, imageUrl, videoUrl, kind, isRead, readAt, createdAt } = v;
  if (!isStr(id) || !isStr(notificationId) || !isStr(title) || !isStr(content) || !isStr(kind) || !isStr(createdAt)) return null;
  if (!isStrOrNull(imageUrl) || !isStrOrNull(videoUrl) || !isStrOrNull(readAt) || typeof isRead !== "boolean") return null;
  return { id, notificationId, title, content, imageUrl, videoUrl, kind, isRead, readAt, createdAt };
}

/** A parsed JSON value as a message of the protocol, or null. */
export function socketMessageOf(v: unknown): SocketMessage | null {
  if (!isRecord(v)) return null;
  switch (v.type) {
    case "notification": {
      const notification = notificationItemOf(v.notification);
      return notification ? { type: "notification", notification } : null;
    }
    case "read": {
      const { ids, readAt, before } = v;
      if (!(ids === "all" || (Array.isArray(ids) && ids.every(isStr))) || !isStr(readAt)) return null;
      if (before !== undefined && !isStrOrNull(before)) return null;
      return before === undefined ? { type: "read", ids, readAt } : { type: "read", ids, readAt, before };
    }
    case "account": {
      const { event, reason } = v;
      if (!ACCOUNT_EVENTS.includes(event as AccountEvent) || !isStrOrNull(reason)) return null;
      return { type: "account", event: event as AccountEvent, reason };
    }
    default:
      return null;
  }
}

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
  return socketMessageOf(value);
}
