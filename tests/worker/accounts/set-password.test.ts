import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser, signInAs } from "../../factories/users";
import { TEST_PASSWORD, count, fetchApp, passwordBeforeAll, postForm, redirectTarget, setCookieValue, withCookie } from "../helpers";

// Issue 42 §3: a Google-only account was asked for a "Current password" it never had. Settings now
// offers "Set a password": no current password, a Google sign-in of the last 10 minutes instead, and
// every other session ends (SECURITY.md: all sessions end on a password change). docs/decisions/0325.

const SESSION = "__Host-sb_session";
const passwordHolder = passwordBeforeAll();

async function googleOnly(sessionAgeMs = 0) {
  const user = await createUser("creator");
  await env.DB.prepare("UPDATE users SET password_hash = NULL WHERE id = ?").bind(user.id).run();
  await env.DB.prepare("UPDATE sessions SET created_at = ? WHERE user_id = ?")
    .bind(new Date(Date.now() - sessionAgeMs).toISOString(), user.id)
    .run();
  return user;
}

const setPassword = (cookie: string, password = TEST_PASSWORD, confirmPassword = password) =>
  postForm("/settings", { intent: "set-password", password, confirmPassword }, withCookie(cookie));

const hashOf = async (id: string) =>
  (await env.DB.prepare("SELECT password_hash FROM users WHERE id = ?").bind(id).first<{ password_hash: string | null }>())?.password_hash;

describe("Settings → Set a password, for an account that only signs in with Google", () => {
  it("offers 'Set a password' without a current password field", async () => {
    const user = await googleOnly();
    const page = await (await fetchApp("/settings", withCookie(user.cookie))).text();
    expect(page).toContain("Set a password");
    expect(page).not.toContain('name="currentPassword"');
    // An account with a password keeps 'Change password' with its current password.
    const other = await createUser("creator", { passwordHash: passwordHolder.hash });
    const withPassword = await (await fetchApp("/settings", withCookie(other.cookie))).text();
    expect(withPassword).toContain('name="currentPassword"');
    expect(withPassword).not.toContain("Set a password");
  });

  it("sets it after a fresh Google sign-in, ends the other sessions, and the password then signs in", async () => {
    const user = await googleOnly();
    const other = await signInAs(user.id);
    const res = await setPassword(user.cookie);
    expect(await redirectTarget(res)).toBe("/settings");
    expect(await hashOf(user.id)).toMatch(/^\$argon2id\$/);
    // Every earlier session ended, this browser has a fresh one.
    expect((await fetchApp("/api/session", withCookie(other.cookie))).status).toBe(401);
    expect((await fetchApp("/api/session", withCookie(user.cookie))).status).toBe(401);
    const fresh = setCookieValue(res, SESSION);
    expect((await fetchApp("/api/session", withCookie(`${SESSION}=${fresh}`))).status).toBe(200);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'password_set' AND user_id = ?", user.id)).toBe(1);

    const signIn = await postForm(
      "/auth",
      { intent: "signin", email: user.email, password: TEST_PASSWORD },
      { headers: { "CF-Connecting-IP": "203.0.113.90" } },
    );
    expect(await redirectTarget(signIn)).toBe("/dashboard");
  });

  it("refuses an old session (sign in with Google again), a weak password, and a second time", async () => {
    const stale = await googleOnly(60 * 60_000);
    const refused = await setPassword(stale.cookie);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("sign in with Google again");
    expect(await hashOf(stale.id)).toBeNull();

    const user = await googleOnly();
    expect((await setPassword(user.cookie, "weak")).status).toBe(400);
    expect((await setPassword(user.cookie, TEST_PASSWORD, "Other#Passw0rd")).status).toBe(400);
    expect(await hashOf(user.id)).toBeNull();

    // Two at once: one password is set, the other request is refused and changes nothing.
    const answers = await Promise.all([setPassword(user.cookie, TEST_PASSWORD), setPassword(user.cookie, "Second#Passw0rd")]);
    // (The loser is 409, or, if the winner already ended its session, sent to sign in.)
    const targets = await Promise.all(answers.map((r) => redirectTarget(r)));
    expect(targets.filter((t) => t === "/settings")).toHaveLength(1);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'password_set' AND user_id = ?", user.id)).toBe(1);
  });

  it("an account with a password cannot use it to skip the current password", async () => {
    const user = await createUser("creator", { passwordHash: passwordHolder.hash });
    const res = await setPassword(user.cookie, "Taken#Over1");
    expect(res.status).toBe(409);
    expect(await hashOf(user.id)).toBe(passwordHolder.hash);
  });
});
