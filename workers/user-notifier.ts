import { DurableObject } from "cloudflare:workers";
import { socketSessionState } from "../app/modules/accounts/accounts.server";
import {
  PING,
  PONG,
  SOCKET_CLOSE_BANNED,
  SOCKET_CLOSE_SESSION_ENDED,
  accountMessageOf,
  type AccountEvent,
  type SocketMessage,
} from "../app/modules/notifications/protocol";
import { NOTIFIER_SESSION_ENDS_HEADER, NOTIFIER_SESSION_HEADER, NOTIFIER_USER_HEADER } from "../app/platform/realtime.server";
import { answerClose, closeQuietly, openCount, sendFrame, tooManySockets } from "./hibernating-sockets";

// One object per user (idFromName(userId)): the delivery channel for realtime notifications and
// account events. D1 is the record; this object only pushes, so nothing is lost when it
// hibernates, is evicted or redeployed — a reconnecting client catches up from D1.
//
// Callers use its typed RPC methods on the stub (`userNotifier(id).push(message)`, see
// app/platform/realtime.server.ts); only the WebSocket upgrade comes through fetch(). The messages
// it sends are declared once, in app/modules/notifications/protocol.ts, which the browser reads too.
//
// It uses the WebSocket hibernation API: sockets are accepted with ctx.acceptWebSocket and
// their metadata lives in the socket's attachment (serializeAttachment), never only in memory,
// so an object woken from hibernation still knows whose session each socket belongs to.
//
// The object is reachable only through the USER_NOTIFIER binding, i.e. from our own worker
// code: the worker checks the session and Origin and builds a fresh upgrade request carrying the
// user and session ids, so those headers cannot come from a browser.
// See docs/decisions/0010-realtime-delivery.md.

export type SocketAttachment = {
  userId: string;
  /** SHA-256 id of the session (sessions.id), not the cookie token. */
  sessionId: string;
  connectedAt: string;
};

const SESSION_CHECK_MAX_MS = 6 * 60 * 60 * 1000;

/**
 * The user's open sockets (decision 0298): every tab of the app opens one, so more than the chat
 * room's 10; the next upgrade is refused with a 429.
 */
export const SOCKETS_PER_USER = 20;

export class UserNotifier extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Keep-alive pings are answered without waking the object from hibernation.
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG));
  }

  /** The WebSocket upgrade only (built by app/modules/notifications/socket.server.ts). */
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    }
    const userId = request.headers.get(NOTIFIER_USER_HEADER) ?? "";
    const sessionId = request.headers.get(NOTIFIER_SESSION_HEADER) ?? "";
    if (!userId || !sessionId) return new Response("Missing identity", { status: 400 });
    // Checked and taken with no await between: two upgrades at once cannot both take the last place.
    if (openCount(this.ctx.getWebSockets()) >= SOCKETS_PER_USER) return tooManySockets(SOCKETS_PER_USER);
    const { 0: client, 1: server } = new WebSocketPair();
    // Tagged with the session id, so a session's sockets can be found without reading them all.
    this.ctx.acceptWebSocket(server, [sessionId]);
    const attachment: SocketAttachment = { userId, sessionId, connectedAt: new Date().toISOString() };
    server.serializeAttachment(attachment);
    const endsAt = Date.parse(request.headers.get(NOTIFIER_SESSION_ENDS_HEADER) ?? "");
    await this.scheduleSessionCheck(Number.isFinite(endsAt) ? endsAt : Date.now() + SESSION_CHECK_MAX_MS);
    return new Response(null, { status: 101, webSocket: client });
  }

  // -------------------------------------------------------------------------------------------
  // RPC
  // -------------------------------------------------------------------------------------------

  /**
   * Sends one message to every open socket of this user; returns how many got it. `trace` (the
   * benchmark's timestamps, devtools builds only) travels in the frame with when this object got it.
   */
  push(message: SocketMessage, trace?: Record<string, number>): number {
    return this.pushFrame(JSON.stringify(message), trace);
  }

  /**
   * The same with the message already serialized (`frameOf` in app/modules/notifications/delivery.server.ts): what
   * every push of the app uses, so the frame is built once by the caller and sent as it is. The
   * trace goes in as the frame's last key.
   */
  pushFrame(frame: string, trace?: Record<string, number>): number {
    return this.send(trace ? `${frame.slice(0, -1)},"trace":${JSON.stringify({ ...trace, doAt: Date.now() })}}` : frame);
  }

  /**
   * An account decision (approved, rejected, banned, unbanned) for the open tabs. A ban also
   * closes the sockets at once rather than wait for the sessions to be ended.
   */
  accountEvent(event: AccountEvent, reason: string | null = null): number {
    const delivered = this.send(JSON.stringify(accountMessageOf(event, reason)));
    if (event === "banned") this.closeSockets(SOCKET_CLOSE_BANNED, "banned");
    return delivered;
  }

  /**
   * Closes the sockets whose session no longer exists (or has expired). Called after sessions end
   * (sign-out, ban, password change, admin action) and by the alarm. A banned user first gets the
   * 'banned' event, whichever call arrives first. Returns how many sockets were closed.
   */
  async closeEndedSessions(): Promise<number> {
    const sockets = this.ctx.getWebSockets();
    if (sockets.length === 0) return 0;
    const attachments = sockets.map((ws) => ws.deserializeAttachment() as SocketAttachment | null);
    const userId = attachments.find((a) => a?.userId)?.userId ?? "";
    const sessionIds = attachments.flatMap((a) => (a?.sessionId ? [a.sessionId] : []));
    const { live, banned, banReason } = await socketSessionState(userId, sessionIds);
    const alive = new Set(live.map((s) => s.id));
    const ended = sockets.filter((_, i) => {
      const attachment = attachments[i];
      return banned || !attachment || !alive.has(attachment.sessionId);
    });
    // The next time a remaining session could end (sliding expiry moves it on; re-checked then).
    const nextEnd = Math.min(...live.map((s) => Date.parse(s.endsAt)).filter(Number.isFinite));
    if (ended.length < sockets.length && Number.isFinite(nextEnd)) await this.scheduleSessionCheck(nextEnd, true);
    if (ended.length === 0) return 0;
    if (banned) this.send(JSON.stringify(accountMessageOf("banned", banReason)), ended);
    return this.closeSockets(banned ? SOCKET_CLOSE_BANNED : SOCKET_CLOSE_SESSION_ENDED, banned ? "banned" : "session ended", ended);
  }

  /** Number of open sockets; used by tests and the benchmark. */
  socketCount(): number {
    return this.ctx.getWebSockets().length;
  }

  // -------------------------------------------------------------------------------------------

  /** One text frame to each socket (all of this user's by default); returns how many got it. */
  private send(frame: string, sockets = this.ctx.getWebSockets()): number {
    return sendFrame(frame, sockets);
  }

  private closeSockets(code: number, reason: string, sockets = this.ctx.getWebSockets()): number {
    for (const ws of sockets) closeQuietly(ws, code, reason);
    return sockets.length;
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
    // The browser only pings (answered by the auto-response above); anything else is ignored.
    if (message === PING) ws.send(PONG);
  }

  async webSocketClose(ws: WebSocket, code: number, _reason: string, _wasClean: boolean): Promise<void> {
    answerClose(ws, code);
  }

  async webSocketError(ws: WebSocket, _error: unknown): Promise<void> {
    closeQuietly(ws, 1000, "error");
  }
}
