// Helpers shared by the admin and agency worker tests.
import { env } from "cloudflare:workers";
import { fetchApp, postForm } from "./helpers";
import { present } from "../helpers/present";

let ipCounter = 0;
/** A fresh connecting address, so rate-limit counters of one test never touch another's. */
export function freshIp(): string {
  ipCounter += 1;
  return `198.51.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

/**
 * Where a response sends the browser: the Location header of a document response, or the
 * target React Router's single fetch encodes in a `.data` body (status 202).
 */
export async function redirectOf(res: Response): Promise<string | null> {
  const location = res.headers.get("Location");
  if (location) return location;
  if (res.status === 202 || res.headers.get("X-Remix-Response")) {
    const body = await res.clone().text();
    const match = /"redirect","([^"]+)"/.exec(body);
    if (match) return present(match[1], "the redirect target");
  }
  return null;
}

export function get(path: string, cookie?: string, headers: Record<string, string> = {}) {
  return fetchApp(path, { headers: { ...(cookie ? { Cookie: cookie } : {}), "CF-Connecting-IP": freshIp(), ...headers } });
}

export function post(path: string, fields: Record<string, string>, cookie?: string, headers: Record<string, string> = {}) {
  return postForm(path, fields, {
    headers: { ...(cookie ? { Cookie: cookie } : {}), "CF-Connecting-IP": freshIp(), ...headers },
  });
}

export async function one<T = Record<string, unknown>>(sql: string, ...binds: unknown[]): Promise<T | null> {
  return env.DB.prepare(sql)
    .bind(...binds)
    .first<T>();
}

export { count } from "./helpers";

/** A minimal valid PNG (1×1), checked by magic bytes like any upload. */
export const PNG_1X1 = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (c) =>
  c.charCodeAt(0),
);

/** The sign-up form of /auth (and /{slug}/signup), filled in. */
export function signUpFields(email: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    intent: "signup",
    fullName: "Sam Signup",
    email,
    password: "Sup3r$ecret!",
    confirmPassword: "Sup3r$ecret!",
    channelUrl: "https://www.youtube.com/@samsignup",
    subscribers: "1200",
    monthlyViews: "34000",
    acceptTerms: "on",
    ...extra,
  };
}
