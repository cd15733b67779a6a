import { DurableObject } from "cloudflare:workers";

// One object per user: the delivery channel for realtime notifications and account events.
// D1 is the record; this object only pushes. Socket metadata lives in the socket's
// attachment (serializeAttachment) so hibernation and eviction lose nothing.
// For now it accepts sockets and echoes; the notifications issue builds the feature on it.
export type SocketAttachment = { userId: string; sessionId: string; connectedAt: string };

export class UserNotifier extends DurableObject<Env> {
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    }
    const userId = request.headers.get("X-Shortbeat-User") ?? "";
    const sessionId = request.headers.get("X-Shortbeat-Session") ?? "";
    const pair = new WebSocketPair();
    const [client, server] = Object.values(pair);
    this.ctx.acceptWebSocket(server, [userId, sessionId]);
    const attachment: SocketAttachment = { userId, sessionId, connectedAt: new Date().toISOString() };
    server.serializeAttachment(attachment);
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    ws.send(typeof message === "string" ? message : new Uint8Array(message));
  }

  async webSocketClose(ws: WebSocket, _code: number, _reason: string): Promise<void> {
    // Echoing 1005/1006 throws in workerd; always close normally.
    try {
      ws.close(1000, "closing");
    } catch {
      // already closed
    }
  }

  /** Number of open sockets; used by tests and the benchmark. */
  async socketCount(): Promise<number> {
    return this.ctx.getWebSockets().length;
  }
}
