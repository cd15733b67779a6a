import { desc, eq } from "drizzle-orm";
import { notifications, userNotifications } from "~/db/schema";
import { columnsOf } from "~/db/columns";
import { db } from "~/platform/db.server";

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
