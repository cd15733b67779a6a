import { DurableObject } from "cloudflare:workers";
import { socketSessionState } from "../app/modules/accounts/accounts.server";
import { CHAT_RATE_LIMIT, CHAT_RATE_WINDOW_MS } from "../app/modules/chat/messages";
import {
  CHAT_CLOSE_BANNED,
  CHAT_CLOSE_SESSION_ENDED,
  CHAT_PING,
  CHAT_PONG,
  CHAT_TYPING,
  TYPING_RELAY_MIN_MS,
  type ChatMessageItem,
  type ChatRoomState,
  type ChatSocketMessage,
} from "../app/modules/chat/protocol";
import { maxSeqOf, mayPostIn, socketIdentityOf, storeMessage } from "../app/modules/chat/chat.server";
import type { RoomPost, RoomPostResult } from "../app/modules/chat/types";
import { answerClose, closeQuietly, openCount, sendFrame, tooManySockets } from "./hibernating-sockets";

// One object per chat room (idFromName(roomId)): it orders the room's messages (seq), counts each
// member's send rate, stores the message in D1 (the record) and fans it out to every open socket.
//
// Nothing that matters lives only in memory: the next seq and the send-rate timestamps are in the
// object's storage (written before the message is stored and delivered), the sockets' identities
// in their attachments (hibernation API). An object evicted or redeployed resumes numbering after
// the last seq and keeps counting the rate; history is read from D1. Only the typing indicator's
// throttle and its cached "may post" answers live in memory: losing them costs one extra relay or
// one D1 read (decision 0298).
//
// Callers use its typed RPC methods (`chatRoom(id).post(...)`, app/modules/chat/room-object.server.ts);
// only the WebSocket upgrade comes through fetch(), built by the worker after it checked Origin,
// session, approval, ban and room, so the identity headers cannot come from a browser.
// See docs/decisions/0160.

export type ChatSocketAttachment = {
  userId: string;
  sessionId: string;
  roomId: string;
  connectedAt: string;
  /** Shown to the others in "… is typing" (decision 0247); absent on sockets opened before it. */
  name?: string;
  isAdmin?: boolean;
};

/** One person's open sockets to one room (decision 0298): the next upgrade is refused with a 429. */
export const SOCKETS_PER_PERSON = 10;

/** How long D1's answer to "may this person post here?" stands for the typing relay (decision 0298). */
const MAY_POST_FOR_MS = 30_000;

const SESSION_CHECK_MAX_MS = 6 * 60 * 60 * 1000;

/** Presence changes are sent at most this often (500 sockets opening must not send 250,000 frames). */
const PRESENCE_DELAY_MS = 250;

export class ChatRoom extends DurableObject<Env> {
  /** The last seq handed out (mirrors storage "seq"; null until loaded). */
  private seqValue: number | null = null;
  private seqLoading: Promise<void> | null = null;
  /** Each author's send times in the window, loaded from storage once (written back after each stored message). */
  private rates = new Map<string, number[]>();
  private presenceTimer: ReturnType<typeof setTimeout> | null = null;
  /**
   * When each person's last "typing" was taken (ms), whichever of their sockets it came on: the
   * relay's throttle per person (decision 0298). In memory only: the runtime hibernates the object
   * after 10 s without an event, long after an entry's 2 s have run out
   * (https://developers.cloudflare.com/durable-objects/concepts/durable-object-lifecycle/).
   */
  private typingAt = new Map<string, number>();
  /** D1's last answer to "may this person post here?" (mayPostIn), for MAY_POST_FOR_MS; dropped when a mute or the room changes. */
  private mayPost = new Map<string, { at: number; isAdmin: boolean; may: boolean }>();
  /** Bumped whenever mayPost is dropped: an answer read before the change is not kept. */
  private rulesVersion = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(CHAT_PING, CHAT_PONG));
  }

  /** The WebSocket upgrade only (built by app/modules/chat/socket.server.ts). */
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("Expected a WebSocket upgrade", { status: 426 });
    const who = socketIdentityOf(request);
    if (!who) return new Response("Missing identity", { status: 400 });
    const { userId, sessionId, roomId } = who;
    // The cap per person (decision 0298), checked and taken with no await between: two upgrades at once cannot both take the last place.
    if (openCount(this.ctx.getWebSockets(`u:${userId}`)) >= SOCKETS_PER_PERSON) return tooManySockets(SOCKETS_PER_PERSON);
    const { 0: client, 1: server } = new WebSocketPair();
    // Tagged with the user and the session: a user's sockets are found without reading them all.
    this.ctx.acceptWebSocket(server, [`u:${userId}`, `s:${sessionId}`]);
    const attachment: ChatSocketAttachment = {
      userId,
      sessionId,
      roomId,
      connectedAt: new Date().toISOString(),
      name: who.name,
      isAdmin: who.isAdmin,
    };
    server.serializeAttachment(attachment);
    server.send(JSON.stringify({ type: "presence", count: this.presence() } satisfies ChatSocketMessage));
    this.schedulePresence();
    const endsAt = Date.parse(who.sessionEndsAt);
    await this.scheduleSessionCheck(Number.isFinite(endsAt) ? endsAt : Date.now() + SESSION_CHECK_MAX_MS);
    return new Response(null, { status: 101, webSocket: client });
  }

  // -------------------------------------------------------------------------------------------
  // RPC
  // -------------------------------------------------------------------------------------------

  /**
   * A message: counts the author's rate (5 per 10 s), takes the next seq, writes the message to D1
   * with one INSERT that also holds the room's rules (room open, announcements, mutes), stores the
   * count and the seq in the object's storage and sends the message to every socket. The result
   * says why when it was not sent; a refused message is not counted.
   */
  async post(post: RoomPost): Promise<RoomPostResult> {
    await this.loadSeq(post.roomId);
    const recent = await this.recentSends(post.userId);
    // From here to the storage write nothing awaits: the check, the count and the seq are one step.
    const now = Date.now();
    while (recent.length > 0 && now - (recent[0] ?? now) >= CHAT_RATE_WINDOW_MS) recent.shift();
    const [oldest] = recent;
    if (oldest !== undefined && recent.length >= CHAT_RATE_LIMIT) return { ok: false, code: "rate_limited", retryAfterMs: oldest + CHAT_RATE_WINDOW_MS - now };
    recent.push(now);
    // Taken synchronously: two posts in flight never get the same number.
    const seq = (this.seqValue ?? 0) + 1;
    this.seqValue = seq;

    let row: Awaited<ReturnType<typeof storeMessage>>;
    try {
      row = await storeMessage(post, seq);
    } catch (error) {
      recent.splice(recent.indexOf(now), 1);
      // The same message id twice (a retried send): the first one stands.
      if (/UNIQUE constraint failed: chat_messages\.id/i.test(`${String(error)} ${String((error as { cause?: unknown })?.cause ?? "")}`)) {
        return { ok: false, code: "duplicate" };
      }
      throw error;
    }
    if (!row) {
      // Refused by the room's rules (archived, announcements, muted, no such room): not counted.
      recent.splice(recent.indexOf(now), 1);
      return { ok: false, code: "refused" };
    }
    // Persisted before the answer leaves (output gate): the next seq (the highest handed out) and the count.
    this.ctx.storage.put<number[] | number>({ [`rate:${post.userId}`]: recent, seq: this.seqValue ?? seq });
    const message: ChatMessageItem = {
      id: row.id,
      roomId: row.roomId,
      seq: row.seq,
      userId: row.userId,
      authorName: post.authorName,
      authorAvatarUrl: post.authorAvatarUrl,
      body: row.body,
      mentions: post.mentions,
      createdAt: row.createdAt,
      editedAt: null,
    };
    const frame: ChatSocketMessage = post.trace ? { type: "message", message, trace: { ...post.trace, doAt: Date.now() } } : { type: "message", message };
    this.send(JSON.stringify(frame));
    return { ok: true, message };
  }

  /** An edit stored in D1: every socket replaces the message. */
  edited(message: ChatMessageItem): number {
    return this.send(JSON.stringify({ type: "edited", message } satisfies ChatSocketMessage));
  }

  /** A deletion stored in D1: the message disappears from every socket at once. */
  deleted(id: string, seq: number): number {
    return this.send(JSON.stringify({ type: "deleted", id, seq } satisfies ChatSocketMessage));
  }

  /** A message was stored in another room: this room's readers see that room's unread count grow. */
  activity(roomId: string, seq: number, userId: string): number {
    return this.send(JSON.stringify({ type: "activity", roomId, seq, userId } satisfies ChatSocketMessage));
  }

  /** The room was renamed, described, archived or restored. */
  roomChanged(room: ChatRoomState): number {
    // Archived, restored or re-kinded: who may post (and so type) is asked of D1 again.
    this.forgetMayPost();
    return this.send(JSON.stringify({ type: "room", room } satisfies ChatSocketMessage));
  }

  /** A message for one user's sockets in this room (their mute, or its end). */
  toUser(userId: string, message: ChatSocketMessage): number {
    // Their mute here began or ended: whether they may post (and so type) is asked of D1 again.
    if (message.type === "mute") this.forgetMayPost(userId);
    return this.send(JSON.stringify(message), this.ctx.getWebSockets(`u:${userId}`));
  }

  /**
   * Closes the user's sockets whose session no longer exists, or all of them when the user is
   * banned (after a 'banned' frame). Called when sessions end (accounts' afterSessionsEnded) and by the alarm.
   */
  async closeEndedSessions(userId: string): Promise<number> {
    const sockets = this.ctx.getWebSockets(`u:${userId}`);
    if (sockets.length === 0) return 0;
    const attachments = sockets.map((ws) => ws.deserializeAttachment() as ChatSocketAttachment | null);
    const { live, banned, banReason } = await socketSessionState(
      userId,
      attachments.flatMap((a) => (a ? [a.sessionId] : [])),
    );
    const alive = new Set(live.map((s) => s.id));
    const ended = sockets.filter((_, i) => banned || !attachments[i] || !alive.has(attachments[i].sessionId));
    if (ended.length === 0) return 0;
    if (banned) this.send(JSON.stringify({ type: "banned", reason: banReason } satisfies ChatSocketMessage), ended);
    for (const ws of ended) closeQuietly(ws, banned ? CHAT_CLOSE_BANNED : CHAT_CLOSE_SESSION_ENDED, banned ? "banned" : "session ended");
    this.schedulePresence();
    return ended.length;
  }

  /** Open sockets (tests, the benchmark). */
  socketCount(): number {
    return this.ctx.getWebSockets().length;
  }

  /**
   * How many people have the room open now (distinct users). Open sockets only: getWebSockets()
   * also lists a socket whose close is under way or was never answered (a tab that went away while
   * the object closed it, a close frame lost on the way), and such a socket stays listed until the
   * runtime gives up on it. docs/decisions/0161.
   */
  presence(): number {
    const users = new Set<string>();
    for (const ws of this.ctx.getWebSockets()) {
      if (ws.readyState !== WebSocket.OPEN) continue;
      const a = ws.deserializeAttachment() as ChatSocketAttachment | null;
      if (a) users.add(a.userId);
    }
    return users.size;
  }

  // -------------------------------------------------------------------------------------------

  private async recentSends(userId: string): Promise<number[]> {
    let recent = this.rates.get(userId);
    if (!recent) {
      const stored = (await this.ctx.storage.get<number[]>(`rate:${userId}`)) ?? [];
      // Another call may have loaded it meanwhile: keep the first.
      recent = this.rates.get(userId) ?? stored;
      this.rates.set(userId, recent);
    }
    return recent;
  }

  /** Loads the last seq once: from storage, or the newest in D1 when the storage is empty (seeded rooms). */
  private async loadSeq(roomId: string): Promise<number> {
    if (this.seqValue === null) {
      this.seqLoading ??= (async () => {
        // The stored seq, or the newest in D1 if higher (a seeded room; a write lost with an eviction).
        const stored = (await this.ctx.storage.get<number>("seq")) ?? 0;
        const loaded = Math.max(stored, await maxSeqOf(roomId));
        this.seqValue = Math.max(this.seqValue ?? 0, loaded);
      })().finally(() => {
        this.seqLoading = null;
      });
      await this.seqLoading;
    }
    return this.seqValue ?? 0;
  }

  private send(frame: string, sockets = this.ctx.getWebSockets()): number {
    return sendFrame(frame, sockets);
  }

  private schedulePresence(): void {
    if (this.presenceTimer) return;
    this.presenceTimer = setTimeout(() => {
      this.presenceTimer = null;
      this.send(JSON.stringify({ type: "presence", count: this.presence() } satisfies ChatSocketMessage));
    }, PRESENCE_DELAY_MS);
  }

  private async scheduleSessionCheck(at: number): Promise<void> {
    const next = Math.min(at + 1000, Date.now() + SESSION_CHECK_MAX_MS);
    const current = await this.ctx.storage.getAlarm();
    if (current === null || current > next) await this.ctx.storage.setAlarm(next);
  }

  /** Sessions also end by expiring: re-check every user with an open socket. */
  async alarm(): Promise<void> {
    const users = new Set<string>();
    for (const ws of this.ctx.getWebSockets()) {
      const a = ws.deserializeAttachment() as ChatSocketAttachment | null;
      if (a) users.add(a.userId);
    }
    for (const userId of users) await this.closeEndedSessions(userId);
    if (this.ctx.getWebSockets().length > 0) await this.ctx.storage.setAlarm(Date.now() + SESSION_CHECK_MAX_MS);
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    // The browser pings (answered by the auto-response) and says it is typing; anything else is ignored.
    if (message === CHAT_PING) ws.send(CHAT_PONG);
    else if (message === CHAT_TYPING) await this.typing(ws);
  }

  /**
   * "typing" from a socket (decision 0247): relayed to the room's other people, never stored. At
   * most one per PERSON every TYPING_RELAY_MIN_MS, whichever of their sockets it comes on (decision
   * 0298: taken before any await, so frames on many sockets at once give one relay), and only for
   * someone who may post here now (not muted in this room, announcements: admins) — the same rules
   * as a message, asked of D1 at most once per MAY_POST_FOR_MS per person.
   */
  private async typing(ws: WebSocket): Promise<void> {
    const a = ws.deserializeAttachment() as ChatSocketAttachment | null;
    if (!a?.name) return;
    const now = Date.now();
    const last = this.typingAt.get(a.userId);
    if (last !== undefined && now - last < TYPING_RELAY_MIN_MS) return;
    for (const [userId, at] of this.typingAt) if (now - at >= TYPING_RELAY_MIN_MS) this.typingAt.delete(userId);
    this.typingAt.set(a.userId, now);
    if (!(await this.mayPostNow(a.roomId, a.userId, a.isAdmin === true, now))) return;
    const own = new Set(this.ctx.getWebSockets(`u:${a.userId}`));
    const others = this.ctx.getWebSockets().filter((s) => !own.has(s));
    this.send(JSON.stringify({ type: "typing", userId: a.userId, name: a.name } satisfies ChatSocketMessage), others);
  }

  /** Whether the person may post here (mayPostIn), D1's answer kept for MAY_POST_FOR_MS unless a mute or the room changes first. */
  private async mayPostNow(roomId: string, userId: string, isAdmin: boolean, now: number): Promise<boolean> {
    const known = this.mayPost.get(userId);
    if (known && known.isAdmin === isAdmin && now - known.at < MAY_POST_FOR_MS) return known.may;
    const version = this.rulesVersion;
    const may = await mayPostIn(roomId, userId, isAdmin);
    if (version === this.rulesVersion) {
      for (const [id, entry] of this.mayPost) if (now - entry.at >= MAY_POST_FOR_MS) this.mayPost.delete(id);
      this.mayPost.set(userId, { at: now, isAdmin, may });
    }
    return may;
  }

  private forgetMayPost(userId?: string): void {
    this.rulesVersion++;
    if (userId === undefined) this.mayPost.clear();
    else this.mayPost.delete(userId);
  }

  async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    answerClose(ws, code);
    this.schedulePresence();
  }

  async webSocketError(ws: WebSocket): Promise<void> {
    closeQuietly(ws, 1000, "error");
    this.schedulePresence();
  }
}
