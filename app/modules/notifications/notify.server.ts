import { userNotifications, notifications } from "~/db/schema";
import { db } from "~/platform/db.server";
import { appName } from "~/platform/env.server";
import { pushToUser, sendAccountEvent } from "./delivery.server";
import { imageUrlOf, videoUrlOf } from "./inbox.server";
import type { AccountEvent, NotificationItem } from "./protocol";

// ---------------------------------------------------------------------------------------------
// Creating notifications
// ---------------------------------------------------------------------------------------------

export type NewNotification = {
  title: string;
  content: string;
  kind?: string;
  /** Key of a public image in AVATARS. */
  imageKey?: string | null;
  /** Key of a private video in MEDIA. */
  videoKey?: string | null;
  createdBy?: string | null;
};

export function insertNotificationQuery(id: string, n: NewNotification, audience: string) {
  return db()
    .insert(notifications)
    .values({
      id,
      title: n.title,
      content: n.content,
      imageUrl: n.imageKey ?? null,
      videoUrl: n.videoKey ?? null,
      kind: n.kind ?? "broadcast",
      audience,
      createdBy: n.createdBy ?? null,
    });
}

export function itemFor(row: { id: string; createdAt: string }, notificationId: string, n: NewNotification, videoUrl: string | null): NotificationItem {
  return {
    id: row.id,
    notificationId,
    title: n.title,
    content: n.content,
    imageUrl: imageUrlOf(n.imageKey ?? null),
    videoUrl,
    kind: n.kind ?? "broadcast",
    isRead: false,
    readAt: null,
    createdAt: row.createdAt,
  };
}

/**
 * One notification for one user: written to D1 (one batch), then pushed to their open tabs.
 * The helper other areas call (approvals, bans, channel verification, music reviews…).
 */
export async function notifyUser(userId: string, n: NewNotification): Promise<NotificationItem> {
  const notification = { kind: "info", ...n };
  const notificationId = crypto.randomUUID();
  const [, [inserted]] = await db().batch([
    insertNotificationQuery(notificationId, notification, "user"),
    db()
      .insert(userNotifications)
      .values({ id: crypto.randomUUID(), userId, notificationId })
      .returning({ id: userNotifications.id, createdAt: userNotifications.createdAt }),
  ]);
  if (!inserted) throw new Error("user notification insert returned no row");
  const item = itemFor(inserted, notificationId, notification, await videoUrlOf(n.videoKey ?? null));
  await pushToUser(userId, { type: "notification", notification: item });
  return item;
}

/**
 * The bell after a change that is already recorded (and audited): a failure here is logged, not
 * thrown, so that a missing bell entry never turns a done change into an error.
 */
export async function notifyUserQuietly(userId: string, n: NewNotification): Promise<void> {
  try {
    await notifyUser(userId, n);
  } catch (error) {
    console.error(`${n.kind ?? "info"} notification failed`, error);
  }
}

const DECISION_TEXT: Record<AccountEvent, { title: string; content: (reason: string | null) => string }> = {
  approved: {
    title: "Account approved",
    content: () => `Your account has been approved. Welcome to ${appName()}!`,
  },
  rejected: {
    title: "Account not approved",
    content: (reason) => `Your account application was not approved.${reason ? ` Reason: ${reason}` : ""}`,
  },
  banned: {
    title: "Account banned",
    content: (reason) => `Your account has been banned.${reason ? ` Reason: ${reason}` : ""}`,
  },
  unbanned: {
    title: "Account restored",
    content: () => "The ban on your account has been lifted. You can sign in again.",
  },
};

/**
 * An admin's decision on an account: stored as a notification, then sent as an account event,
 * so an open /pending-approval tab moves into the app at once and a banned user's tab signs out.
 */
export async function notifyAccountDecision(userId: string, decision: AccountEvent, reason?: string | null): Promise<void> {
  const text = DECISION_TEXT[decision];
  await notifyUserQuietly(userId, { title: text.title, content: text.content(reason ?? null), kind: `account_${decision}` });
  await sendAccountEvent(userId, decision, reason ?? null);
}
