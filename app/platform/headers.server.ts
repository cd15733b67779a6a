import { encodeBase64 } from "@oslojs/encoding";

export function makeNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return encodeBase64(bytes);
}

/** The origins a state-changing request may come from. */
export function allowedOrigins(request: Request, env: Pick<Env, "APP_ORIGIN">): Set<string> {
  const origins = new Set<string>([new URL(request.url).origin]);
  if (env.APP_ORIGIN) origins.add(new URL(env.APP_ORIGIN).origin);
  return origins;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSP violation reports are sent by the browser itself, often without an Origin. The endpoint
 * only ever writes an audit row, and only for an admin's session (SameSite=Lax keeps that cookie
 * off cross-site POSTs), so it is the one path exempt from the check.
 */
export const CSP_REPORT_PATH = "/api/csp-report";
/** Stripe's webhooks: sent by Stripe (no Origin), authenticated by their signature instead (docs/decisions/0225). */
export const STRIPE_WEBHOOK_PATH = "/api/stripe/webhook";
/** One-click unsubscribe links of optional e-mail (app/platform/email-preferences.server.ts). */
export const UNSUBSCRIBE_PATH = "/email/unsubscribe";

/**
 * CSRF defence for every non-GET request, resource routes included: the Origin header must be
 * present and be our own. Browsers always send Origin on cross-site and on same-site POSTs, so a
 * missing one means a non-browser client or a stripped header: refused too.
 */
export function refuseCrossOrigin(request: Request, env: Pick<Env, "APP_ORIGIN">): Response | null {
  if (SAFE_METHODS.has(request.method)) return null;
  const path = new URL(request.url).pathname;
  if ((path === CSP_REPORT_PATH || path === STRIPE_WEBHOOK_PATH) && request.method === "POST") return null;
  // One-click unsubscribe (RFC 8058): the mail provider POSTs without our Origin. The link is signed
  // and can only turn optional mail off for the address it names, so it is safe to accept.
  if (path === UNSUBSCRIBE_PATH && request.method === "POST") return null;
  const origin = request.headers.get("Origin");
  if (origin && origin !== "null" && allowedOrigins(request, env).has(origin)) return null;
  return new Response("Forbidden: cross-origin request refused", {
    status: 403,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

/** Pages whose policy adds directives (only these pages): the thumbnail editor's model runs in a Web Worker (docs/decisions/0183). */
const ROUTE_CSP: Record<string, string[]> = { "/ai-thumbnail-editor": ["worker-src 'self'"] };

export function contentSecurityPolicy(nonce: string | null, dev: boolean, pathname = ""): string {
  const script = nonce ? `'self' 'nonce-${nonce}' 'strict-dynamic'` : "'none'";
  return [
    ...(ROUTE_CSP[pathname] ?? []),
    "default-src 'self'",
    `script-src ${script}`,
    // Tailwind's CSS is a file; React's style attributes need 'unsafe-inline' for styles only.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob:",
    "font-src 'self'",
    `connect-src 'self'${dev ? " ws: wss:" : " wss:"}`,
    // Google's sign-in, and Stripe's hosted onboarding a payout set-up form redirects to.
    "form-action 'self' https://accounts.google.com https://connect.stripe.com",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    `report-uri ${CSP_REPORT_PATH}`,
  ].join("; ");
}

/** A fresh id for one request: its X-Request-Id header, its log lines and the error screen. */
export function makeRequestId(): string {
  return crypto.randomUUID();
}

export const REQUEST_ID_HEADER = "X-Request-Id";

/**
 * Adds the security headers of SECURITY.md, and the request's id when given, to a response
 * (copying it if it is immutable).
 */
export function applySecurityHeaders(response: Response, nonce: string | null, url: URL, requestId?: string): Response {
  // 101 responses carry the socket and must be returned untouched.
  if (response.status === 101) return response;
  let res = response;
  try {
    res.headers.set("X-Content-Type-Options", "nosniff");
  } catch {
    res = new Response(response.body, response);
    res.headers.set("X-Content-Type-Options", "nosniff");
  }
  const dev = url.hostname === "localhost" || url.hostname === "127.0.0.1";
  res.headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  res.headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  res.headers.set("X-Frame-Options", "DENY");
  res.headers.set("Cross-Origin-Opener-Policy", "same-origin");
  res.headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  if (!res.headers.has("Content-Security-Policy")) {
    res.headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, dev, url.pathname));
  }
  if (requestId) res.headers.set(REQUEST_ID_HEADER, requestId);
  return res;
}

const SESSION_COOKIE = /(?:^|;\s*)(?:__Host-)?sb_session=/;

/** Whether the request carries a session cookie (signed in, or was). */
export function carriesSessionCookie(request: Request): boolean {
  return SESSION_COOKIE.test(request.headers.get("Cookie") ?? "");
}

/**
 * Pages and `.data` answers rendered for a signed-in request hold that user's data: no shared or
 * browser cache may keep them (`private, no-store`), whatever a route said. Public resources
 * (avatars, the sitemap) keep their own caching.
 */
export function applyPrivateCaching(request: Request, response: Response, url: URL): Response {
  if (!carriesSessionCookie(request)) return response;
  const type = response.headers.get("Content-Type") ?? "";
  if (!url.pathname.endsWith(".data") && !type.startsWith("text/html")) return response;
  try {
    response.headers.set("Cache-Control", "private, no-store");
    return response;
  } catch {
    const copy = new Response(response.body, response);
    copy.headers.set("Cache-Control", "private, no-store");
    return copy;
  }
}
