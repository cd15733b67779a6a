import { env, exports } from "cloudflare:workers";
import { beforeAll, expect } from "vitest";
import { hashPassword } from "~/modules/accounts/accounts.server";
import { readToast } from "~/platform/toast.server";
import { present } from "../helpers/present";

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

/** Where a response sends the browser: a document 3xx Location, or a .data SingleFetchRedirect. */
export async function redirectTarget(res: Response): Promise<string | null> {
  if (res.status >= 300 && res.status < 400) {
    const loc = res.headers.get("Location");
    return loc ? new URL(loc, ORIGIN).pathname + new URL(loc, ORIGIN).search : null;
  }
  if (res.status === 202 || res.headers.get("Content-Type")?.includes("text/x-script")) {
    const body = await res.clone().text();
    const m = /"SingleFetchRedirect".*?"redirect","([^"]+)"/.exec(body);
    if (m) return present(m[1], "the SingleFetchRedirect target");
  }
  return null;
}

/** The body of a response, after checking that it answered 200. */
export async function okText(res: Response | Promise<Response>): Promise<string> {
  const answer = await res;
  expect(answer.status).toBe(200);
  return answer.text();
}

/** The outcome a person would see: "200", "404", or "→/path". */
export async function outcome(res: Response): Promise<string> {
  const target = await redirectTarget(res);
  if (target) return `→${target.split("?")[0]}`;
  return String(res.status);
}

export function withCookie(cookie: string | null, init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  if (cookie) headers.set("Cookie", cookie);
  return { ...init, headers };
}

/** The Set-Cookie value for a cookie name (without attributes), or null. */
export function setCookieValue(res: Response, name: string): string | null {
  for (const c of res.headers.getSetCookie()) {
    const [pair = ""] = c.split(";");
    const [k = "", ...v] = pair.split("=");
    if (k.trim() === name) return v.join("=");
  }
  return null;
}

/** The base64 payload of a signed cookie as a Set-Cookie header carries it: `name=<payload>.<signature>; attributes`. */
export function signedCookiePayload(setCookie: string): string {
  const [, value] = setCookie.split("=");
  const [encoded = ""] = present(value, `a value in the cookie ${setCookie}`).split(";");
  const [payload = ""] = decodeURIComponent(encoded).split(".");
  return payload;
}

/** The toast a response sets for the next page (its title and description), or null. */
export async function toastOf(res: Response): Promise<{ title: string; description: string | undefined } | null> {
  const pair = res.headers
    .getSetCookie()
    .find((c) => c.startsWith("__Host-sb_toast="))
    ?.split(";")[0];
  if (!pair) return null;
  const { toast } = await readToast(new Request(ORIGIN, { headers: { Cookie: pair } }));
  return toast ? { title: toast.title, description: toast.description } : null;
}

/** Sign-in through Google's stand-in, its "Use another account" form: any e-mail, name and verified flag. The callback's answer. */
export async function googleAs(fields: { email: string; name?: string; unverified?: boolean }) {
  const start = await postForm("/auth/google", {});
  const authorizeUrl = new URL(start.headers.get("Location")!);
  const flowCookie = start.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const picked = await postForm(authorizeUrl.pathname + authorizeUrl.search, {
    email: fields.email,
    name: fields.name ?? "Google Person",
    ...(fields.unverified ? { unverified: "on" } : {}),
  });
  const callback = new URL(picked.headers.get("Location")!);
  expect(callback.pathname).toBe("/auth/google/callback");
  return fetchApp(callback.pathname + callback.search, withCookie(flowCookie));
}

/** The `n` of a `SELECT count(*) AS n …` query. */
export async function count(sql: string, ...binds: unknown[]): Promise<number> {
  const row = await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>();
  return Number(row?.n ?? 0);
}

/** How many notifications in the user's bell match `condition` (on `n`, the notification). */
export function bellCount(userId: string, condition: string): Promise<number> {
  return count(`SELECT count(*) AS n FROM user_notifications u JOIN notifications n ON n.id = u.notification_id WHERE u.user_id = ? AND ${condition}`, userId);
}

/** The password of the test accounts that sign in with one. */
export const TEST_PASSWORD = "Str0ng!Passw0rd";

/** A valid creator sign-up form for /auth (intent=signup), with fields changed by `over`. */
export const signUpFields = (email: string, over: Record<string, string> = {}): Record<string, string> & { email: string } => ({
  intent: "signup",
  fullName: "Nova Newcomer",
  email,
  password: TEST_PASSWORD,
  confirmPassword: TEST_PASSWORD,
  channelUrl: "https://www.youtube.com/@novanew",
  subscribers: "1200",
  monthlyViews: "45000",
  acceptTerms: "on",
  ...over,
});

/**
 * Before the file's tests: the hash of TEST_PASSWORD (for `createUser(kind, { passwordHash })`),
 * made once because argon2 is slow, and the file's first request, which compiles the whole app
 * inside workerd: neither is part of any test's time. Read `.hash` inside the tests.
 */
export function passwordBeforeAll(): { hash: string } {
  const password = { hash: "" };
  beforeAll(async () => {
    password.hash = await hashPassword(TEST_PASSWORD);
    await fetchApp("/auth");
  }, 180_000);
  return password;
}
