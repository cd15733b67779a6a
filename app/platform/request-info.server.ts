/** The connecting address as Cloudflare reports it. Never X-Forwarded-For: clients set that. */
export function clientIp(request: Request): string {
  return request.headers.get("CF-Connecting-IP") ?? "unknown";
}

export function userAgent(request: Request): string {
  return (request.headers.get("User-Agent") ?? "").slice(0, 300);
}

export function nowIso(): string {
  return new Date().toISOString();
}
