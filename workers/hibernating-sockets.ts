// What the objects with hibernating WebSockets (workers/user-notifier.ts, workers/chat-room.ts)
// do alike: one text frame to many sockets, a close that may meet an already closed socket, and
// the answer to a client's close.

/** One text frame to each socket; returns how many got it. A socket that is closing is skipped (its tab catches up from D1 on reconnect). */
export function sendFrame(frame: string, sockets: WebSocket[]): number {
  let delivered = 0;
  for (const ws of sockets) {
    try {
      ws.send(frame);
      delivered++;
    } catch {
      // closing or closed
    }
  }
  return delivered;
}

/** Closes a socket; one that is already closed is left as it is. */
export function closeQuietly(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason);
  } catch {
    // already closed
  }
}

/** The reply to a client's close (webSocketClose). 1005/1006 are reserved and throw if echoed: answer 1000. */
export function answerClose(ws: WebSocket, code: number): void {
  closeQuietly(ws, code === 1000 || (code >= 4000 && code <= 4999) ? code : 1000, "closing");
}
