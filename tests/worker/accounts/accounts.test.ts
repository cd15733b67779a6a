import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "~/platform/crypto.server";
import { createUser, signInAs } from "../../factories/users";
import {
  ORIGIN,
  TEST_PASSWORD,
  count,
  fetchApp,
  outcome,
  passwordBeforeAll,
  postForm,
  redirectTarget,
  setCookieValue,
  withCookie,
  signUpFields,
  signedCookiePayload,
} from "../helpers";
import { present } from "../../helpers/present";

const SESSION = "__Host-sb_session";
const password = passwordBeforeAll();

function ip(n: number) {
  return `203.0.113.${n}`;
}

function signInForm(email: string, password: string, headers: Record<string, string> = {}) {
  return postForm("/auth", { intent: "signin", email, password }, { headers });
}

const validSignUp = (over: Record<string, string> = {}) => signUpFields(`nova-${crypto.randomUUID().slice(0, 8)}@example.com`, over);

async function isSignedIn(cookie: string): Promise<boolean> {
  const res = await fetchApp("/api/session", withCookie(cookie));
  return res.status === 200;
}

describe("sign-in", () => {
  it("starts a new session whose cookie is not the one sent before (no session fixation)", async () => {
    const user = await createUser("creator", { passwordHash: password.hash });
    const planted = "attackerchosentoken0000000000000000";
    const res = await signInForm(user.email, TEST_PASSWORD, { Cookie: `${SESSION}=${planted}`, "CF-Connecting-IP": ip(1) });
    expect(res.status).toBe(302);
    expect(await redirectTarget(res)).toBe("/dashboard");
    const token = setCookieValue(res, SESSION);
    expect(token).toBeTruthy();
    expect(token).not.toBe(planted);
    expect(token).not.toBe(user.token);
    // The planted value is no session; the new one is, and D1 stores only its hash.
    expect(await isSignedIn(`${SESSION}=${planted}`)).toBe(false);
    expect(await isSignedIn(`${SESSION}=${token}`)).toBe(true);
    const stored = await env.DB.prepare("SELECT id FROM sessions WHERE id = ?").bind(sha256Hex(token!)).first();
    expect(stored).not.toBeNull();
    expect(await count("SELECT count(*) AS n FROM sessions WHERE id = ?", token)).toBe(0);
  });

  it("sets the session cookie with __Host-, HttpOnly, Secure, SameSite=Lax, Path=/ and Max-Age", async () => {
    const user = await createUser("creator", { passwordHash: password.hash });
    const res = await signInForm(user.email, TEST_PASSWORD, { "CF-Connecting-IP": ip(2) });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION}=`))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).toMatch(/Max-Age=\d+/);
  });

  it("answers the same for a wrong password and an unknown e-mail", async () => {
    const user = await createUser("creator", { passwordHash: password.hash });
    const wrong = await signInForm(user.email, "Wrong!Passw0rd", { "CF-Connecting-IP": ip(3) });
    const unknown = await signInForm("nobody-here@example.com", "Wrong!Passw0rd", { "CF-Connecting-IP": ip(3) });
    expect(wrong.status).toBe(400);
    expect(unknown.status).toBe(400);
    const [a, b] = [await wrong.text(), await unknown.text()];
    for (const html of [a, b]) {
      expect(html).toContain("Login failed");
      expect(html).toContain("Invalid login credentials");
    }
  });

  it("redirects only to same-origin paths after sign-in", async () => {
    const user = await createUser("creator", { passwordHash: password.hash });
    const res = await postForm(
      "/auth",
      { intent: "signin", email: user.email, password: TEST_PASSWORD, redirectTo: "//evil.example/phish" },
      { headers: { "CF-Connecting-IP": ip(4) } },
    );
    expect(await redirectTarget(res)).toBe("/dashboard");
    const ok = await postForm(
      "/auth",
      { intent: "signin", email: user.email, password: TEST_PASSWORD, redirectTo: "/settings" },
      { headers: { "CF-Connecting-IP": ip(4) } },
    );
    expect(await redirectTarget(ok)).toBe("/settings");
  });

  it("refuses a banned account and an unverified e-mail", async () => {
    const banned = await createUser("banned", { passwordHash: password.hash });
    const res = await signInForm(banned.email, TEST_PASSWORD, { "CF-Connecting-IP": ip(5) });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Your account has been banned");

    const unverified = await createUser("pending", { passwordHash: password.hash });
    await env.DB.prepare("UPDATE users SET email_verified_at = NULL WHERE id = ?").bind(unverified.id).run();
    const res2 = await signInForm(unverified.email, TEST_PASSWORD, { "CF-Connecting-IP": ip(5) });
    expect(res2.status).toBe(403);
    expect(await res2.text()).toContain("Email not confirmed");
    const mail = await env.DB.prepare("SELECT subject FROM email_outbox WHERE to_email = ? AND kind = 'email_verification'").bind(unverified.email).first();
    expect(mail).not.toBeNull();
  });

  it("sends a signed-in visitor of /auth to the dashboard", async () => {
    const user = await createUser("creator");
    expect(await outcome(await fetchApp("/auth", withCookie(user.cookie)))).toBe("→/dashboard");
  });
});

describe("sessions end", () => {
  it("on password change: every session ends, this browser gets a fresh one", async () => {
    const user = await createUser("creator", { passwordHash: password.hash });
    const other = await signInAs(user.id);
    const res = await postForm(
      "/settings",
      { intent: "change-password", currentPassword: TEST_PASSWORD, password: "N3w!Password", confirmPassword: "N3w!Password" },
      { headers: { Cookie: user.cookie } },
    );
    expect(await redirectTarget(res)).toBe("/settings");
    const fresh = setCookieValue(res, SESSION);
    expect(fresh).toBeTruthy();
    expect(await isSignedIn(user.cookie)).toBe(false);
    expect(await isSignedIn(other.cookie)).toBe(false);
    expect(await isSignedIn(`${SESSION}=${fresh}`)).toBe(true);
  });

  it("on a wrong current password nothing changes and the spec's message shows", async () => {
    const user = await createUser("creator", { passwordHash: password.hash });
    const res = await postForm(
      "/settings",
      { intent: "change-password", currentPassword: "Not!MyPassw0rd", password: "N3w!Password", confirmPassword: "N3w!Password" },
      { headers: { Cookie: user.cookie } },
    );
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Incorrect password");
    expect(html).toContain("The current password you entered is incorrect.");
    expect(await isSignedIn(user.cookie)).toBe(true);
    const row = await env.DB.prepare("SELECT password_hash FROM users WHERE id = ?").bind(user.id).first<{ password_hash: string }>();
    expect(row?.password_hash).toBe(password.hash);
  });

  it("on ban: every session of the user ends", async () => {
    const user = await createUser("creator");
    const second = await signInAs(user.id);
    const res = await postForm("/dev/factory", { intent: "ban", email: user.email });
    expect(res.status).toBe(200);
    expect(await isSignedIn(user.cookie)).toBe(false);
    expect(await isSignedIn(second.cookie)).toBe(false);
  });

  it("when a banned user's request arrives: signed out and sent to /auth", async () => {
    const user = await createUser("creator");
    await env.DB.prepare("UPDATE profiles SET is_banned = 1 WHERE user_id = ?").bind(user.id).run();
    const res = await fetchApp("/dashboard", withCookie(user.cookie));
    expect(await outcome(res)).toBe("→/auth");
    expect(res.headers.getSetCookie().some((c) => c.startsWith(`${SESSION}=;`) && /Max-Age=0/.test(c))).toBe(true);
    expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", user.id)).toBe(0);
  });

  it("'sign out other sessions' ends the others and keeps this one", async () => {
    const user = await createUser("creator");
    const other = await signInAs(user.id);
    await postForm("/settings", { intent: "sign-out-others" }, { headers: { Cookie: user.cookie } });
    expect(await isSignedIn(user.cookie)).toBe(true);
    expect(await isSignedIn(other.cookie)).toBe(false);
  });

  it("on sign-out, with the spec's toast, always to /auth", async () => {
    const user = await createUser("creator");
    const res = await postForm("/auth/sign-out", {}, { headers: { Cookie: user.cookie } });
    expect(await redirectTarget(res)).toBe("/auth");
    expect(await isSignedIn(user.cookie)).toBe(false);
    const toast = res.headers.getSetCookie().find((c) => c.startsWith("__Host-sb_toast="))!;
    const payload = atob(signedCookiePayload(toast));
    expect(payload).toContain("Signed out");
    expect(payload).toContain("You have been signed out.");
  });

  it("when expired: an idle-expired session is refused and removed", async () => {
    const user = await createUser("creator");
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE user_id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), user.id)
      .run();
    expect(await isSignedIn(user.cookie)).toBe(false);
    expect(await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", user.id)).toBe(0);
  });

  it("slides: a session used after an hour is extended, never past its absolute limit", async () => {
    const user = await createUser("creator");
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString();
    const soon = new Date(Date.now() + 60 * 60 * 1000).toISOString();
    await env.DB.prepare("UPDATE sessions SET last_seen_at = ?, expires_at = ? WHERE user_id = ?").bind(old, soon, user.id).run();
    expect(await isSignedIn(user.cookie)).toBe(true);
    const row = await env.DB.prepare("SELECT expires_at, absolute_expires_at FROM sessions WHERE user_id = ?")
      .bind(user.id)
      .first<{ expires_at: string; absolute_expires_at: string }>();
    expect(Date.parse(row!.expires_at)).toBeGreaterThan(Date.parse(soon));
    expect(Date.parse(row!.expires_at)).toBeLessThanOrEqual(Date.parse(row!.absolute_expires_at));
  });
});

describe("sign-up", () => {
  it("stores the account pending with the spec's metadata, sends the verification mail, returns to sign-in", async () => {
    const referrer = await createUser("creator");
    const form = validSignUp({ referralCode: referrer.creatorId, wantsToBeClipper: "on", acceptClipperAgreement: "on" });
    const res = await postForm("/auth", form, { headers: { "CF-Connecting-IP": ip(20) } });
    expect(await redirectTarget(res)).toBe("/auth?created=1");
    const toast = res.headers.getSetCookie().find((c) => c.startsWith("__Host-sb_toast="))!;
    expect(atob(signedCookiePayload(toast))).toContain("Account created!");
    const user = await env.DB.prepare(
      "SELECT u.id, u.user_metadata, u.email_verified_at, p.approval_status, p.referred_by, p.full_name FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.email = ?",
    )
      .bind(form.email)
      .first<Record<string, string | null>>();
    expect(user?.approval_status).toBe("pending");
    expect(user?.email_verified_at).toBeNull();
    expect(user?.referred_by).toBe(referrer.id);
    expect(JSON.parse(user!.user_metadata!)).toEqual({
      full_name: "Nova Newcomer",
      referral_code: referrer.creatorId,
      agency_slug: null,
      agency_name: null,
      youtube_channel_url: "https://www.youtube.com/@novanew",
      subscriber_count: 1200,
      monthly_views: 45000,
      wants_to_be_clipper: true,
      clipper_agreement_accepted: true,
    });
    // A referral code is never a clipper invitation (docs/decisions/0205): no clipper link, whatever was ticked.
    const link = await env.DB.prepare("SELECT creator_user_id FROM clipper_links WHERE clipper_user_id = ?").bind(user!.id).first();
    expect(link).toBeNull();
    const mail = await env.DB.prepare("SELECT body_text FROM email_outbox WHERE to_email = ? AND kind = 'email_verification'")
      .bind(form.email)
      .first<{ body_text: string }>();
    expect(mail?.body_text).toMatch(new RegExp(`${ORIGIN}/auth/verify-email\\?token=\\w+`));
  });

  it("verifies the e-mail by POST from the link (GET changes nothing), once", async () => {
    const form = validSignUp();
    await postForm("/auth", form, { headers: { "CF-Connecting-IP": ip(21) } });
    const mail = await env.DB.prepare("SELECT body_text FROM email_outbox WHERE to_email = ? AND kind = 'email_verification'")
      .bind(form.email)
      .first<{ body_text: string }>();
    const token = present(/token=(\w+)/.exec(mail!.body_text)?.[1], "the link's token in the mail");
    const page = await fetchApp(`/auth/verify-email?token=${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Confirm my e-mail");
    const before = await env.DB.prepare("SELECT email_verified_at FROM users WHERE email = ?").bind(form.email).first();
    expect(before).toEqual({ email_verified_at: null });
    const res = await postForm("/auth/verify-email", { token });
    expect(await redirectTarget(res)).toBe("/auth");
    const after = await env.DB.prepare("SELECT email_verified_at FROM users WHERE email = ?").bind(form.email).first<{ email_verified_at: string }>();
    expect(after?.email_verified_at).toBeTruthy();
    const again = await postForm("/auth/verify-email", { token });
    expect(again.status).toBe(400);
  });

  it("answers the same for an e-mail that already has an account, and creates nothing", async () => {
    const existing = await createUser("creator");
    const res = await postForm("/auth", validSignUp({ email: existing.email }), { headers: { "CF-Connecting-IP": ip(22) } });
    expect(await redirectTarget(res)).toBe("/auth?created=1");
    const n = await env.DB.prepare("SELECT count(*) AS n FROM users WHERE email = ?").bind(existing.email).first<{ n: number }>();
    expect(n?.n).toBe(1);
  });

  it.each([
    [{ password: "short1!", confirmPassword: "short1!" }, "Password requirements not met", "At least 8 characters"],
    [{ password: "lowercase1!", confirmPassword: "lowercase1!" }, "Password requirements not met", "One uppercase letter"],
    [{ password: "UPPERCASE1!", confirmPassword: "UPPERCASE1!" }, "Password requirements not met", "One lowercase letter"],
    [{ password: "NoDigits!!", confirmPassword: "NoDigits!!" }, "Password requirements not met", "One number"],
    [{ password: "NoSpecial12", confirmPassword: "NoSpecial12" }, "Password requirements not met", "One special character"],
    [{ confirmPassword: "Different!1" }, "Passwords don&#x27;t match", "Please make sure your passwords match."],
    [{ email: "not-an-email" }, "Invalid email", "Please enter a valid email address."],
    [{ email: "two@@example.com" }, "Invalid email", "Please enter a valid email address."],
    [{ email: "nodot@localhost" }, "Invalid email", "Please enter a valid email address."],
    [{ email: `${"a".repeat(250)}@example.com` }, "Input too long", "Email must be 254 characters or less."],
    [{ fullName: "x".repeat(101) }, "Input too long", "Full name must be 100 characters or less."],
    [{ acceptTerms: "" }, "Terms Required", "Please accept the Creator Agreement &amp; Monetization Terms to continue."],
    [{ wantsToBeClipper: "on" }, "Clipper Agreement Required", "Please accept the Clipper Agreement to continue as a Clipper."],
    [{ subscribers: "-5" }, "Sign up failed", "Subscribers must be a whole number of 0 or more."],
    [{ channelUrl: "not a url" }, "Sign up failed", "Please enter a valid channel URL."],
    [{ fullName: "   " }, "Sign up failed", "Full name is required."],
  ])("refuses %o with '%s' / '%s', and writes nothing", async (over, title, message) => {
    const form = validSignUp(over as Record<string, string>);
    const res = await postForm("/auth", form, { headers: { "CF-Connecting-IP": ip(23) } });
    expect(res.status).toBe(400);
    const html = await res.text();
    const decode = (s: string) => s.replace(/&#x27;/g, "'").replace(/&amp;/g, "&");
    expect(decode(html)).toContain(decode(title));
    expect(decode(html)).toContain(decode(message));
    const n = await env.DB.prepare("SELECT count(*) AS n FROM users WHERE email = ?").bind(form.email.toLowerCase()).first<{ n: number }>();
    expect(n?.n).toBe(0);
  });

  it("sanitizes the full name (angle brackets and event handlers removed)", async () => {
    const form = validSignUp({ fullName: "<img src=x onerror=alert(1)>Ann" });
    await postForm("/auth", form, { headers: { "CF-Connecting-IP": ip(24) } });
    const row = await env.DB.prepare("SELECT p.full_name FROM profiles p JOIN users u ON u.id = p.user_id WHERE u.email = ?")
      .bind(form.email)
      .first<{ full_name: string }>();
    expect(row?.full_name).not.toMatch(/[<>]/);
    expect(row?.full_name).not.toMatch(/onerror\s*=/i);
    expect(row?.full_name).toContain("Ann");
  });

  it("accepts a 64-character passphrase without truncating it", async () => {
    const long = `Aa1!${"x".repeat(60)}`;
    const form = validSignUp({ password: long, confirmPassword: long });
    await postForm("/auth", form, { headers: { "CF-Connecting-IP": ip(25) } });
    await env.DB.prepare("UPDATE users SET email_verified_at = ? WHERE email = ?").bind(new Date().toISOString(), form.email).run();
    const shorter = await signInForm(form.email, long.slice(0, 63), { "CF-Connecting-IP": ip(25) });
    expect(shorter.status).toBe(400);
    const ok = await signInForm(form.email, long, { "CF-Connecting-IP": ip(25) });
    expect(ok.status).toBe(302);
  });
});

describe("password reset", () => {
  it("mails a one-time link, ends every session, and the new password works", async () => {
    const user = await createUser("creator", { passwordHash: password.hash });
    const res = await postForm("/auth/forgot-password", { email: user.email }, { headers: { "CF-Connecting-IP": ip(30) } });
    expect(res.status).toBe(200);
    const mail = await env.DB.prepare("SELECT body_text FROM email_outbox WHERE to_email = ? AND kind = 'password_reset'")
      .bind(user.email)
      .first<{ body_text: string }>();
    const token = present(/token=(\w+)/.exec(mail!.body_text)?.[1], "the link's token in the mail");
    const done = await postForm("/auth/reset-password", { token, password: "Fresh!Pass1", confirmPassword: "Fresh!Pass1" });
    // The link proves the owner: this browser is signed in (docs/decisions/0060-lockout.md).
    expect(await redirectTarget(done)).toBe("/dashboard");
    expect(await isSignedIn(user.cookie)).toBe(false);
    const again = await postForm("/auth/reset-password", { token, password: "Other!Pass1", confirmPassword: "Other!Pass1" });
    expect(again.status).toBe(400);
    expect((await signInForm(user.email, "Fresh!Pass1", { "CF-Connecting-IP": ip(30) })).status).toBe(302);
  });

  it("answers the same whether or not the account exists", async () => {
    const a = await postForm("/auth/forgot-password", { email: "ghost@example.com" }, { headers: { "CF-Connecting-IP": ip(31) } });
    expect(a.status).toBe(200);
    expect(await a.text()).toContain("If an account exists for that e-mail address");
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = 'ghost@example.com'")).toBe(0);
  });
});

describe("rate limits", () => {
  it("allows 5 failed sign-ins per account in 15 minutes, then 429; a spoofed X-Forwarded-For does not reset it", async () => {
    const user = await createUser("creator", { passwordHash: password.hash });
    for (let i = 0; i < 5; i++) {
      const res = await signInForm(user.email, "Wrong!Pass1", {
        "CF-Connecting-IP": ip(40),
        "X-Forwarded-For": `198.51.100.${i}`,
      });
      expect(res.status).toBe(400);
    }
    const limited = await signInForm(user.email, TEST_PASSWORD, {
      "CF-Connecting-IP": ip(41),
      "X-Forwarded-For": "198.51.100.99",
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    const html = await limited.text();
    expect(html).toContain("Too many attempts");
    expect(html).toContain("Please wait 15 minutes before trying again.");
  });

  it("allows 15 sign-ups per hour per address, then 429 with Retry-After", async () => {
    for (let i = 0; i < 15; i++) {
      const res = await postForm("/auth", validSignUp(), {
        headers: { "CF-Connecting-IP": ip(50), "X-Forwarded-For": `10.0.0.${i}` },
      });
      expect(res.status, `sign-up ${i + 1}`).toBe(302);
    }
    const form = validSignUp();
    const res = await postForm("/auth", form, { headers: { "CF-Connecting-IP": ip(50), "X-Forwarded-For": "10.9.9.9" } });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await res.text()).toContain("Please wait 60 minutes before trying again.");
    expect(await count("SELECT count(*) AS n FROM users WHERE email = ?", form.email)).toBe(0);
    // Another address is not affected.
    expect((await postForm("/auth", validSignUp(), { headers: { "CF-Connecting-IP": ip(51) } })).status).toBe(302);
  });

  it("flags suspicious activity at 10 failed sign-ins from one address and denies the next", async () => {
    for (let i = 0; i < 10; i++) {
      await signInForm(`victim${i}@example.com`, "Wrong!Pass1", { "CF-Connecting-IP": ip(60) });
    }
    const res = await signInForm("another@example.com", "Wrong!Pass1", { "CF-Connecting-IP": ip(60) });
    expect(res.status).toBe(429);
    const row = await env.DB.prepare("SELECT severity, details FROM security_audit_log WHERE event_type = 'SUSPICIOUS_ACTIVITY_DETECTED' AND ip = ?")
      .bind(ip(60))
      .first<{ severity: string; details: string }>();
    expect(row?.severity).toBe("high");
    expect(JSON.parse(row!.details).action).toBe("signin");
  });
});

describe("Google sign-in through the stand-in provider", () => {
  async function googleFlow(account: string, ref?: string) {
    const start = await postForm("/auth/google", ref ? { ref } : {});
    expect(start.status).toBe(302);
    const authorizeUrl = new URL(start.headers.get("Location")!);
    expect(authorizeUrl.pathname).toBe("/dev/oauth/authorize");
    expect(authorizeUrl.searchParams.get("code_challenge_method")).toBe("S256");
    const flowCookie = start.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const picked = await postForm(authorizeUrl.pathname + authorizeUrl.search, { account });
    const callback = new URL(picked.headers.get("Location")!);
    expect(callback.pathname).toBe("/auth/google/callback");
    return { callback, flowCookie };
  }

  it("creates a pending account that passes the approval gate, keeping the referral code", async () => {
    const referrer = await createUser("creator");
    const { callback, flowCookie } = await googleFlow("google-sam-0001", referrer.creatorId);
    const res = await fetchApp(callback.pathname + callback.search, withCookie(flowCookie));
    // A new account gives its sign-up details and accepts the terms first (docs/decisions/0324).
    expect(await redirectTarget(res)).toBe("/auth/finish-sign-up");
    const token = setCookieValue(res, SESSION)!;
    // Pending and unfinished: the dashboard sends the new account to the finishing step.
    expect(await outcome(await fetchApp("/dashboard", withCookie(`${SESSION}=${token}`)))).toBe("→/auth/finish-sign-up");
    const row = await env.DB.prepare(
      "SELECT p.approval_status, p.referred_by, u.password_hash FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.email = 'sam.google@example.com'",
    ).first<Record<string, string | null>>();
    expect(row).toEqual({ approval_status: "pending", referred_by: referrer.id, password_hash: null });
  });

  it("refuses a callback whose state does not match the cookie", async () => {
    const { callback, flowCookie } = await googleFlow("google-sam-0001");
    callback.searchParams.set("state", "forged-state");
    const res = await fetchApp(callback.pathname + callback.search, withCookie(flowCookie));
    expect(await redirectTarget(res)).toBe("/auth");
    expect(setCookieValue(res, SESSION)).toBeNull();
    const toast = res.headers.getSetCookie().find((c) => c.startsWith("__Host-sb_toast="))!;
    expect(atob(signedCookiePayload(toast))).toContain("Google sign in failed");
  });

  it("refuses a callback without the flow cookie, and a code used twice", async () => {
    const { callback, flowCookie } = await googleFlow("google-sam-0001");
    expect(setCookieValue(await fetchApp(callback.pathname + callback.search), SESSION)).toBeNull();
    const first = await fetchApp(callback.pathname + callback.search, withCookie(flowCookie));
    expect(setCookieValue(first, SESSION)).toBeTruthy();
    const replay = await fetchApp(callback.pathname + callback.search, withCookie(flowCookie));
    expect(setCookieValue(replay, SESSION)).toBeNull();
  });

  it("links an existing account only when the provider says the e-mail is verified", async () => {
    await createUser("creator", { email: "unverified.google@example.com" });
    const { callback, flowCookie } = await googleFlow("google-una-0003");
    const res = await fetchApp(callback.pathname + callback.search, withCookie(flowCookie));
    expect(await redirectTarget(res)).toBe("/auth");
    expect(setCookieValue(res, SESSION)).toBeNull();
  });
});

describe("strict sanitizer on the referral code", () => {
  it("drops a malformed code, logs INVALID_INPUT_REJECTED, and still creates the account", async () => {
    const form = validSignUp({ referralCode: "!!!" });
    const res = await postForm("/auth", form, { headers: { "CF-Connecting-IP": ip(70) } });
    expect(await redirectTarget(res)).toBe("/auth?created=1");
    const row = await env.DB.prepare("SELECT severity FROM security_audit_log WHERE event_type = 'INVALID_INPUT_REJECTED' AND ip = ?")
      .bind(ip(70))
      .first<{ severity: string }>();
    expect(row?.severity).toBe("medium");
    const user = await env.DB.prepare("SELECT user_metadata FROM users WHERE email = ?").bind(form.email).first<{ user_metadata: string }>();
    expect(JSON.parse(user!.user_metadata).referral_code).toBeNull();
  });
});

describe("CSP violation reports", () => {
  const report = JSON.stringify({
    "csp-report": { "blocked-uri": "https://evil.example/x.js", "violated-directive": "script-src" },
  });

  it("are accepted without an Origin, and forwarded to the audit log only for admins", async () => {
    const creator = await createUser("creator");
    const admin = await createUser("admin");
    const asCreator = await fetchApp("/api/csp-report", {
      method: "POST",
      body: report,
      headers: { Cookie: creator.cookie, "Content-Type": "application/csp-report" },
    });
    const asAdmin = await fetchApp("/api/csp-report", {
      method: "POST",
      body: report,
      headers: { Cookie: admin.cookie, "Content-Type": "application/csp-report" },
    });
    expect(asCreator.status).toBe(204);
    expect(asAdmin.status).toBe(204);
    const rows = await env.DB.prepare("SELECT user_id FROM security_audit_log WHERE event_type = 'csp_violation'").all<{
      user_id: string;
    }>();
    expect(rows.results.map((r) => r.user_id)).toEqual([admin.id]);
  });
});

describe("profile", () => {
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1]);

  function upload(cookie: string, bytes: Uint8Array, name: string, type: string) {
    const form = new FormData();
    form.set("intent", "avatar");
    form.set("avatar", new File([bytes as BlobPart], name, { type }));
    return fetchApp("/profile", { method: "POST", body: form, headers: { Cookie: cookie, Origin: ORIGIN } });
  }

  it("uploads an avatar checked by content to AVATARS and shows it from its public URL", async () => {
    const user = await createUser("pending");
    const res = await upload(user.cookie, PNG, "me.png", "image/png");
    expect(res.status).toBe(200);
    const row = await env.DB.prepare("SELECT avatar_url FROM profiles WHERE user_id = ?").bind(user.id).first<{ avatar_url: string }>();
    expect(row?.avatar_url).toMatch(new RegExp(`^/media/avatars/avatars/${user.id}/[0-9a-f-]+\\.png$`));
    const served = await fetchApp(row!.avatar_url);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    // The shell shows it.
    const page = await fetchApp("/profile", withCookie(user.cookie));
    expect(await page.text()).toContain(row!.avatar_url);
  });

  it("refuses a file whose content is not an image, whatever its name and declared type, and one over 2 MB", async () => {
    const user = await createUser("creator");
    const fake = await upload(user.cookie, new TextEncoder().encode("<script>alert(1)</script>"), "evil.png", "image/png");
    expect(fake.status).toBe(400);
    expect(await fake.text()).toContain("Avatar must be one of: PNG, JPG, WEBP.");
    const big = new Uint8Array(2 * 1024 * 1024 + 1);
    big.set(PNG);
    const tooBig = await upload(user.cookie, big, "big.png", "image/png");
    expect(tooBig.status).toBe(400);
    expect(await tooBig.text()).toContain("Avatar must be 2 MB or smaller.");
    const row = await env.DB.prepare("SELECT avatar_url FROM profiles WHERE user_id = ?").bind(user.id).first<{ avatar_url: string | null }>();
    expect(row?.avatar_url).toBeNull();
  });

  it("updates the name with the length check, and only for the signed-in user", async () => {
    const user = await createUser("creator");
    const tooLong = await postForm("/profile", { intent: "name", fullName: "x".repeat(101) }, { headers: { Cookie: user.cookie } });
    expect(tooLong.status).toBe(400);
    const html = await tooLong.text();
    expect(html).toContain("Input too long");
    expect(html).toContain("Full name must be 100 characters or less.");
    const ok = await postForm("/profile", { intent: "name", fullName: "Renamed Person" }, { headers: { Cookie: user.cookie } });
    expect(ok.status).toBe(200);
    const row = await env.DB.prepare("SELECT full_name FROM profiles WHERE user_id = ?").bind(user.id).first<{ full_name: string }>();
    expect(row?.full_name).toBe("Renamed Person");
    const anon = await postForm("/profile", { intent: "name", fullName: "Nobody" });
    expect(await outcome(anon)).toBe("→/auth");
  });
});
