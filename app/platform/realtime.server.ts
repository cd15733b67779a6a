import { env } from "./env.server";

// The realtime layer every domain may use: each user's Durable Object (workers/user-notifier.ts),
// reached by typed RPC on its stub (`userNotifier(id).push(message)`), never by URL paths. Only
// the WebSocket upgrade goes through the object's fetch(), with the identity headers below.
// See docs/decisions/0010-realtime-delivery.md.

/** The user's notifier object (one per user, by name). Its methods are RPC calls. */
export function userNotifier(userId: string) {
  return env.USER_NOTIFIER.get(env.USER_NOTIFIER.idFromName(userId));
}

/**
 * Headers of the upgrade request the worker builds for the object after it checked Origin and the
 * session. The object is reachable only through the binding, so these never come from a browser.
 */
export const NOTIFIER_USER_HEADER = "X-Shortbeat-User";
export const NOTIFIER_SESSION_HEADER = "X-Shortbeat-Session";
/** When the session ends unless it is used again (ISO time); the object re-checks then. */
export const NOTIFIER_SESSION_ENDS_HEADER = "X-Shortbeat-Session-Ends";

const text = (body: string, status: number) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/** The HTTP side of a socket endpoint: a GET with `Upgrade: websocket`, else 405 / 426. Null when it is one. */
export function refuseNonUpgrade(request: Request): Response | null {
  if (request.method !== "GET") return text("Method Not Allowed", 405);
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return text("Expected a WebSocket upgrade", 426);
  return null;
}
