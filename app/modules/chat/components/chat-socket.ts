import { useCallback, useEffect, useRef } from "react";
import { openReconnectingSocket } from "~/lib/reconnecting-socket";
import { CHAT_CLOSE_BANNED, CHAT_CLOSE_SESSION_ENDED, CHAT_PING, CHAT_SOCKET_PATH, parseChatFrame, type ChatSocketMessage } from "../protocol";

// The browser side of a room's socket (protocol: ../protocol.ts), on the same reconnecting socket as
// the notifications (~/lib/reconnecting-socket): backoff 0.5 s doubling to 10 s with jitter, at once
// when the browser is back online or the tab visible, closed when the browser goes offline. After
// every REconnect the caller catches up from /api/chat, so nothing sent while it was down is lost.

export type ChatSocketStatus = "connecting" | "live" | "reconnecting";

export type ChatSocketHandlers = {
  onMessage: (message: ChatSocketMessage) => void;
  onStatus: (status: ChatSocketStatus) => void;
  /** After a reconnect (not the first connect): `droppedAt` is when the previous socket closed. */
  onReconnected: (droppedAt: string) => void;
  /** The session ended or the user was banned: the socket stays closed. */
  onSessionEnded: (banned: boolean) => void;
};

const END_CODES = [CHAT_CLOSE_SESSION_ENDED, CHAT_CLOSE_BANNED];

/** Opens the room's socket; returns a function that sends a text frame on it (false while it is not open). */
export function useChatSocket(roomId: string | null, handlers: ChatSocketHandlers): (data: string) => boolean {
  const ref = useRef(handlers);
  ref.current = handlers;
  const sendRef = useRef<(data: string) => boolean>(() => false);

  useEffect(() => {
    if (!roomId || typeof WebSocket === "undefined") return;
    let droppedAt: string | null = null;
    return openReconnectingSocket({
      path: `${CHAT_SOCKET_PATH}?room=${encodeURIComponent(roomId)}`,
      ping: CHAT_PING,
      endCodes: END_CODES,
      closeWhenOffline: true,
      onSender: (send) => {
        sendRef.current = send;
      },
      onConnecting: () => ref.current.onStatus(droppedAt ? "reconnecting" : "connecting"),
      onOpen: () => {
        ref.current.onStatus("live");
        if (droppedAt) ref.current.onReconnected(droppedAt);
        droppedAt = null;
      },
      onFrame: (data) => {
        const message = parseChatFrame(data);
        if (message) ref.current.onMessage(message);
      },
      onClose: (code) => {
        droppedAt ??= new Date(Date.now() - 1000).toISOString();
        if (!END_CODES.includes(code)) ref.current.onStatus("reconnecting");
      },
      onEnded: (code) => ref.current.onSessionEnded(code === CHAT_CLOSE_BANNED),
    });
  }, [roomId]);
  return useCallback((data: string) => sendRef.current(data), []);
}
