import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hasControlCharacters } from "~/lib/sanitize";
import { createUser, signInAs } from "../../factories/users";
import {
  TEST_PASSWORD,
  count,
  fetchApp,
  googleAs,
  passwordBeforeAll,
  postForm,
  redirectTarget,
  setCookieValue,
  withCookie,
  signedCookiePayload,
} from "../helpers";
import { present } from "../../helpers/present";

// Google sign-in against the attacks of issue 11: account pre-hijack (item 1), an e-mail Google
// does not vouch for, and names from Google (item 12).

const SESSION = "__Host-sb_session";
const password = passwordBeforeAll();

let n = 0;
const ip = () => `198.51.100.${++n}`;

function toastOf(res: Response): string {
  const toast = res.headers.getSetCookie().find((c) => c.startsWith("__Host-sb_toast="));
  if (!toast) return "";
  return new TextDecoder().decode(Uint8Array.from(atob(signedCookiePayload(toast)), (c) => c.charCodeAt(0)));
}

function signUpForm(email: string, pass: string) {
  return postForm(
    "/auth",
    {
      intent: "signup",
      fullName: "Attacker Chosen",
      email,
      password: pass,
      confirmPassword: pass,
      channelUrl: "https://www.youtube.com/@attacker",
      subscribers: "1",
      monthlyViews: "1",
      acceptTerms: "on",
    },
    { headers: { "CF-Connecting-IP": ip() } },
  );
}

const signIn = (email: string, pass: string) => postForm("/auth", { intent: "signin", email, password: pass }, { headers: { "CF-Connecting-IP": ip() } });

const isSignedIn = async (cookie: string) => (await fetchApp("/api/session", withCookie(cookie))).status === 200;

describe("account pre-hijack: a verified Google identity takes over an unverified password account", () => {
  it("removes the first sign-up's password, ends its sessions and signs the Google user in", async () => {
    const victim = `victim-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const attackerPassword = "Att4cker!Pass";
    // 1. The attacker signs up with the victim's address and never verifies it.
    expect(await redirectTarget(await signUpForm(victim, attackerPassword))).toBe("/auth?created=1");
    const account = (await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(victim).first<{ id: string }>())!;
    // A session of the account (however it came to exist) must not survive the takeover.
    const planted = await signInAs(account.id);
    expect(await isSignedIn(planted.cookie)).toBe(true);

    // 2. The victim continues with Google, which vouches for the address.
    const res = await googleAs({ email: victim, name: "Real Owner" });
    expect(await redirectTarget(res)).toBe("/dashboard");
    const session = setCookieValue(res, SESSION);
    expect(session).toBeTruthy();
    expect(await isSignedIn(`${SESSION}=${session}`)).toBe(true);

    const row = await env.DB.prepare("SELECT u.password_hash, u.email_verified_at, p.full_name FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = ?")
      .bind(account.id)
      .first<{ password_hash: string | null; email_verified_at: string | null; full_name: string }>();
    expect(row?.password_hash).toBeNull();
    expect(row?.email_verified_at).toBeTruthy();
    expect(row?.full_name).toBe("Real Owner");
    expect(await count("SELECT count(*) AS n FROM oauth_accounts WHERE user_id = ? AND provider = 'google'", account.id)).toBe(1);
    expect(await isSignedIn(planted.cookie)).toBe(false);
    expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", account.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM one_time_tokens WHERE user_id = ? AND used_at IS NULL", account.id)).toBe(0);
    const audited = await env.DB.prepare(
      "SELECT severity, details FROM security_audit_log WHERE event_type = 'account_taken_over_by_verified_identity' AND user_id = ?",
    )
      .bind(account.id)
      .first<{ severity: string; details: string }>();
    expect(audited?.severity).toBe("high");
    expect(JSON.parse(audited!.details)).toMatchObject({ provider: "google", reason: "unverified_password_account" });

    // 3. The attacker's password never works again.
    const attempt = await signIn(victim, attackerPassword);
    expect(attempt.status).toBe(400);
    expect(setCookieValue(attempt, SESSION)).toBeNull();
    expect(await attempt.text()).toContain("Invalid login credentials");

    // 4. The owner may set a password by reset, and it works.
    await postForm("/auth/forgot-password", { email: victim }, { headers: { "CF-Connecting-IP": ip() } });
    const mail = await env.DB.prepare("SELECT body_text FROM email_outbox WHERE to_email = ? AND kind = 'password_reset'")
      .bind(victim)
      .first<{ body_text: string }>();
    const token = present(/token=(\w+)/.exec(mail!.body_text)?.[1], "the link's token in the mail");
    await postForm("/auth/reset-password", { token, password: "Own3r!Chosen", confirmPassword: "Own3r!Chosen" });
    expect((await signIn(victim, "Own3r!Chosen")).status).toBe(302);
    expect((await signIn(victim, attackerPassword)).status).toBe(400);
  });

  it("links a verified password account and keeps its password (its owner proved the address)", async () => {
    const owner = await createUser("creator", { passwordHash: password.hash });
    const mine = await signInAs(owner.id);
    const res = await googleAs({ email: owner.email });
    expect(await redirectTarget(res)).toBe("/dashboard");
    expect(await isSignedIn(mine.cookie)).toBe(true);
    expect((await signIn(owner.email, TEST_PASSWORD)).status).toBe(302);
    expect(
      await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'account_taken_over_by_verified_identity' AND user_id = ?", owner.id),
    ).toBe(0);
  });
});

describe("an e-mail Google reports as unverified", () => {
  it("creates no account and no session: 'Google sign in failed' with the reason", async () => {
    const email = `unverified-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const res = await googleAs({ email, unverified: true });
    expect(await redirectTarget(res)).toBe("/auth");
    expect(setCookieValue(res, SESSION)).toBeNull();
    const toast = toastOf(res);
    expect(toast).toContain("Google sign in failed");
    expect(toast).toContain("not verified");
    expect(await count("SELECT count(*) AS n FROM users WHERE email = ?", email)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM oauth_accounts WHERE email = ?", email)).toBe(0);
  });

  it("does not sign in to, or change, an existing account with that e-mail", async () => {
    const victim = `victim-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await signUpForm(victim, "Att4cker!Pass");
    const before = await env.DB.prepare("SELECT password_hash, email_verified_at FROM users WHERE email = ?").bind(victim).first();
    const res = await googleAs({ email: victim, unverified: true });
    expect(setCookieValue(res, SESSION)).toBeNull();
    expect(await env.DB.prepare("SELECT password_hash, email_verified_at FROM users WHERE email = ?").bind(victim).first()).toEqual(before);
  });
});

describe("names from Google", () => {
  it("are sanitized and capped like the sign-up form's full name", async () => {
    const email = `named-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const name = `Ann\u0000\u0007\u001b<script>alert(1)</script>javajavascript:script:${"x".repeat(500)}`;
    const res = await googleAs({ email, name });
    // A new account finishes signing up first (docs/decisions/0324).
    expect(await redirectTarget(res)).toBe("/auth/finish-sign-up");
    const row = await env.DB.prepare("SELECT p.full_name, u.user_metadata FROM profiles p JOIN users u ON u.id = p.user_id WHERE u.email = ?")
      .bind(email)
      .first<{ full_name: string; user_metadata: string }>();
    for (const kept of [row!.full_name, JSON.parse(row!.user_metadata).full_name as string]) {
      expect(kept.length).toBeLessThanOrEqual(100);
      expect(kept.startsWith("Ann")).toBe(true);
      expect(hasControlCharacters(kept)).toBe(false);
      expect(kept).not.toMatch(/[<>]/);
      expect(kept).not.toMatch(/javascript:/i);
    }
  });
});
