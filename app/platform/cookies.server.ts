import type { RequestContext } from "./context.server";

// Cookies: a tolerant reader (a malformed Cookie header is ignored part by part, never a 500), the
// serializer, and the Set-Cookie headers a request adds to whatever response it ends with.

/** The name=value parts of the Cookie header, skipping what cannot be one. */
function cookieParts(request: Request): [string, string][] {
  const header = request.headers.get("Cookie");
  if (!header) return [];
  const parts: [string, string][] = [];
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at <= 0) continue;
    parts.push([part.slice(0, at).trim(), part.slice(at + 1).trim()]);
  }
  return parts;
}

/** A cookie's value, or null when it is absent or not valid percent-encoding (never a 500). */
export function readCookie(request: Request, name: string): string | null {
  for (const [k, v] of cookieParts(request)) {
    if (k !== name) continue;
    try {
      return decodeURIComponent(v);
    } catch {
      return null;
    }
  }
  return null;
}

/** Whether the request carries a cookie of that name, readable or not. */
export function hasCookie(request: Request, name: string): boolean {
  return cookieParts(request).some(([k]) => k === name);
}

export function serializeCookie(
  name: string,
  value: string,
  opts: { maxAge: number; httpOnly?: boolean; secure: boolean; sameSite?: "Lax" | "Strict"; path?: string },
): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${opts.path ?? "/"}`, `Max-Age=${opts.maxAge}`];
  parts.push(`SameSite=${opts.sameSite ?? "Lax"}`);
  if (opts.httpOnly !== false) parts.push("HttpOnly");
  if (opts.secure) parts.push("Secure");
  return parts.join("; ");
}

/**
 * A Set-Cookie (typically one expiring a cookie that turned out to be useless, like a session
 * cookie that matches no session) for this request's response, whichever response that is.
 * workers/app.ts adds them with `withResponseCookies`.
 */
export function expireOnResponse(rc: RequestContext, setCookie: string): void {
  rc.responseCookies ??= [];
  if (!rc.responseCookies.includes(setCookie)) rc.responseCookies.push(setCookie);
}

/** The response with the request's Set-Cookie headers added, unless it already sets that cookie itself. */
export function withResponseCookies(response: Response, rc: RequestContext): Response {
  if (!rc.responseCookies?.length) return response;
  const own = new Set(response.headers.getSetCookie().map((c) => c.slice(0, c.indexOf("=")).trim()));
  const add = rc.responseCookies.filter((c) => !own.has(c.slice(0, c.indexOf("=")).trim()));
  if (add.length === 0) return response;
  let answer = response;
  try {
    for (const c of add) answer.headers.append("Set-Cookie", c);
  } catch {
    // Immutable headers (a fetched response): copy it once.
    answer = new Response(response.body, response);
    for (const c of add) answer.headers.append("Set-Cookie", c);
  }
  return answer;
}
