import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { bool, createdAt } from "./shared";
import { users } from "./accounts";

// ---------------------------------------------------------------------------------------------
// Notifications
// ---------------------------------------------------------------------------------------------

export const notifications = sqliteTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    // Key in AVATARS (public) and in MEDIA (served through signed URLs).
    imageUrl: text("image_url"),
    videoUrl: text("video_url"),
    // 'broadcast' from an admin, or an account event (approval, rejection, ban, verification…).
    kind: text("kind").notNull().default("broadcast"),
    // Who it was sent to: 'all', 'role:<kind>', 'users', or 'user' for account events.
    audience: text("audience").notNull().default("user"),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("notifications_created_idx").on(t.createdAt)],
);

export const userNotifications = sqliteTable(
  "user_notifications",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    notificationId: text("notification_id")
      .notNull()
      .references(() => notifications.id, { onDelete: "cascade" }),
    isRead: bool("is_read"),
    readAt: text("read_at"),
    createdAt: createdAt(),
  },
  (t) => [index("user_notifications_user_created_idx").on(t.userId, t.createdAt), index("user_notifications_user_unread_idx").on(t.userId, t.isRead)],
);
