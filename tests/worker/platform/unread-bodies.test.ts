// A body the Worker's answer did not read (a refusal before parsing) is read to its end before the
// answer goes out (issue 26, decision 0190): Vite's dev server, which proxies requests to workerd,
// answered 500 "fetch failed" instead of the Worker's own 403 when it was left unread.
import { describe, expect, it } from "vitest";
import { fetchApp, ORIGIN } from "../helpers";

/** A request body of `chunks` × 64 KiB that counts how much of it was read. */
function countedBody(chunks: number) {
  const seen = { chunks: 0, done: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.chunks === chunks) {
        seen.done = true;
        controller.close();
        return;
      }
      seen.chunks++;
      controller.enqueue(new Uint8Array(64 * 1024).fill(0x61));
    },
  });
  return { stream, seen };
}

describe("unread request bodies", () => {
  it("a cross-origin POST is refused with 403 and its body is read to the end first", async () => {
    const { stream, seen } = countedBody(32);
    const res = await fetchApp("/api/chat", {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: stream,
      // @ts-expect-error: workerd's RequestInit takes duplex for a streamed body
      duplex: "half",
    });
    expect(res.status).toBe(403);
    await res.arrayBuffer();
    expect(seen).toEqual({ chunks: 32, done: true });
  });

  it("a signed-out POST to an action is answered as before, its body read to the end", async () => {
    const { stream, seen } = countedBody(16);
    const res = await fetchApp("/api/chat", {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
      body: stream,
      // @ts-expect-error: workerd's RequestInit takes duplex for a streamed body
      duplex: "half",
    });
    expect(res.status).toBe(401);
    await res.arrayBuffer();
    expect(seen).toEqual({ chunks: 16, done: true });
  });
});
