// Notifications: D1 is the record (notifications + user_notifications), the user's Durable
// Object only delivers (typed RPC: `userNotifier(id).push(message)`). Every write lands in D1
// first; pushes go out afterwards, off the response path, and a client that missed one catches
// up from D1 on (re)connect. See docs/decisions/0010-realtime-delivery.md.
//
// The module's facade, in parts: delivery.server.ts (pushes to the user's object, the fan-out and
// its queue consumer), inbox.server.ts (the person's list and read state), notify.server.ts (one
// user's notification, account decisions), broadcasts.server.ts (audiences, fan-out writes, the
// admin's broadcasts), socket.server.ts and privacy.server.ts.

export {
  DIRECT_FANOUT_MAX,
  FANOUT_CHUNK,
  FANOUT_STATEMENTS_PER_BATCH,
  PUSH_CONCURRENCY,
  PUSHES_PER_INVOCATION,
  PUSHES_PER_QUEUE_MESSAGE,
  QUEUE_FANOUT_THRESHOLD,
  QUEUE_MESSAGES_PER_SEND,
  consumeNotifyQueue,
  deliverDirect,
  deliverSlice,
  enqueuePushes,
  frameOf,
  inBackground,
  pushToUser,
  sendAccountEvent,
  type NotifyQueueMessage,
  type PushItem,
  type PushTrace,
} from "./delivery.server";
export { listNotifications, markAllRead, markRead } from "./inbox.server";
export { notifyAccountDecision, notifyUser, notifyUserQuietly, type NewNotification } from "./notify.server";
export {
  broadcastFiles,
  createNotification,
  recentBroadcasts,
  resolveAudience,
  sendBroadcast,
  type BroadcastFiles,
  type BroadcastResult,
  type FanOutResult,
  type RecentBroadcast,
  type Recipients,
} from "./broadcasts.server";
export * from "./socket.server";
export * from "./privacy.server";
