import type { NotificationItem } from "./protocol";

// Client-safe list helpers shared by the server, the API and the bell. The socket's messages
// (and the NotificationItem they carry) are declared once, in ./protocol.

export type NotificationList = {
  notifications: NotificationItem[];
  unreadCount: number;
};

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
