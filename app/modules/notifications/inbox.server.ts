import { and, count, desc, eq, gte, lte } from "drizzle-orm";
import { notifications, userNotifications } from "~/db/schema";
import { authorize, type Actor } from "~/lib/permissions";
import { avatarUrl, isValidKey, signMediaUrl } from "~/modules/media/media.server";
import { db } from "~/platform/db.server";
import { pushToUser } from "./delivery.server";
import { NOTIFICATIONS_PAGE_SIZE, type NotificationList } from "./notifications";

// A person's own notifications: the list (with the unread count) and the read state.

/** image_url holds an AVATARS key (or, from older rows, a full URL). */
export function imageUrlOf(value: string | null): string | null {
  if (!value) return null;
  if (/^(https?:)?\/\//.test(value) || value.startsWith("/")) return value;
  return isValidKey(value) ? avatarUrl(value) : null;
}

/** video_url holds a MEDIA key; the client gets a URL signed for 3600 s. */
export async function videoUrlOf(value: string | null): Promise<string | null> {
  if (!value || !isValidKey(value)) return null;
  return signMediaUrl(value);
}

// ---------------------------------------------------------------------------------------------
// Reading and marking (the actor's own rows only)
// ---------------------------------------------------------------------------------------------

const listColumns = {
  id: userNotifications.id,
  notificationId: userNotifications.notificationId,
  isRead: userNotifications.isRead,
  readAt: userNotifications.readAt,
  createdAt: userNotifications.createdAt,
  title: notifications.title,
  content: notifications.content,
  imageKey: notifications.imageUrl,
  videoKey: notifications.videoUrl,
  kind: notifications.kind,
};

const unreadOf = (userId: string) => and(eq(userNotifications.userId, userId), eq(userNotifications.isRead, false));

/**
 * The actor's notifications, newest first, with the unread count (one batch). With `since` (an
 * ISO time the client already has), only rows created at or after it: the reconnect catch-up.
 * Inclusive, so a row sharing the last-seen millisecond is not skipped; the client drops ids it
 * already has.
 */
export async function listNotifications(actor: Actor, opts: { since?: string | null; limit?: number } = {}): Promise<NotificationList> {
  authorize(actor, "notification", "readOwn");
  const limit = Math.min(Math.max(opts.limit ?? NOTIFICATIONS_PAGE_SIZE, 1), 200);
  const since = opts.since && !Number.isNaN(Date.parse(opts.since)) ? new Date(opts.since).toISOString() : null;
  const [rows, [unread]] = await db().batch([
    db()
      .select(listColumns)
      .from(userNotifications)
      .innerJoin(notifications, eq(notifications.id, userNotifications.notificationId))
      .where(and(eq(userNotifications.userId, actor.id), since ? gte(userNotifications.createdAt, since) : undefined))
      .orderBy(desc(userNotifications.createdAt), desc(userNotifications.id))
      .limit(limit),
    db().select({ n: count() }).from(userNotifications).where(unreadOf(actor.id)),
  ]);
  const items = await Promise.all(
    rows.map(async ({ imageKey, videoKey, ...row }) => ({
      ...row,
      imageUrl: imageUrlOf(imageKey),
      videoUrl: await videoUrlOf(videoKey),
    })),
  );
  return { notifications: items, unreadCount: unread?.n ?? 0 };
}

/**
 * Marks one of the actor's own notifications read (sets read_at). The update names the actor as
 * the owner, so someone else's id changes nothing: false then, and when it was already read.
 */
export async function markRead(actor: Actor, id: string): Promise<boolean> {
  authorize(actor, "notification", "markRead", { ownerId: actor.id });
  const readAt = new Date().toISOString();
  const result = await db()
    .update(userNotifications)
    .set({ isRead: true, readAt })
    .where(and(eq(userNotifications.id, id), unreadOf(actor.id)))
    .run();
  const changed = result.meta.changes > 0;
  // Other open tabs of the same user follow (spec: update events on user_notifications).
  if (changed) await pushToUser(actor.id, { type: "read", ids: [id], readAt });
  return changed;
}

/**
 * Marks every unread notification of the actor read in ONE write. With `before`, only rows
 * created up to that time (what the user saw), so one that arrives meanwhile stays unread.
 */
export async function markAllRead(actor: Actor, before?: string | null): Promise<number> {
  authorize(actor, "notification", "markRead", { ownerId: actor.id });
  const readAt = new Date().toISOString();
  const cutoff = before && !Number.isNaN(Date.parse(before)) ? new Date(before).toISOString() : null;
  const result = await db()
    .update(userNotifications)
    .set({ isRead: true, readAt })
    .where(and(unreadOf(actor.id), cutoff ? lte(userNotifications.createdAt, cutoff) : undefined))
    .run();
  const changed = result.meta.changes;
  if (changed > 0) await pushToUser(actor.id, { type: "read", ids: "all", readAt, before: cutoff });
  return changed;
}
