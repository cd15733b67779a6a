import { exports as loopback, waitUntil } from "cloudflare:workers";
import { and, count, desc, eq, gte, lte, not, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { notifications, userNotifications } from "~/db/schema";
import { invalid } from "~/lib/errors";
import { authorize, type Actor } from "~/lib/permissions";
import { isAdminUser, userIdsByEmail, userIdsWhere, type PersonColumns } from "~/modules/accounts/accounts.server";
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
import { auditQuery } from "~/platform/audit.server";
import { fact } from "~/platform/account-hooks.server";
import { db } from "~/platform/db.server";
import { appName, devToolsEnabled, env } from "~/platform/env.server";
import { userNotifier } from "~/platform/realtime.server";
import { NOTIFICATIONS_PAGE_SIZE, type NotificationList } from "./notifications";
import type { AccountEvent, NotificationItem, SocketMessage } from "./protocol";
import { audienceLabel, type Audience, type AudienceRole } from "./messages";
import type { BroadcastInput } from "./schema";

export * from "./socket.server";

// Notifications: D1 is the record (notifications + user_notifications), the user's Durable
// Object only delivers (typed RPC: `userNotifier(id).push(message)`). Every write lands in D1
// first; pushes go out afterwards, off the response path, and a client that missed one catches
// up from D1 on (re)connect. See docs/decisions/0010-realtime-delivery.md.

/** Rows written per INSERT … SELECT statement of a fan-out. */
export const FANOUT_CHUNK = 500;
/** Statements per D1 batch (one transaction) of a fan-out: 10,000 rows per batch. */
export const FANOUT_STATEMENTS_PER_BATCH = 20;
/**
 * Durable Object calls one invocation makes for a fan-out. Each push is one RPC to a user's object,
 * a subrequest to a Cloudflare service: Cloudflare documents at least 1,000 of those per invocation
 * on every plan (Free: 1,000 to Cloudflare services; Paid: 10,000 by default), and the invocation's
 * own D1 and R2 calls count too. 500 leaves room for them. See docs/decisions/0088.
 */
export const PUSHES_PER_INVOCATION = 500;
/**
 * Pushes in flight at once within one invocation (most wait on an object waking): all of a slice.
 * 50 was measured against 500 (docs/decisions/0090): no better p99, warm or from hibernation.
 */
export const PUSH_CONCURRENCY = PUSHES_PER_INVOCATION;
/**
 * Audiences up to this size skip the queue: the request's waitUntil pushes the first
 * PUSHES_PER_INVOCATION itself and hands every further slice to an invocation of its own
 * (`NotifyFanOut`, workers/notify-fan-out.ts, through the loopback binding), all at once. A
 * service binding chain allows 32 invocations per request; 5,000 recipients take 10.
 */
export const DIRECT_FANOUT_MAX = 5000;
/**
 * From this many recipients on, pushes go through the NOTIFY_QUEUE (a Queue consumer delivers
 * them in batches, with retries) instead of the request's waitUntil, which has a 30-second budget
 * and would not reach 100,000 users.
 */
export const QUEUE_FANOUT_THRESHOLD = DIRECT_FANOUT_MAX + 1;
/**
 * Pushes per queue message (each is a few hundred bytes; a message may hold 128 KB). The consumer
 * delivers a batch's messages at once: max_batch_size (wrangler.toml, 10) × 50 = 500 Durable
 * Object calls per consumer invocation, within PUSHES_PER_INVOCATION.
 */
export const PUSHES_PER_QUEUE_MESSAGE = 50;
/** Messages per sendBatch call (at most 100 messages and 256 KB a call). */
export const QUEUE_MESSAGES_PER_SEND = 4;

/**
 * Delivery timestamps (epoch ms) for `npm run bench:notifications`, only in devtools builds with
 * DEV_TOOLS=1: D1 writes done, push sent to the object (after the queue, if any); the object adds
 * when it got the push. The browser's parser drops the field (protocol.ts reads known keys only).
 */
export type PushTrace = { d1DoneAt: number; pushAt?: number };
/**
 * One push of a fan-out: the frame is the message already serialized (`frameOf`), so neither the
 * slice's invocation nor the queue nor the user's object serializes it again (docs/decisions/0090).
 */
export type PushItem = { userId: string; frame: string; trace?: PushTrace };
export type NotifyQueueMessage = { type: "push"; pushes: PushItem[] };

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

// ---------------------------------------------------------------------------------------------
// Delivery through the user's Durable Object (RPC)
// ---------------------------------------------------------------------------------------------

/** A message as the text frame the sockets get (the object sends it as it is). */
export function frameOf(message: SocketMessage): string {
  return JSON.stringify(message);
}

/** Sends one message (or its frame, see `frameOf`) to every open socket of the user. Never throws: D1 already holds the record. */
export async function pushToUser(userId: string, message: SocketMessage | string, trace?: PushTrace): Promise<number> {
  const frame = typeof message === "string" ? message : frameOf(message);
  try {
    return await (trace ? userNotifier(userId).pushFrame(frame, { ...trace, pushAt: Date.now() }) : userNotifier(userId).pushFrame(frame));
  } catch (error) {
    console.error("notification push failed", error);
    return 0;
  }
}

/** Sends an account event (approved, rejected, banned, unbanned) to the user's open tabs. */
export async function sendAccountEvent(userId: string, event: AccountEvent, reason: string | null = null): Promise<void> {
  try {
    await userNotifier(userId).accountEvent(event, reason);
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

async function pushAll(items: PushItem[], concurrency = PUSH_CONCURRENCY): Promise<number> {
  let next = 0;
  let delivered = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      if (!item) break;
      // A queue message written before pushes carried frames (a deploy during a large fan-out) has the message instead.
      const frame = item.frame ?? frameOf((item as { message?: SocketMessage }).message as SocketMessage);
      // Not `delivered += await …`: that reads `delivered` before the await and loses the other workers' counts.
      const sockets = await pushToUser(item.userId, frame, item.trace);
      delivered += sockets;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return delivered;
}

function slicesOf<T>(items: T[], size: number): T[][] {
  const slices: T[][] = [];
  for (let i = 0; i < items.length; i += size) slices.push(items.slice(i, i + size));
  return slices;
}

/**
 * One slice of a fan-out, in the invocation that runs it (the request's waitUntil or a
 * `NotifyFanOut` invocation). Refuses more than PUSHES_PER_INVOCATION, so no invocation passes
 * the subrequest budget. Each item is pushed once; pushToUser never throws.
 */
export async function deliverSlice(pushes: PushItem[]): Promise<number> {
  if (!Array.isArray(pushes) || pushes.length > PUSHES_PER_INVOCATION) {
    throw new Error(`a fan-out slice holds at most ${PUSHES_PER_INVOCATION} pushes`);
  }
  return pushAll(pushes);
}

type FanOutEntrypoint = { deliver(pushes: PushItem[]): Promise<number> };

/** The Worker's own `NotifyFanOut` entrypoint (workers/notify-fan-out.ts), when the runtime offers loopback bindings. */
function fanOutEntrypoint(): FanOutEntrypoint | null {
  try {
    return (loopback as unknown as { NotifyFanOut?: FanOutEntrypoint } | undefined)?.NotifyFanOut ?? null;
  } catch {
    return null;
  }
}

/**
 * A fan-out of up to DIRECT_FANOUT_MAX pushes without the queue: the first slice in this
 * invocation, every other slice in an invocation of its own, all at the same time. Every push
 * is in exactly one slice. A slice whose invocation cannot run (no loopback binding, or the call
 * fails) goes to the queue instead: delivered late rather than lost; should an invocation fail
 * after sending some of its pushes, those users get the same row again, which the client drops
 * (notification-bell keeps one item per id).
 */
export async function deliverDirect(pushes: PushItem[], sliceSize = PUSHES_PER_INVOCATION): Promise<{ delivered: number; slices: number; queued: number }> {
  const [own = [], ...others] = slicesOf(pushes, Math.min(Math.max(1, sliceSize), PUSHES_PER_INVOCATION));
  // Let the request finish its response first: started at once, the calls' synchronous part (and,
  // locally, the objects waking on the same thread) held the admin's answer back by up to seconds.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const entry = others.length > 0 ? fanOutEntrypoint() : null;
  let queued = 0;
  const counts = await Promise.all([
    pushAll(own),
    ...others.map(async (slice) => {
      try {
        if (!entry) throw new Error("no loopback binding for NotifyFanOut");
        return await entry.deliver(slice);
      } catch (error) {
        console.error("fan-out slice failed, handing it to the queue", error);
        queued += await enqueuePushes(slice);
        return 0;
      }
    }),
  ]);
  return { delivered: counts.reduce((a, b) => a + b, 0), slices: 1 + others.length, queued };
}

/** Hands pushes to the queue in messages of PUSHES_PER_QUEUE_MESSAGE; returns messages sent. */
export async function enqueuePushes(items: PushItem[]): Promise<number> {
  const messages = slicesOf(items, PUSHES_PER_QUEUE_MESSAGE).map((pushes) => ({ body: { type: "push", pushes } satisfies NotifyQueueMessage }));
  for (let i = 0; i < messages.length; i += QUEUE_MESSAGES_PER_SEND) {
    await env.NOTIFY_QUEUE.sendBatch(messages.slice(i, i + QUEUE_MESSAGES_PER_SEND));
  }
  return messages.length;
}

/**
 * The queue consumer (workers/app.ts `queue()`): delivers the messages of a batch at the same
 * time (a batch holds at most max_batch_size × PUSHES_PER_QUEUE_MESSAGE pushes, see above), each
 * acked once its pushes went out. A message whose delivery throws is retried (up to max_retries);
 * D1 already holds every notification, so a push that is finally dropped is still caught up by
 * the client on its next (re)connect.
 */
export async function consumeNotifyQueue(batch: MessageBatch<NotifyQueueMessage>): Promise<{ delivered: number }> {
  const counts = await Promise.all(
    batch.messages.map(async (msg) => {
      try {
        const delivered = msg.body?.type === "push" ? await pushAll(msg.body.pushes) : 0;
        msg.ack();
        return delivered;
      } catch (error) {
        console.error("notify queue delivery failed", error);
        msg.retry();
        return 0;
      }
    }),
  );
  return { delivered: counts.reduce((a, b) => a + b, 0) };
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

function insertNotificationQuery(id: string, n: NewNotification, audience: string) {
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

function itemFor(row: { id: string; createdAt: string }, notificationId: string, n: NewNotification, videoUrl: string | null): NotificationItem {
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

// ---------------------------------------------------------------------------------------------
// Broadcast: fan-out to an audience in batches
// ---------------------------------------------------------------------------------------------

export type Recipients = Audience | { type: "ids"; userIds: string[] };

// Who each kind of user is, from the owners' named predicates (accounts: isAdminUser; clipping's
// isActiveClipper and agencies' managesActiveAgency, facts they provide through
// app/platform/account-hooks.server.ts, since both domains build on this one). A person can hold several kinds; 'creators'
// means approved accounts that are none of the others. Banned users receive no broadcast
// (userIdsWhere leaves them out).
const KIND: Record<AudienceRole, (p: PersonColumns) => SQL | undefined> = {
  creators: (p) =>
    and(
      eq(p.approvalStatus, "approved"),
      eq(p.isMusicPartner, false),
      not(isAdminUser(p.userId)),
      not(fact("isActiveClipper")(p.userId)),
      not(fact("managesActiveAgency")(p.userId)),
    ),
  clippers: (p) => and(eq(p.approvalStatus, "approved"), fact("isActiveClipper")(p.userId)),
  "music-partners": (p) => and(eq(p.approvalStatus, "approved"), eq(p.isMusicPartner, true)),
  "agency-managers": (p) => fact("managesActiveAgency")(p.userId),
  admins: (p) => isAdminUser(p.userId),
  pending: (p) => and(eq(p.approvalStatus, "pending"), not(isAdminUser(p.userId))),
};

/** The user ids an audience reaches (never banned users), in id order. */
export async function resolveAudience(audience: Recipients): Promise<string[]> {
  switch (audience.type) {
    case "all":
      return userIdsWhere(() => undefined);
    case "ids":
      return userIdsWhere(() => undefined, { among: audience.userIds });
    case "users":
      return userIdsWhere(() => undefined, { among: [...(await userIdsByEmail(audience.emails)).values()] });
    case "role":
      return userIdsWhere(KIND[audience.role]);
  }
}

export type FanOutResult = {
  notificationId: string;
  recipients: number;
  /** Wall time of the D1 writes (notification, user rows, audit), in ms. */
  d1WriteMs: number;
};

// A v4-shaped UUID made inside SQLite, so a fan-out is one statement per chunk, not one per row.
const SQL_UUID = sql.raw(
  `lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))`,
);

/**
 * The user rows of one fan-out chunk: ONE statement for up to FANOUT_CHUNK recipients. Raw SQL
 * for the SELECT because drizzle cannot select from json_each (a table-valued function), and the
 * ids travel as one JSON parameter: a VALUES list would hit D1's 100 bound parameters per
 * statement. The SELECT gives every column of user_notifications, in the table's order.
 */
function fanOutChunkQuery(notificationId: string, userIds: string[]) {
  const createdAt = userNotifications.createdAt.default as SQL;
  return db()
    .insert(userNotifications)
    .select(sql`select ${SQL_UUID}, value, ${notificationId}, 0, null, ${createdAt} from json_each(${JSON.stringify(userIds)})`)
    .returning({ id: userNotifications.id, userId: userNotifications.userId, createdAt: userNotifications.createdAt });
}
type FanOutRow = { id: string; userId: string; createdAt: string };

/**
 * Creates one notification for many users. D1 first: the notification row (with `extra`
 * statements such as the audit record) and the first chunk of user rows in one batch, the rest
 * in batches of FANOUT_STATEMENTS_PER_BATCH × FANOUT_CHUNK rows (no per-row statement). Then the
 * pushes, so the response does not wait for them: up to DIRECT_FANOUT_MAX recipients in the
 * background (waitUntil), in slices of PUSHES_PER_INVOCATION sent at the same time (deliverDirect);
 * larger audiences through the queue.
 */
export async function createNotification(
  n: NewNotification,
  audience: Recipients,
  opts: {
    extra?: (recipients: number, notificationId: string) => BatchItem<"sqlite">[];
    audienceTag?: string;
    /** Recipients from which the pushes go through the queue (tests lower it). */
    queueThreshold?: number;
    /** Pushes per invocation of a direct fan-out (tests lower it; never above PUSHES_PER_INVOCATION). */
    sliceSize?: number;
  } = {},
): Promise<FanOutResult> {
  const userIds = await resolveAudience(audience);
  const notificationId = crypto.randomUUID();
  const tag = opts.audienceTag ?? (audience.type === "role" ? `role:${audience.role}` : audience.type === "all" ? "all" : "users");

  const chunks: string[][] = [];
  for (let i = 0; i < userIds.length; i += FANOUT_CHUNK) chunks.push(userIds.slice(i, i + FANOUT_CHUNK));

  const started = performance.now();
  const inserted: FanOutRow[] = [];
  const head: BatchItem<"sqlite">[] = [insertNotificationQuery(notificationId, n, tag), ...(opts.extra?.(userIds.length, notificationId) ?? [])];
  let first = true;
  for (let i = 0; i < Math.max(chunks.length, 1); i += FANOUT_STATEMENTS_PER_BATCH) {
    const group = chunks.slice(i, i + FANOUT_STATEMENTS_PER_BATCH).map((ids) => fanOutChunkQuery(notificationId, ids));
    const statements = (first ? [...head, ...group] : group) as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];
    const results = (await db().batch(statements)) as unknown[];
    for (const rows of results.slice(first ? head.length : 0)) inserted.push(...(rows as FanOutRow[]));
    first = false;
  }
  // performance.now() only advances across I/O in Workers, which is exactly what is measured here.
  const d1WriteMs = Math.round(performance.now() - started);
  const trace = __DEV_TOOLS_BUILD__ && devToolsEnabled() ? { d1DoneAt: Date.now() } : undefined;

  if (inserted.length > 0) {
    const videoUrl = await videoUrlOf(n.videoKey ?? null);
    const pushes = inserted.map(
      (row): PushItem => ({
        userId: row.userId,
        frame: frameOf({ type: "notification", notification: itemFor(row, notificationId, n, videoUrl) }),
        ...(trace ? { trace } : {}),
      }),
    );
    if (pushes.length >= (opts.queueThreshold ?? QUEUE_FANOUT_THRESHOLD)) await enqueuePushes(pushes);
    else inBackground(deliverDirect(pushes, opts.sliceSize));
  }
  return { notificationId, recipients: inserted.length, d1WriteMs };
}

export type BroadcastFiles = { image: File | null; video: File | null };

/** The optional image and video of the broadcast form (an empty file input counts as none). */
export function broadcastFiles(form: FormData): BroadcastFiles {
  const file = (name: string) => {
    const v = form.get(name);
    return v instanceof File && v.size > 0 ? v : null;
  };
  return { image: file("image"), video: file("video") };
}

export type BroadcastResult = { audience: string } & FanOutResult;

/**
 * An admin's broadcast: files checked by content and stored, e-mails checked against accounts,
 * then the fan-out with its audit record in the first batch. Invalid input throws a 400 with
 * per-field messages (title, content, emails, image, video) and stores nothing.
 */
export async function sendBroadcast(actor: Actor, input: BroadcastInput, files: BroadcastFiles, request: Request): Promise<BroadcastResult> {
  authorize(actor, "notification", "broadcast");
  const errors: Record<string, string> = {};
  const { image, video } = files;
  const imageCheck = image ? await checkUpload(image, IMAGE_TYPES, IMAGE_MAX_BYTES, "The image") : null;
  const videoCheck = video ? await checkUpload(video, VIDEO_TYPES, VIDEO_MAX_BYTES, "The video") : null;
  if (imageCheck && !imageCheck.ok) errors.image = imageCheck.error;
  if (videoCheck && !videoCheck.ok) errors.video = videoCheck.error;

  let recipients: Recipients = input.audience;
  if (input.audience.type === "users") {
    const known = await userIdsByEmail(input.audience.emails);
    const unknown = input.audience.emails.filter((e) => !known.has(e));
    if (unknown.length > 0) {
      errors.emails = `No account with this e-mail: ${unknown.slice(0, 3).join(", ")}${unknown.length > 3 ? "…" : ""}`;
    }
    recipients = { type: "ids", userIds: [...known.values()] };
  }
  const [firstError] = Object.values(errors);
  if (firstError !== undefined) throw invalid(firstError, { fieldErrors: errors });

  const imageKey = image && imageCheck?.ok ? await putPublicImage(image, imageCheck.type, "notifications") : null;
  const videoKey = video && videoCheck?.ok ? await putPrivateMedia(video, videoCheck.type, "notifications") : null;
  const label = audienceLabel(input.audience);
  const result = await createNotification(
    { title: input.title, content: input.content, kind: "broadcast", imageKey, videoKey, createdBy: actor.id },
    recipients,
    {
      audienceTag: input.audience.type === "role" ? `role:${input.audience.role}` : input.audience.type,
      extra: (count, notificationId) => [
        auditQuery({
          eventType: "notification_broadcast",
          severity: "medium",
          userId: actor.id,
          request,
          details: {
            notification_id: notificationId,
            audience: label,
            recipients: count,
            title: input.title,
            image: Boolean(imageKey),
            video: Boolean(videoKey),
          },
        }),
      ],
    },
  );
  return { audience: label, ...result };
}

export type RecentBroadcast = {
  id: string;
  title: string;
  /** 'all', 'role:<kind>' or 'users'. */
  audience: string;
  createdAt: string;
  recipients: number;
  read: number;
  hasImage: boolean;
  hasVideo: boolean;
};

/** The last ten broadcasts with how many received and read each, for /admin/broadcast. */
export async function recentBroadcasts(actor: Actor): Promise<RecentBroadcast[]> {
  authorize(actor, "notification", "broadcast");
  const countOf = (readOnly: boolean) =>
    db()
      .select({ n: count() })
      .from(userNotifications)
      .where(and(eq(userNotifications.notificationId, notifications.id), readOnly ? eq(userNotifications.isRead, true) : undefined));
  return db()
    .select({
      id: notifications.id,
      title: notifications.title,
      audience: notifications.audience,
      createdAt: notifications.createdAt,
      recipients: sql<number>`(${countOf(false)})`.mapWith(Number),
      read: sql<number>`(${countOf(true)})`.mapWith(Number),
      hasImage: sql<boolean>`${notifications.imageUrl} is not null`.mapWith(Boolean),
      hasVideo: sql<boolean>`${notifications.videoUrl} is not null`.mapWith(Boolean),
    })
    .from(notifications)
    .where(eq(notifications.kind, "broadcast"))
    .orderBy(desc(notifications.createdAt))
    .limit(10)
    .all();
}
export * from "./privacy.server";
