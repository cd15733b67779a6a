// The browser side of the app's WebSockets (notifications: modules/notifications/components/
// notification-socket.ts; a chat room: modules/chat/components/chat-socket.ts): one socket,
// reconnected with exponential backoff (0.5 s doubling to 10 s, with jitter), at once when the
// browser is back online or the tab visible, kept alive with a ping. Client-safe, no imports.

export const RECONNECT_BASE_MS = 500;
export const RECONNECT_MAX_MS = 10_000;
/** Keeps idle connections from being dropped by proxies; the object answers without waking. */
export const PING_INTERVAL_MS = 25_000;

export function reconnectDelay(attempt: number, random = Math.random): number {
  const exp = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** attempt);
  return Math.round(exp / 2 + random() * (exp / 2));
}

export type ReconnectingSocketOptions = {
  /** Path and query on this origin (ws: or wss: follows the page). */
  path: string;
  /** The keep-alive frame. */
  ping: string;
  /** Close codes after which the socket stays closed (session ended, banned). */
  endCodes: readonly number[];
  onFrame: (data: unknown) => void;
  /** Before each connect attempt. */
  onConnecting?: () => void;
  /** On every (re)connect. */
  onOpen?: () => void;
  /** Any close while running, before the socket is retried or stays closed. */
  onClose?: (code: number) => void;
  /** The server closed with one of `endCodes`; nothing is retried. */
  onEnded: (code: number) => void;
  /** Every `every`-th retry first asks `gone()`; true stops and calls `onGone` (e.g. a signed-out session). */
  probe?: { every: number; gone: () => Promise<boolean>; onGone: () => void };
  /** Close the socket when the browser goes offline (it may take long to notice by itself). */
  closeWhenOffline?: boolean;
  /** Receives the function that sends a text frame on the open socket (false while none is open). */
  onSender?: (send: (data: string) => boolean) => void;
};

/** Opens the socket and keeps it open; returns the function that stops it (an effect's cleanup). */
export function openReconnectingSocket(o: ReconnectingSocketOptions): () => void {
  let ws: WebSocket | null = null;
  let attempt = 0;
  let stopped = false;
  let retryTimer: number | undefined;
  let pingTimer: number | undefined;

  const schedule = () => {
    if (stopped || retryTimer !== undefined) return;
    const delay = reconnectDelay(attempt++);
    const probe = o.probe && attempt % o.probe.every === 0 ? o.probe : null;
    retryTimer = window.setTimeout(async () => {
      if (probe && (await probe.gone())) {
        retryTimer = undefined;
        if (stopped || ws) return;
        stopped = true;
        probe.onGone();
        return;
      }
      retryTimer = undefined;
      connect();
    }, delay);
  };

  const connect = () => {
    // One socket: a retry that was overtaken (back online, tab visible) does nothing.
    if (stopped || ws) return;
    o.onConnecting?.();
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    try {
      ws = new WebSocket(`${scheme}://${window.location.host}${o.path}`);
    } catch {
      schedule();
      return;
    }
    const socket = ws;
    socket.onopen = () => {
      attempt = 0;
      window.clearInterval(pingTimer);
      pingTimer = window.setInterval(() => socket.readyState === WebSocket.OPEN && socket.send(o.ping), PING_INTERVAL_MS);
      o.onOpen?.();
    };
    socket.onmessage = (event) => o.onFrame(event.data);
    socket.onclose = (event) => {
      window.clearInterval(pingTimer);
      if (ws === socket) ws = null;
      if (stopped) return;
      o.onClose?.(event.code);
      if (o.endCodes.includes(event.code)) {
        stopped = true;
        o.onEnded(event.code);
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
  const offline = () => {
    try {
      ws?.close(1000, "offline");
    } catch {
      // already closed
    }
  };
  window.addEventListener("online", retryNow);
  document.addEventListener("visibilitychange", retryNow);
  if (o.closeWhenOffline) window.addEventListener("offline", offline);
  o.onSender?.((data) => {
    if (stopped || ws?.readyState !== WebSocket.OPEN) return false;
    ws.send(data);
    return true;
  });
  connect();

  return () => {
    stopped = true;
    window.removeEventListener("online", retryNow);
    document.removeEventListener("visibilitychange", retryNow);
    window.removeEventListener("offline", offline);
    window.clearTimeout(retryTimer);
    window.clearInterval(pingTimer);
    const socket = ws;
    if (socket?.readyState === WebSocket.CONNECTING) {
      // Closing a socket that is still connecting aborts its handshake, and a proxy in between may
      // already have opened the server's end, which then never hears of the close: the dev server
      // (Vite) left such sockets open forever, and React's StrictMode opens and closes every
      // socket once on mount, so presence counted people who had left (issue 26). Let the
      // handshake finish, then close properly.
      socket.onopen = () => closeSocket(socket, "page closed");
      socket.onmessage = null;
    } else if (socket) closeSocket(socket, "page closed");
  };
}

function closeSocket(socket: WebSocket, reason: string) {
  try {
    socket.close(1000, reason);
  } catch {
    // already closed
  }
}
