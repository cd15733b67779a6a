// Client-safe shapes of notifications, shared by the server, the API and the bell.

export type AccountEvent = "approved" | "rejected" | "banned" | "unbanned";

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

export type NotificationList = {
  notifications: NotificationItem[];
  unreadCount: number;
};

/** What the server sends on /api/notifications/socket. */
export type SocketMessage =
  | { type: "notification"; notification: NotificationItem }
  | { type: "read"; ids: string[] | "all"; readAt: string; before?: string | null }
  | { type: "account"; event: AccountEvent; reason?: string | null };

/** Application close codes of the socket. */
export const SOCKET_CLOSE_SESSION_ENDED = 4001;
export const SOCKET_CLOSE_BANNED = 4003;

export const NOTIFICATIONS_SOCKET_PATH = "/api/notifications/socket";

/** Headers the worker sets on the request it hands to the user's Durable Object. */
export const NOTIFIER_USER_HEADER = "X-Shortbeat-User";
export const NOTIFIER_SESSION_HEADER = "X-Shortbeat-Session";
/** When the session ends unless it is used again (ISO time); the object re-checks then. */
export const NOTIFIER_SESSION_ENDS_HEADER = "X-Shortbeat-Session-Ends";

export const NOTIFICATIONS_PAGE_SIZE = 50;

/** Newest first: by created_at, then id (the server's order). */
export function compareNewestFirst(a: NotificationItem, b: NotificationItem): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * Merges fresh items into a list: one entry per id (no duplicate), newest first. A fresher copy
 * of an item wins, except that an item already read stays read.
 */
export function mergeNotifications(list: NotificationItem[], fresh: NotificationItem[], cap = 200): NotificationItem[] {
  const byId = new Map(list.map((n) => [n.id, n]));
  for (const n of fresh) {
    const old = byId.get(n.id);
    byId.set(n.id, old?.isRead && !n.isRead ? { ...n, isRead: true, readAt: old.readAt } : n);
  }
  return [...byId.values()].sort(compareNewestFirst).slice(0, cap);
}
