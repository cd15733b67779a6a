import { exports } from "cloudflare:workers";

export const ORIGIN = "https://shortbeat.test";

/** Sends a request to the Worker exactly as the platform would. */
export function fetchApp(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new Request(new URL(path, ORIGIN), { redirect: "manual", ...init }));
}

/** A same-origin form POST, as our own pages send it. */
export function postForm(path: string, fields: Record<string, string>, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (!headers.has("Origin")) headers.set("Origin", ORIGIN);
  return fetchApp(path, { ...init, method: "POST", headers, body: new URLSearchParams(fields) });
}
