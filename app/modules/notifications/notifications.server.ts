import { waitUntil } from "cloudflare:workers";
import type { Audience, AudienceRole, BroadcastInput } from "./schema";
import { audienceLabel } from "./schema";
import { NOTIFICATIONS_PAGE_SIZE, type AccountEvent, type NotificationItem, type NotificationList, type SocketMessage } from "./notifications";
import { auditStatement } from "~/platform/audit.server";
import { appName, env } from "~/platform/env.server";
import {
  IMAGE_MAX_BYTES,
  IMAGE_TYPES,
  VIDEO_MAX_BYTES,
  VIDEO_TYPES,
  avatarUrl,
  checkUpload,
  isValidKey,
  putPrivateMedia,
  putPublicImage,
  signMediaUrl,
} from "~/modules/media/media.server";

// Notifications: D1 is the record (notifications + user_notifications), the user's Durable
// Object only delivers. Every write lands in D1 first; pushes go out afterwards, off the
// response path, and a client that missed one catches up from D1 on (re)connect.
// See docs/decisions/0010-realtime-delivery.md.

/** Rows written per INSERT … SELECT statement of a fan-out. */
export const FANOUT_CHUNK = 500;
/** Statements per D1 batch (one transaction) of a fan-out: 10,000 rows per batch. */
export const FANOUT_STATEMENTS_PER_BATCH = 20;
/** Pushes in flight at once while fanning out to Durable Objects (most wait on an object waking). */
export const PUSH_CONCURRENCY = 128;
/**
 * From this many recipients on, pushes go through the NOTIFY_QUEUE (a Queue consumer delivers
 * them in batches, with retries) instead of the request's waitUntil, which has a 30-second budget
 * and would not reach 100,000 users.
 */
export const QUEUE_FANOUT_THRESHOLD = 1000;
/** Pushes per queue message (each is a few hundred bytes; a message may hold 128 KB). */
export const PUSHES_PER_QUEUE_MESSAGE = 50;
/** Messages per sendBatch call (at most 100 messages and 256 KB a call). */
export const QUEUE_MESSAGES_PER_SEND = 4;

export type PushItem = { userId: string; message: SocketMessage };
export type NotifyQueueMessage = { type: "push"; pushes: PushItem[] };

// A v4-shaped UUID made inside SQLite, so a fan-out is one statement per chunk, not one per row.
const SQL_UUID = `lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))`;

type ListRow = {
  id: string;
  notification_id: string;
  is_read: number;
  read_at: string | null;
  created_at: string;
  title: string;
  content: string;
  image_url: string | null;
  video_url: string | null;
  kind: string;
};

const LIST_COLUMNS = `un.id, un.notification_id, un.is_read, un.read_at, un.created_at,
  n.title, n.content, n.image_url, n.video_url, n.kind`;

/** image_url holds an AVATARS key (or, from older rows, a full URL). */
function imageUrlOf(value: string | null): string | null {
  if (!value) return null;
  if (/^(https?:)?\/\//.test(value) || value.startsWith("/")) return value;
  return isValidKey(value) ? avatarUrl(value) : null;
}

/** video_url holds a MEDIA key; the client gets a URL signed for 3600 s. */
async function videoUrlOf(value: string | null): Promise<string | null> {
  if (!value || !isValidKey(value)) return null;
  return signMediaUrl(value);
}

async function toItem(row: ListRow): Promise<NotificationItem> {
  return {
    id: row.id,
    notificationId: row.notification_id,
    title: row.title,
    content: row.content,
    imageUrl: imageUrlOf(row.image_url),
    videoUrl: await videoUrlOf(row.video_url),
    kind: row.kind,
    isRead: row.is_read === 1,
    readAt: row.read_at,
    createdAt: row.created_at,
  };
}

// ---------------------------------------------------------------------------------------------
// Reading and marking (the user's own rows only)
// ---------------------------------------------------------------------------------------------

/**
 * The user's notifications, newest first, with the unread count. With `since` (an ISO time the
 * client already has), only rows created at or after it: the reconnect catch-up. Inclusive, so a
 * row sharing the last-seen millisecond is not skipped; the client drops ids it already has.
 */
export async function listNotifications(
  userId: string,
  opts: { since?: string | null; limit?: number } = {},
): Promise<NotificationList> {
  const limit = Math.min(Math.max(opts.limit ?? NOTIFICATIONS_PAGE_SIZE, 1), 200);
  const since = opts.since && !Number.isNaN(Date.parse(opts.since)) ? new Date(opts.since).toISOString() : null;
  const list = since
    ? env.DB.prepare(
        `SELECT ${LIST_COLUMNS} FROM user_notifications un JOIN notifications n ON n.id = un.notification_id
         WHERE un.user_id = ? AND un.created_at >= ? ORDER BY un.created_at DESC, un.id DESC LIMIT ?`,
      ).bind(userId, since, limit)
    : env.DB.prepare(
        `SELECT ${LIST_COLUMNS} FROM user_notifications un JOIN notifications n ON n.id = un.notification_id
         WHERE un.user_id = ? ORDER BY un.created_at DESC, un.id DESC LIMIT ?`,
      ).bind(userId, limit);
  const [rows, unread] = await env.DB.batch<ListRow | { n: number }>([
    list,
    env.DB.prepare("SELECT count(*) AS n FROM user_notifications WHERE user_id = ? AND is_read = 0").bind(userId),
  ]);
  const notifications = await Promise.all((rows.results as ListRow[]).map(toItem));
  return { notifications, unreadCount: (unread.results[0] as { n: number }).n };
}

export async function unreadCount(userId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM user_notifications WHERE user_id = ? AND is_read = 0")
    .bind(userId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Marks one of the user's own notifications read (sets read_at). False when it is not theirs or already read. */
export async function markRead(userId: string, id: string): Promise<boolean> {
  const readAt = new Date().toISOString();
  const result = await env.DB.prepare(
    "UPDATE user_notifications SET is_read = 1, read_at = ? WHERE id = ? AND user_id = ? AND is_read = 0",
  )
    .bind(readAt, id, userId)
    .run();
  const changed = result.meta.changes > 0;
  // Other open tabs of the same user follow (spec: update events on user_notifications).
  if (changed) await pushToUser(userId, { type: "read", ids: [id], readAt });
  return changed;
}

/**
 * Marks every unread notification of the user read in ONE write. With `before`, only rows
 * created up to that time (what the user saw), so one that arrives meanwhile stays unread.
 */
export async function markAllRead(userId: string, before?: string | null): Promise<number> {
  const readAt = new Date().toISOString();
  const cutoff = before && !Number.isNaN(Date.parse(before)) ? new Date(before).toISOString() : null;
  const result = await (cutoff
    ? env.DB.prepare(
        "UPDATE user_notifications SET is_read = 1, read_at = ? WHERE user_id = ? AND is_read = 0 AND created_at <= ?",
      ).bind(readAt, userId, cutoff)
    : env.DB.prepare("UPDATE user_notifications SET is_read = 1, read_at = ? WHERE user_id = ? AND is_read = 0").bind(readAt, userId)
  ).run();
  if (result.meta.changes > 0) await pushToUser(userId, { type: "read", ids: "all", readAt, before: cutoff });
  return result.meta.changes;
}

// ---------------------------------------------------------------------------------------------
// Delivery through the user's Durable Object
// ---------------------------------------------------------------------------------------------

function notifier(userId: string) {
  return env.USER_NOTIFIER.get(env.USER_NOTIFIER.idFromName(userId));
}

/** Sends one message to every open socket of the user. Never throws: D1 already holds the record. */
export async function pushToUser(userId: string, message: SocketMessage): Promise<number> {
  try {
    const res = await notifier(userId).fetch("https://notifier/push", { method: "POST", body: JSON.stringify(message) });
    const body = (await res.json()) as { delivered?: number };
    return body.delivered ?? 0;
  } catch (error) {
    console.error("notification push failed", error);
    return 0;
  }
}

/** Sends an account event (approved, rejected, banned, unbanned) to the user's open tabs. */
export async function sendAccountEvent(
  userId: string,
  event: { type: AccountEvent; reason?: string | null } | AccountEvent,
): Promise<void> {
  const body = typeof event === "string" ? { type: event } : event;
  try {
    await notifier(userId).fetch("https://notifier/account-event", { method: "POST", body: JSON.stringify(body) });
  } catch (error) {
    console.error("account event push failed", error);
  }
}

/** Runs work after the response is sent (the request's waitUntil), or inline outside a request. */
export function inBackground(work: Promise<unknown>): void {
  const guarded = work.catch((error) => console.error("background work failed", error));
  try {
    waitUntil(guarded);
  } catch {
    // Not inside a request (e.g. a script): the promise still runs to completion.
  }
}

async function pushAll(items: { userId: string; message: SocketMessage }[], concurrency = PUSH_CONCURRENCY): Promise<number> {
  let next = 0;
  let delivered = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      const count = await pushToUser(item.userId, item.message);
      delivered += count;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return delivered;
}

/** Hands pushes to the queue in messages of PUSHES_PER_QUEUE_MESSAGE; returns messages sent. */
export async function enqueuePushes(items: PushItem[]): Promise<number> {
  const messages: { body: NotifyQueueMessage }[] = [];
  for (let i = 0; i < items.length; i += PUSHES_PER_QUEUE_MESSAGE) {
    messages.push({ body: { type: "push", pushes: items.slice(i, i + PUSHES_PER_QUEUE_MESSAGE) } });
  }
  for (let i = 0; i < messages.length; i += QUEUE_MESSAGES_PER_SEND) {
    await env.NOTIFY_QUEUE.sendBatch(messages.slice(i, i + QUEUE_MESSAGES_PER_SEND));
  }
  return messages.length;
}

/**
 * The queue consumer: delivers each message's pushes through the users' objects. A message whose
 * delivery throws is retried (up to max_retries); D1 already holds every notification, so a
 * push that is finally dropped is still caught up by the client on its next (re)connect.
 */
export async function consumeNotifyQueue(batch: MessageBatch<NotifyQueueMessage>): Promise<{ delivered: number }> {
  let delivered = 0;
  for (const msg of batch.messages) {
    try {
      if (msg.body?.type === "push") delivered += await pushAll(msg.body.pushes);
      msg.ack();
    } catch (error) {
      console.error("notify queue delivery failed", error);
      msg.retry();
    }
  }
  return { delivered };
}

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

function insertNotification(id: string, n: NewNotification, audience: string): D1PreparedStatement {
  return env.DB.prepare(
    `INSERT INTO notifications (id, title, content, image_url, video_url, kind, audience, created_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).bind(id, n.title, n.content, n.imageKey ?? null, n.videoKey ?? null, n.kind ?? "broadcast", audience, n.createdBy ?? null);
}

async function itemFor(
  row: { id: string; created_at: string },
  notificationId: string,
  n: NewNotification,
  videoUrl: string | null,
): Promise<NotificationItem> {
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
    createdAt: row.created_at,
  };
}

/**
 * One notification for one user: written to D1 (one batch), then pushed to their open tabs.
 * The helper other areas call (approvals, bans, channel verification, music reviews…).
 */
export async function notifyUser(
  userId: string,
  n: { title: string; content: string; kind?: string; imageKey?: string | null; videoKey?: string | null; createdBy?: string | null },
): Promise<NotificationItem> {
  const notificationId = crypto.randomUUID();
  const userNotificationId = crypto.randomUUID();
  const [, inserted] = await env.DB.batch<{ id: string; created_at: string }>([
    insertNotification(notificationId, { kind: "info", ...n }, "user"),
    env.DB.prepare(
      "INSERT INTO user_notifications (id, user_id, notification_id) VALUES (?, ?, ?) RETURNING id, created_at",
    ).bind(userNotificationId, userId, notificationId),
  ]);
  const item = await itemFor(inserted.results[0], notificationId, { kind: "info", ...n }, await videoUrlOf(n.videoKey ?? null));
  await pushToUser(userId, { type: "notification", notification: item });
  return item;
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
export async function notifyAccountDecision(
  userId: string,
  decision: "approved" | "rejected" | "banned" | "unbanned",
  reason?: string | null,
): Promise<void> {
  const text = DECISION_TEXT[decision];
  try {
    await notifyUser(userId, { title: text.title, content: text.content(reason ?? null), kind: `account_${decision}` });
  } catch (error) {
    // The decision itself is already stored; a missing notification must not undo it.
    console.error("account decision notification failed", error);
  }
  await sendAccountEvent(userId, { type: decision, reason: reason ?? null });
}

// ---------------------------------------------------------------------------------------------
// Broadcast: fan-out to an audience in batches
// ---------------------------------------------------------------------------------------------

/** Recipients of each audience, from profiles. Banned users receive no broadcast. */
function audiencePredicate(audience: Audience | { type: "ids"; userIds: string[] }): { sql: string; params: unknown[] } {
  const notBanned = "p.is_banned = 0";
  switch (audience.type) {
    case "all":
      return { sql: notBanned, params: [] };
    case "ids":
      return { sql: `${notBanned} AND p.user_id IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(audience.userIds)] };
    case "users":
      return {
        sql: `${notBanned} AND p.user_id IN (SELECT u.id FROM users u WHERE u.email IN (SELECT value FROM json_each(?)))`,
        params: [JSON.stringify(audience.emails)],
      };
    case "role":
      return { sql: `${notBanned} AND ${ROLE_SQL[audience.role]}`, params: [] };
  }
}

const IS_ADMIN = "EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = p.user_id AND r.role = 'admin')";
const IS_CLIPPER = "EXISTS (SELECT 1 FROM clipper_links c WHERE c.clipper_user_id = p.user_id AND c.status = 'active')";
const IS_AGENCY_MANAGER = `(EXISTS (SELECT 1 FROM agency_users au JOIN agencies a ON a.id = au.agency_id
    WHERE au.user_id = p.user_id AND a.approval_status = 'approved' AND a.status = 'active')
  OR EXISTS (SELECT 1 FROM agencies a WHERE a.user_id = p.user_id AND a.approval_status = 'approved' AND a.status = 'active'))`;

// A person can hold several kinds; 'creators' means approved accounts that are none of the others.
const ROLE_SQL: Record<AudienceRole, string> = {
  creators: `p.approval_status = 'approved' AND p.is_music_partner = 0 AND NOT ${IS_ADMIN} AND NOT ${IS_CLIPPER} AND NOT ${IS_AGENCY_MANAGER}`,
  clippers: `p.approval_status = 'approved' AND ${IS_CLIPPER}`,
  "music-partners": `p.approval_status = 'approved' AND p.is_music_partner = 1`,
  "agency-managers": IS_AGENCY_MANAGER,
  admins: IS_ADMIN,
  pending: `p.approval_status = 'pending' AND NOT ${IS_ADMIN}`,
};

/** The user ids an audience reaches, in id order. */
export async function resolveAudience(audience: Audience | { type: "ids"; userIds: string[] }): Promise<string[]> {
  const { sql, params } = audiencePredicate(audience);
  const { results } = await env.DB.prepare(`SELECT p.user_id FROM profiles p WHERE ${sql} ORDER BY p.user_id`)
    .bind(...params)
    .all<{ user_id: string }>();
  return results.map((r) => r.user_id);
}

export type FanOutResult = {
  notificationId: string;
  recipients: number;
  /** Wall time of the D1 writes (notification, user rows, audit), in ms. */
  d1WriteMs: number;
};

/**
 * Creates one notification for many users. D1 first: the notification row (with `extra`
 * statements such as the audit record) and the first chunk of user rows in one batch, the rest
 * in batches of FANOUT_STATEMENTS_PER_BATCH × FANOUT_CHUNK rows, each row made by an INSERT …
 * SELECT over json_each (no per-row statement, no 100-parameter limit). Then the pushes, in the
 * background (waitUntil), so the response does not wait for them.
 */
export async function createNotification(
  n: NewNotification,
  audience: Audience | { type: "ids"; userIds: string[] },
  opts: {
    extra?: (recipients: number, notificationId: string) => D1PreparedStatement[];
    audienceTag?: string;
    /** Recipients from which the pushes go through the queue (tests lower it). */
    queueThreshold?: number;
  } = {},
): Promise<FanOutResult> {
  const userIds = await resolveAudience(audience);
  const notificationId = crypto.randomUUID();
  const tag =
    opts.audienceTag ?? (audience.type === "role" ? `role:${audience.role}` : audience.type === "all" ? "all" : "users");

  const chunks: string[][] = [];
  for (let i = 0; i < userIds.length; i += FANOUT_CHUNK) chunks.push(userIds.slice(i, i + FANOUT_CHUNK));
  const chunkStatement = (ids: string[]) =>
    env.DB.prepare(
      `INSERT INTO user_notifications (id, user_id, notification_id)
       SELECT ${SQL_UUID}, value, ? FROM json_each(?) RETURNING id, user_id, created_at`,
    ).bind(notificationId, JSON.stringify(ids));

  const started = performance.now();
  const inserted: { id: string; user_id: string; created_at: string }[] = [];
  const head = [insertNotification(notificationId, n, tag), ...(opts.extra?.(userIds.length, notificationId) ?? [])];
  let first = true;
  for (let i = 0; i < Math.max(chunks.length, 1); i += FANOUT_STATEMENTS_PER_BATCH) {
    const group = chunks.slice(i, i + FANOUT_STATEMENTS_PER_BATCH).map(chunkStatement);
    const statements = first ? [...head, ...group] : group;
    const results = await env.DB.batch<{ id: string; user_id: string; created_at: string }>(statements);
    for (const r of results.slice(first ? head.length : 0)) inserted.push(...r.results);
    first = false;
  }
  // performance.now() only advances across I/O in Workers, which is exactly what is measured here.
  const d1WriteMs = Math.round(performance.now() - started);

  if (inserted.length > 0) {
    const videoUrl = await videoUrlOf(n.videoKey ?? null);
    const messages = await Promise.all(
      inserted.map(async (row) => ({
        userId: row.user_id,
        message: { type: "notification", notification: await itemFor(row, notificationId, n, videoUrl) } as SocketMessage,
      })),
    );
    if (messages.length >= (opts.queueThreshold ?? QUEUE_FANOUT_THRESHOLD)) await enqueuePushes(messages);
    else inBackground(pushAll(messages));
  }
  return { notificationId, recipients: inserted.length, d1WriteMs };
}

export type BroadcastFiles = { image?: File | null; video?: File | null };

/** The text fields of a multipart form (files left out), for the zod schema. */
export function formFields(form: FormData): Record<string, string> {
  return Object.fromEntries([...form].filter((e): e is [string, string] => typeof e[1] === "string"));
}

export function broadcastFiles(form: FormData): BroadcastFiles {
  const file = (name: string) => {
    const v = form.get(name);
    return v instanceof File && v.size > 0 ? v : null;
  };
  return { image: file("image"), video: file("video") };
}

export type BroadcastOutcome =
  | ({ ok: true; audience: string } & FanOutResult)
  | { ok: false; status: number; errors: Record<string, string> };

/** An admin's broadcast: files checked by content and stored, then the fan-out, audit-logged. */
export async function sendBroadcast(
  request: Request,
  adminId: string,
  input: BroadcastInput,
  files: BroadcastFiles,
): Promise<BroadcastOutcome> {
  const errors: Record<string, string> = {};
  const image = files.image && files.image.size > 0 ? files.image : null;
  const video = files.video && files.video.size > 0 ? files.video : null;
  const imageCheck = image ? await checkUpload(image, IMAGE_TYPES, IMAGE_MAX_BYTES, "The image") : null;
  const videoCheck = video ? await checkUpload(video, VIDEO_TYPES, VIDEO_MAX_BYTES, "The video") : null;
  if (imageCheck && !imageCheck.ok) errors.image = imageCheck.error;
  if (videoCheck && !videoCheck.ok) errors.video = videoCheck.error;

  if (input.audience.type === "users") {
    const { results } = await env.DB.prepare("SELECT email FROM users WHERE email IN (SELECT value FROM json_each(?))")
      .bind(JSON.stringify(input.audience.emails))
      .all<{ email: string }>();
    const known = new Set(results.map((r) => r.email));
    const unknown = input.audience.emails.filter((e) => !known.has(e));
    if (unknown.length > 0) errors.emails = `No account with this e-mail: ${unknown.slice(0, 3).join(", ")}${unknown.length > 3 ? "…" : ""}`;
  }
  if (Object.keys(errors).length > 0) return { ok: false, status: 400, errors };

  const imageKey = image && imageCheck?.ok ? await putPublicImage(image, imageCheck.type, "notifications") : null;
  const videoKey = video && videoCheck?.ok ? await putPrivateMedia(video, videoCheck.type, "notifications") : null;
  const label = audienceLabel(input.audience);
  const result = await createNotification(
    { title: input.title, content: input.content, kind: "broadcast", imageKey, videoKey, createdBy: adminId },
    input.audience,
    {
      extra: (recipients, notificationId) => [
        auditStatement({
          eventType: "notification_broadcast",
          severity: "medium",
          userId: adminId,
          request,
          details: {
            notification_id: notificationId,
            audience: label,
            recipients,
            title: input.title,
            image: Boolean(imageKey),
            video: Boolean(videoKey),
          },
        }),
      ],
    },
  );
  return { ok: true, audience: label, ...result };
}
