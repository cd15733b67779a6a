import { serializeCookie } from "~/platform/cookies.server";
import { isSecureRequest } from "~/platform/toast.server";

// The session cookie: its name, its attributes, and the header that clears it. It carries a random
// 160-bit token; D1 stores only its SHA-256 (session.server.ts, docs/decisions/0004).

export function sessionCookieName(request: Request): string {
  // The __Host- prefix needs Secure, which plain-http localhost cannot have.
  return isSecureRequest(request) ? "__Host-sb_session" : "sb_session";
}

export function sessionCookie(request: Request, token: string, maxAgeSeconds: number): string {
  return serializeCookie(sessionCookieName(request), token, {
    maxAge: maxAgeSeconds,
    httpOnly: true,
    secure: isSecureRequest(request),
    sameSite: "Lax",
  });
}

export function clearSessionCookie(request: Request): string {
  return sessionCookie(request, "", 0);
}
