import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser } from "../../factories/users";
import { TEST_PASSWORD, fetchApp, googleAs, passwordBeforeAll, postForm, redirectTarget, setCookieValue, withCookie } from "../helpers";
import { present } from "../../helpers/present";

// Lockout as denial of service (issue 11, item 10): anyone can exhaust an account's sign-in limit
// by failing its password. The limit stays; the owner gets in through a flow that proves them
// (a reset link, Google). See docs/decisions/0060-lockout.md.

const SESSION = "__Host-sb_session";
const password = passwordBeforeAll();

let n = 0;
const ip = () => `203.0.113.${100 + ++n}`;

const signIn = (email: string, pass: string) => postForm("/auth", { intent: "signin", email, password: pass }, { headers: { "CF-Connecting-IP": ip() } });

/** An attacker fails the account's password from many addresses until its sign-in limit is spent. */
async function lockOut(email: string) {
  for (let i = 0; i < 5; i++) expect((await signIn(email, "Wrong!Passw0rd")).status).toBe(400);
  const locked = await signIn(email, TEST_PASSWORD);
  expect(locked.status).toBe(429);
  expect(await locked.text()).toContain("Too many attempts");
}

const isSignedIn = async (token: string | null) => Boolean(token) && (await fetchApp("/api/session", withCookie(`${SESSION}=${token}`))).status === 200;

describe("a locked account's owner still gets in through a verified flow", () => {
  it("a reset link works and signs in while the sign-in limit is exhausted; the limit itself stays", async () => {
    const owner = await createUser("creator", { passwordHash: password.hash });
    await lockOut(owner.email);

    await postForm("/auth/forgot-password", { email: owner.email }, { headers: { "CF-Connecting-IP": ip() } });
    const mail = await env.DB.prepare("SELECT body_text FROM email_outbox WHERE to_email = ? AND kind = 'password_reset'")
      .bind(owner.email)
      .first<{ body_text: string }>();
    const token = present(/token=(\w+)/.exec(mail!.body_text)?.[1], "the link's token in the mail");
    const done = await postForm("/auth/reset-password", { token, password: "Fresh!Pass1", confirmPassword: "Fresh!Pass1" });
    expect(await redirectTarget(done)).toBe("/dashboard");
    expect(await isSignedIn(setCookieValue(done, SESSION))).toBe(true);

    // Password guessing stays limited for the window (credential stuffing from many addresses).
    expect((await signIn(owner.email, "Fresh!Pass1")).status).toBe(429);
  });

  it("Google sign-in works and signs in while the sign-in limit is exhausted", async () => {
    const owner = await createUser("creator", { passwordHash: password.hash });
    await lockOut(owner.email);

    const res = await googleAs({ email: owner.email, name: "Owner" });
    expect(await redirectTarget(res)).toBe("/dashboard");
    expect(await isSignedIn(setCookieValue(res, SESSION))).toBe(true);
  });
});
