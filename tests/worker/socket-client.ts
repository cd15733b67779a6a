import { expect } from "vitest";

// A small client for the app's WebSockets (the notification bell, the chat rooms): it accepts the
// socket, keeps every frame after checking it against the protocol, and waits for what a test
// expects.

export type SocketClient<M> = {
  ws: WebSocket;
  messages: M[];
  closed: { code: number; reason: string } | null;
  next: (predicate?: (m: M) => boolean, timeoutMs?: number) => Promise<M>;
  waitClosed: (timeoutMs?: number) => Promise<{ code: number; reason: string }>;
};

/** Polls `get` until it answers something, or throws after `timeoutMs`. */
export async function waitFor<T>(get: () => T | null | undefined, timeoutMs = 3000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = get();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The client of an upgrade answer (checked to be 101); `parse` reads a frame of the protocol, or null. */
export function socketClient<M>(res: Response, parse: (data: string) => M | null, protocol: string): SocketClient<M> {
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  ws.accept();
  const client: SocketClient<M> = {
    ws,
    messages: [],
    closed: null,
    next(predicate = () => true, timeoutMs = 3000) {
      return waitFor(() => client.messages.find(predicate), timeoutMs);
    },
    waitClosed(timeoutMs = 3000) {
      return waitFor(() => client.closed, timeoutMs);
    },
  };
  ws.addEventListener("message", (e) => {
    if (typeof e.data !== "string" || e.data === "pong") return;
    // Every frame must be a message of the protocol: a drifted shape fails the test here.
    const message = parse(e.data);
    if (!message) throw new Error(`not a ${protocol} message: ${e.data}`);
    client.messages.push(message);
  });
  ws.addEventListener("close", (e) => {
    client.closed = { code: e.code, reason: e.reason };
  });
  return client;
}
