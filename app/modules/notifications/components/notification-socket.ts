import { useEffect, useRef } from "react";
import { openReconnectingSocket } from "~/lib/reconnecting-socket";
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

export { PING_INTERVAL_MS, RECONNECT_BASE_MS, RECONNECT_MAX_MS, reconnectDelay } from "~/lib/reconnecting-socket";
/** After this many failed attempts in a row, ask the API whether the session still exists. */
export const SESSION_PROBE_AFTER = 3;

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
    return openReconnectingSocket({
      path: NOTIFICATIONS_SOCKET_PATH,
      ping: PING,
      endCodes: [SOCKET_CLOSE_SESSION_ENDED, SOCKET_CLOSE_BANNED],
      probe: { every: SESSION_PROBE_AFTER, gone: sessionGone, onGone: () => ref.current.onSessionEnded?.(false) },
      onOpen: () => ref.current.onOpen?.(),
      // A pong, a malformed or an unknown frame is ignored.
      onFrame: (data) => {
        const message = parseSocketMessage(data);
        if (message) ref.current.onMessage(message);
      },
      onClose: () => ref.current.onClose?.(),
      onEnded: (code) => ref.current.onSessionEnded?.(code === SOCKET_CLOSE_BANNED),
    });
  }, [enabled]);
}
