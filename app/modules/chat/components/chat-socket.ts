import { useEffect, useRef } from "react";
import { PING_INTERVAL_MS, reconnectDelay } from "~/modules/notifications/components/notification-socket";
import { CHAT_CLOSE_BANNED, CHAT_CLOSE_SESSION_ENDED, CHAT_PING, CHAT_SOCKET_PATH, parseChatFrame, type ChatSocketMessage } from "../protocol";

// The browser side of a room's socket (protocol: ../protocol.ts), like the notifications socket:
// reconnected with exponential backoff (0.5 s doubling to 10 s, with jitter), at once when the
// browser is back online or the tab visible; after every REconnect the caller catches up from
// /api/chat, so nothing sent while the socket was down is lost.

export type ChatSocketStatus = "connecting" | "live" | "reconnecting";

export type ChatSocketHandlers = {
  onMessage: (message: ChatSocketMessage) => void;
  onStatus: (status: ChatSocketStatus) => void;
  /** After a reconnect (not the first connect): `droppedAt` is when the previous socket closed. */
  onReconnected: (droppedAt: string) => void;
  /** The session ended or the user was banned: the socket stays closed. */
  onSessionEnded: (banned: boolean) => void;
};

export function useChatSocket(roomId: string | null, handlers: ChatSocketHandlers): void {
  const ref = useRef(handlers);
  ref.current = handlers;

  useEffect(() => {
    if (!roomId || typeof WebSocket === "undefined") return;
    let ws: WebSocket | null = null;
    let attempt = 0;
    let stopped = false;
    let retryTimer: number | undefined;
    let pingTimer: number | undefined;
    let droppedAt: string | null = null;

    const schedule = () => {
      if (stopped || retryTimer !== undefined) return;
      retryTimer = window.setTimeout(() => {
        retryTimer = undefined;
        connect();
      }, reconnectDelay(attempt++));
    };

    const connect = () => {
      if (stopped || ws) return;
      const scheme = window.location.protocol === "https:" ? "wss" : "ws";
      ref.current.onStatus(droppedAt ? "reconnecting" : "connecting");
      try {
        ws = new WebSocket(`${scheme}://${window.location.host}${CHAT_SOCKET_PATH}?room=${encodeURIComponent(roomId)}`);
      } catch {
        schedule();
        return;
      }
      const socket = ws;
      socket.onopen = () => {
        attempt = 0;
        window.clearInterval(pingTimer);
        pingTimer = window.setInterval(() => socket.readyState === WebSocket.OPEN && socket.send(CHAT_PING), PING_INTERVAL_MS);
        ref.current.onStatus("live");
        if (droppedAt) ref.current.onReconnected(droppedAt);
        droppedAt = null;
      };
      socket.onmessage = (event) => {
        const message = parseChatFrame(event.data);
        if (message) ref.current.onMessage(message);
      };
      socket.onclose = (event) => {
        window.clearInterval(pingTimer);
        if (ws === socket) ws = null;
        if (stopped) return;
        droppedAt ??= new Date(Date.now() - 1000).toISOString();
        if (event.code === CHAT_CLOSE_SESSION_ENDED || event.code === CHAT_CLOSE_BANNED) {
          stopped = true;
          ref.current.onSessionEnded(event.code === CHAT_CLOSE_BANNED);
          return;
        }
        ref.current.onStatus("reconnecting");
        schedule();
      };
      socket.onerror = () => {};
    };

    const retryNow = () => {
      if (stopped || ws || document.visibilityState !== "visible") return;
      window.clearTimeout(retryTimer);
      retryTimer = undefined;
      attempt = 0;
      connect();
    };
    // Going offline: the socket may take long to notice; close it so the tab shows it and catches up later.
    const offline = () => {
      try {
        ws?.close(1000, "offline");
      } catch {
        // already closed
      }
    };
    window.addEventListener("online", retryNow);
    window.addEventListener("offline", offline);
    document.addEventListener("visibilitychange", retryNow);
    connect();

    return () => {
      stopped = true;
      window.removeEventListener("online", retryNow);
      window.removeEventListener("offline", offline);
      document.removeEventListener("visibilitychange", retryNow);
      window.clearTimeout(retryTimer);
      window.clearInterval(pingTimer);
      try {
        ws?.close(1000, "page closed");
      } catch {
        // already closed
      }
    };
  }, [roomId]);
}
