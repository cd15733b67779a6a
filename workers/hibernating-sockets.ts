// What the objects with hibernating WebSockets (workers/user-notifier.ts, workers/chat-room.ts)
// do alike: one text frame to many sockets, a close that may meet an already closed socket, the
// answer to a client's close, and the cap on one person's sockets (decision 0298).

/** How many of `sockets` are open: one whose close is under way holds no place under a cap. */
export function openCount(sockets: WebSocket[]): number {
  let open = 0;
  for (const ws of sockets) if (ws.readyState === WebSocket.OPEN) open++;
  return open;
}

/**
 * The answer to an upgrade over the per-person cap (decision 0298): 429 before any socket is
 * accepted, so the person's open tabs keep theirs. The browser sees a failed handshake and retries
 * with its backoff (at most 10 s apart), and gets in once one of the other sockets has closed.
 */
export function tooManySockets(cap: number): Response {
  return Response.json(
    { error: "Too many sockets", message: `At most ${cap} open connections per person here: close another tab and try again.` },
    { status: 429, headers: { "Retry-After": "10" } },
  );
}

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
