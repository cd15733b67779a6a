import { useEffect, useRef } from "react";
import {
  NOTIFICATIONS_SOCKET_PATH,
  PING,
  SOCKET_CLOSE_BANNED,
  SOCKET_CLOSE_SESSION_ENDED,
  parseSocketMessage,
  type SocketMessage,
} from "~/modules/notifications/protocol";

// The browser side of /api/notifications/socket (protocol: ../protocol.ts): one WebSocket per tab, reconnected with
// exponential backoff (0.5 s doubling to 10 s, with jitter). After every (re)connect the caller
// catches up from the API, so nothing sent while the socket was down is lost. Failures stay
// silent (spec: notification failures are silent).

export const RECONNECT_BASE_MS = 500;
export const RECONNECT_MAX_MS = 10_000;
/** After this many failed attempts in a row, ask the API whether the session still exists. */
export const SESSION_PROBE_AFTER = 3;
/** Keeps idle connections from being dropped by proxies; the object answers without waking. */
export const PING_INTERVAL_MS = 25_000;

export function reconnectDelay(attempt: number, random = Math.random): number {
  const exp = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** attempt);
  return Math.round(exp / 2 + random() * (exp / 2));
}

export type SocketHandlers = {
  onMessage: (message: SocketMessage) => void;
  /** Called on every (re)connect: the moment to catch up from the API. */
  onOpen?: () => void;
  /** The server closed the socket because the session ended (sign-out, ban, password change). */
  onSessionEnded?: (banned: boolean) => void;
  /** Any close (before a reconnect attempt). */
  onClose?: () => void;
};

export function useNotificationSocket(handlers: SocketHandlers, enabled = true): void {
  const ref = useRef(handlers);
  ref.current = handlers;

  useEffect(() => {
    if (!enabled || typeof WebSocket === "undefined") return;
    let ws: WebSocket | null = null;
    let attempt = 0;
    let stopped = false;
    let retryTimer: number | undefined;
    let pingTimer: number | undefined;

    // A refused upgrade looks like any dropped connection to the browser (code 1006). After a
    // few in a row, one cheap API call tells a signed-out session (401: stop, sign-in page)
    // from a server that is down or restarting (keep trying).
    const sessionGone = async (): Promise<boolean> => {
      try {
        const res = await fetch(`/api/notifications?since=${encodeURIComponent(new Date().toISOString())}`, {
          credentials: "same-origin",
        });
        return res.status === 401;
      } catch {
        return false;
      }
    };

    const schedule = () => {
      if (stopped || retryTimer !== undefined) return;
      const delay = reconnectDelay(attempt++);
      const probe = attempt % SESSION_PROBE_AFTER === 0;
      retryTimer = window.setTimeout(async () => {
        if (probe && (await sessionGone())) {
          retryTimer = undefined;
          if (stopped || ws) return;
          stopped = true;
          ref.current.onSessionEnded?.(false);
          return;
        }
        retryTimer = undefined;
        connect();
      }, delay);
    };

    const connect = () => {
      // One socket per tab: a retry that was overtaken (back online, tab visible) does nothing.
      if (stopped || ws) return;
      const scheme = window.location.protocol === "https:" ? "wss" : "ws";
      try {
        ws = new WebSocket(`${scheme}://${window.location.host}${NOTIFICATIONS_SOCKET_PATH}`);
      } catch {
        schedule();
        return;
      }
      const socket = ws;
      socket.onopen = () => {
        attempt = 0;
        window.clearInterval(pingTimer);
        pingTimer = window.setInterval(() => socket.readyState === WebSocket.OPEN && socket.send(PING), PING_INTERVAL_MS);
        ref.current.onOpen?.();
      };
      socket.onmessage = (event) => {
        // A pong, a malformed or an unknown frame is ignored.
        const message = parseSocketMessage(event.data);
        if (message) ref.current.onMessage(message);
      };
      socket.onclose = (event) => {
        window.clearInterval(pingTimer);
        if (ws === socket) ws = null;
        if (stopped) return;
        ref.current.onClose?.();
        if (event.code === SOCKET_CLOSE_SESSION_ENDED || event.code === SOCKET_CLOSE_BANNED) {
          stopped = true;
          ref.current.onSessionEnded?.(event.code === SOCKET_CLOSE_BANNED);
          return;
        }
        schedule();
      };
      // An error is followed by close, which reconnects.
      socket.onerror = () => {};
    };

    // Back online or back to the tab: try at once instead of waiting out the backoff.
    const retryNow = () => {
      if (stopped || ws || document.visibilityState !== "visible") return;
      window.clearTimeout(retryTimer);
      retryTimer = undefined;
      attempt = 0;
      connect();
    };
    window.addEventListener("online", retryNow);
    document.addEventListener("visibilitychange", retryNow);
    connect();

    return () => {
      stopped = true;
      window.removeEventListener("online", retryNow);
      document.removeEventListener("visibilitychange", retryNow);
      window.clearTimeout(retryTimer);
      window.clearInterval(pingTimer);
      try {
        ws?.close(1000, "page closed");
      } catch {
        // already closed
      }
    };
  }, [enabled]);
}
