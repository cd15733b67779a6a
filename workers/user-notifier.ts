import { DurableObject } from "cloudflare:workers";
import {
  NOTIFIER_SESSION_ENDS_HEADER,
  NOTIFIER_SESSION_HEADER,
  NOTIFIER_USER_HEADER,
  SOCKET_CLOSE_BANNED,
  SOCKET_CLOSE_SESSION_ENDED,
  type AccountEvent,
  type SocketMessage,
} from "../app/modules/notifications/notifications";

// One object per user (idFromName(userId)): the delivery channel for realtime notifications and
// account events. D1 is the record; this object only pushes, so nothing is lost when it
// hibernates, is evicted or redeployed — a reconnecting client catches up from D1.
//
// It uses the WebSocket hibernation API: sockets are accepted with ctx.acceptWebSocket and
// their metadata lives in the socket's attachment (serializeAttachment), never only in memory,
// so an object woken from hibernation still knows whose session each socket belongs to.
//
// The object is reachable only through the USER_NOTIFIER binding, i.e. from our own worker
// code: the worker checks the session and Origin and builds a fresh request carrying the user
// and session ids, so the headers below cannot come from a browser.
// See docs/decisions/0010-realtime-delivery.md.

export type SocketAttachment = {
  userId: string;
  /** SHA-256 id of the session (sessions.id), not the cookie token. */
  sessionId: string;
  connectedAt: string;
};

export type AccountEventType = "approved" | "rejected" | "banned" | "unbanned";

/** Messages the server sends on the socket. */
export type ServerMessage =
  | { type: "notification"; notification: unknown }
  | { type: "read"; ids: string[] | "all"; readAt: string }
  | { type: "account"; event: AccountEventType; reason?: string | null };

/** Close codes the client understands (4000-4999 are the application's own). */
export const CLOSE_SESSION_ENDED = 4001;
export const CLOSE_BANNED = 4003;

export const USER_HEADER = "X-Shortbeat-User";
export const SESSION_HEADER = "X-Shortbeat-Session";
/** When the session ends unless it is used again (ISO time); the alarm re-checks then. */
export const SESSION_ENDS_HEADER = "X-Shortbeat-Session-Ends";

const SESSION_CHECK_MAX_MS = 6 * 60 * 60 * 1000;

export class UserNotifier extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Keep-alive pings are answered without waking the object from hibernation.
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.headers.get("Upgrade")?.toLowerCase() === "websocket") return this.accept(request);
    if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405 });
    switch (url.pathname) {
      case "/push":
        return Response.json({ delivered: this.broadcast(await request.text()) });
      case "/account-event":
        return this.accountEvent((await request.json()) as { type: AccountEventType; reason?: string | null });
      case "/sessions-ended":
        return Response.json({ closed: await this.closeEndedSessions() });
      default:
        return new Response("Not Found", { status: 404 });
    }
  }

  private async accept(request: Request): Promise<Response> {
    const userId = request.headers.get(USER_HEADER) ?? "";
    const sessionId = request.headers.get(SESSION_HEADER) ?? "";
    if (!userId || !sessionId) return new Response("Missing identity", { status: 400 });
    const pair = new WebSocketPair();
    const [client, server] = Object.values(pair);
    // Tagged with the session id, so a session's sockets can be found without reading them all.
    this.ctx.acceptWebSocket(server, [sessionId]);
    const attachment: SocketAttachment = { userId, sessionId, connectedAt: new Date().toISOString() };
    server.serializeAttachment(attachment);
    const endsAt = Date.parse(request.headers.get(SESSION_ENDS_HEADER) ?? "");
    await this.scheduleSessionCheck(Number.isFinite(endsAt) ? endsAt : Date.now() + SESSION_CHECK_MAX_MS);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Sends one text frame to every open socket of this user; returns how many got it. */
  private broadcast(message: string): number {
    let delivered = 0;
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(message);
        delivered++;
      } catch {
        // A socket that is closing: the client catches up from D1 on reconnect.
      }
    }
    return delivered;
  }

  private async accountEvent(event: { type: AccountEventType; reason?: string | null }): Promise<Response> {
    const message: ServerMessage = { type: "account", event: event.type, reason: event.reason ?? null };
    const delivered = this.broadcast(JSON.stringify(message));
    // A ban also ends every session; close the sockets now rather than wait for that call.
    if (event.type === "banned") this.closeAll(CLOSE_BANNED, "banned");
    return Response.json({ delivered });
  }

  private closeAll(code: number, reason: string, sockets = this.ctx.getWebSockets()): number {
    for (const ws of sockets) {
      try {
        ws.close(code, reason);
      } catch {
        // already closed
      }
    }
    return sockets.length;
  }

  /**
   * Closes the sockets whose session no longer exists (or has expired) in D1. Called by the
   * worker after sessions end (sign-out, ban, password change, admin action) and by the alarm.
   * A banned user first gets the 'banned' event, whichever call arrives first.
   */
  async closeEndedSessions(): Promise<number> {
    const sockets = this.ctx.getWebSockets();
    if (sockets.length === 0) return 0;
    const attachments = sockets.map((ws) => ws.deserializeAttachment() as SocketAttachment | null);
    const userId = attachments.find((a) => a?.userId)?.userId ?? "";
    const sessionIds = [...new Set(attachments.map((a) => a?.sessionId).filter(Boolean))] as string[];
    const now = new Date().toISOString();
    const [live, profile] = await this.env.DB.batch<{ id?: string; ends_at?: string; is_banned?: number }>([
      this.env.DB.prepare(
        `SELECT id, min(expires_at, absolute_expires_at) AS ends_at FROM sessions
         WHERE id IN (SELECT value FROM json_each(?)) AND expires_at > ? AND absolute_expires_at > ?`,
      ).bind(JSON.stringify(sessionIds), now, now),
      this.env.DB.prepare("SELECT is_banned FROM profiles WHERE user_id = ?").bind(userId),
    ]);
    const alive = new Set(live.results.map((r) => r.id));
    const banned = profile.results[0]?.is_banned === 1;
    const ended = sockets.filter((_, i) => banned || !attachments[i] || !alive.has(attachments[i]!.sessionId));
    // The next time a remaining session could end (sliding expiry moves it on; re-checked then).
    const nextEnd = Math.min(...live.results.map((r) => Date.parse(r.ends_at ?? "")).filter(Number.isFinite));
    if (ended.length < sockets.length && Number.isFinite(nextEnd)) await this.scheduleSessionCheck(nextEnd, true);
    if (ended.length === 0) return 0;
    if (banned) {
      const message: ServerMessage = { type: "account", event: "banned", reason: null };
      for (const ws of ended) {
        try {
          ws.send(JSON.stringify(message));
        } catch {
          // closing already
        }
      }
    }
    return this.closeAll(banned ? CLOSE_BANNED : CLOSE_SESSION_ENDED, banned ? "banned" : "session ended", ended);
  }

  /** Sessions also end by expiring: an alarm re-checks when the first open one could end. */
  private async scheduleSessionCheck(at: number, replace = false): Promise<void> {
    const next = Math.min(at + 1000, Date.now() + SESSION_CHECK_MAX_MS);
    const current = await this.ctx.storage.getAlarm();
    if (replace || current === null || current > next) await this.ctx.storage.setAlarm(next);
  }

  async alarm(): Promise<void> {
    await this.closeEndedSessions();
    if (this.ctx.getWebSockets().length > 0 && (await this.ctx.storage.getAlarm()) === null) {
      await this.ctx.storage.setAlarm(Date.now() + SESSION_CHECK_MAX_MS);
    }
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    // The client only pings (answered by the auto-response above); anything else is ignored.
    if (message === "ping") ws.send("pong");
  }

  async webSocketClose(ws: WebSocket, code: number, _reason: string, _wasClean: boolean): Promise<void> {
    // Reply to the client's close. 1005/1006 are reserved and throw if echoed: answer 1000.
    const reply = code === 1000 || (code >= 4000 && code <= 4999) ? code : 1000;
    try {
      ws.close(reply, "closing");
    } catch {
      // already closed
    }
  }

  async webSocketError(ws: WebSocket, _error: unknown): Promise<void> {
    try {
      ws.close(1000, "error");
    } catch {
      // already closed
    }
  }

  /** Number of open sockets; used by tests and the benchmark. */
  async socketCount(): Promise<number> {
    return this.ctx.getWebSockets().length;
  }
}
