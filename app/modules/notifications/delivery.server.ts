import { exports as loopback, waitUntil } from "cloudflare:workers";
import { env } from "~/platform/env.server";
import { userNotifier } from "~/platform/realtime.server";
import type { AccountEvent, SocketMessage } from "./protocol";

// Delivery of notifications to the user's Durable Object (typed RPC: `userNotifier(id).push(message)`):
// one push, and the fan-out of many, directly or through the NOTIFY_QUEUE. D1 already holds every
// record when these run (see notifications.server.ts and docs/decisions/0010-realtime-delivery.md).

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
