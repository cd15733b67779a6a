import type { NotificationItem, SocketMessage } from "~/modules/notifications/protocol";

// A bell entry as the server sends it (unit and worker tests): unread, without picture or video,
// with fresh ids; `over` sets the fields a test is about.

export function notificationItem(over: Partial<NotificationItem> = {}): NotificationItem {
  return {
    id: crypto.randomUUID(),
    notificationId: crypto.randomUUID(),
    title: "Notification",
    content: "",
    imageUrl: null,
    videoUrl: null,
    kind: "broadcast",
    isRead: false,
    readAt: null,
    createdAt: new Date().toISOString(),
    ...over,
  };
}

/** The socket message that pushes one entry to a tab. */
export const notificationMessage = (over: Partial<NotificationItem> = {}): SocketMessage => ({ type: "notification", notification: notificationItem(over) });
