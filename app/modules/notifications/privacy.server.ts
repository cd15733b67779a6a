import { and, desc, eq, lt } from "drizzle-orm";
import { notifications, userNotifications } from "~/db/schema";
import { columnsOf } from "~/db/columns";
import { inJsonList } from "~/db/in-json-list";
import { db } from "~/platform/db.server";
import { purgeInChunks, type PurgeLimits } from "~/platform/purge.server";

// The notifications domain's part of a data export and of an account deletion (issue 28).

export async function notificationsDataFor(userId: string) {
  return db()
    .select({ ...columnsOf(notifications, "title", "content", "kind"), ...columnsOf(userNotifications, "isRead", "readAt", "createdAt") })
    .from(userNotifications)
    .innerJoin(notifications, eq(notifications.id, userNotifications.notificationId))
    .where(eq(userNotifications.userId, userId))
    .orderBy(desc(userNotifications.createdAt))
    .limit(5000);
}

/** A deleted account's bell goes (the notifications themselves stay: others received them too). */
export function eraseNotificationsDataQueries(userId: string) {
  return [db().delete(userNotifications).where(eq(userNotifications.userId, userId))] as const;
}

/**
 * How long a READ bell entry is kept (docs/decisions/0337, docs/scale.md move 3). Unread ones stay
 * whatever their age: nobody has seen them yet.
 */
export const READ_NOTIFICATION_RETENTION_DAYS = 180;

/**
 * The daily retention job's part: read bell entries older than READ_NOTIFICATION_RETENTION_DAYS go,
 * in chunks, and with each its notification when it was that one person's own (audience 'user':
 * notifyUser writes one recipient per such row). A broadcast's row (one for all its recipients, its
 * media in R2, /admin/broadcast's history) stays. Returns the bell entries deleted.
 */
export async function purgeReadNotifications(now = Date.now(), limits: PurgeLimits = {}): Promise<number> {
  const before = new Date(now - READ_NOTIFICATION_RETENTION_DAYS * 86_400_000).toISOString();
  return purgeInChunks(async (limit) => {
    const rows = await db()
      .select({ id: userNotifications.id, notificationId: userNotifications.notificationId, audience: notifications.audience })
      .from(userNotifications)
      .innerJoin(notifications, eq(notifications.id, userNotifications.notificationId))
      .where(and(eq(userNotifications.isRead, true), lt(userNotifications.createdAt, before)))
      .limit(limit);
    if (rows.length === 0) return 0;
    const entries = rows.map((r) => r.id);
    const own = rows.filter((r) => r.audience === "user").map((r) => r.notificationId);
    // D1 binds at most 100 values a statement: each list goes as one JSON array (inJsonList).
    await db().batch([
      db().delete(userNotifications).where(inJsonList(userNotifications.id, entries)),
      db()
        .delete(notifications)
        .where(and(inJsonList(notifications.id, own), eq(notifications.audience, "user"))),
    ]);
    return rows.length;
  }, limits);
}
