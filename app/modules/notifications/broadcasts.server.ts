import { and, count, desc, eq, not, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { notifications, userNotifications } from "~/db/schema";
import { invalid } from "~/lib/errors";
import { authorize, type Actor } from "~/lib/permissions";
import { isAdminUser, userIdsByEmail, userIdsWhere, type PersonColumns } from "~/modules/accounts/accounts.server";
import { IMAGE_MAX_BYTES, IMAGE_TYPES, VIDEO_MAX_BYTES, VIDEO_TYPES, checkUpload, putPrivateMedia, putPublicImage } from "~/modules/media/media.server";
import { auditQuery } from "~/platform/audit.server";
import { fact } from "~/platform/account-hooks.server";
import { db } from "~/platform/db.server";
import { devToolsEnabled } from "~/platform/env.server";
import {
  FANOUT_CHUNK,
  FANOUT_STATEMENTS_PER_BATCH,
  QUEUE_FANOUT_THRESHOLD,
  deliverDirect,
  enqueuePushes,
  frameOf,
  inBackground,
  type PushItem,
} from "./delivery.server";
import { videoUrlOf } from "./inbox.server";
import { audienceLabel, type Audience, type AudienceRole } from "./messages";
import { insertNotificationQuery, itemFor, type NewNotification } from "./notify.server";
import type { BroadcastInput } from "./schema";

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
