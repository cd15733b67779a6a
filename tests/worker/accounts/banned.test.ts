import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { banUser, endUserSessions, unbanUser } from "~/modules/accounts/accounts.server";
import { actorFor } from "../../factories/actors";
import { createUser, type TestUser } from "../../factories/users";
import { ORIGIN, fetchApp, outcome, passwordBeforeAll, postForm, redirectTarget, withCookie } from "../helpers";

// Issue 11 item 20: a user banned while signed in sees the reason on /auth ('Your account has been
// banned: <reason>', bannedMessage), not only 'Signed out' — on the next navigation (document or
// .data), through the tab's own sign-out after the socket's 'banned' event, and on /auth itself.

const REASON = "Posting spam links";
const MESSAGE = `Your account has been banned: ${REASON}`;
const request = new Request(`${ORIGIN}/admin`, { method: "POST" });

/** The cookies a response sets, as a Cookie header for the next request (expired ones left out). */
function cookiesFrom(res: Response): string {
  return res.headers
    .getSetCookie()
    .filter((c) => !/Max-Age=0\b/.test(c))
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** Follows a response's redirect like a browser: the page it lands on, with the cookies it was given. */
async function land(res: Response): Promise<{ path: string; html: string }> {
  const target = await redirectTarget(res);
  expect(target).not.toBeNull();
  const page = await fetchApp(target!, withCookie(cookiesFrom(res)));
  expect(page.status).toBe(200);
  return { path: new URL(target!, ORIGIN).pathname, html: await page.text() };
}

async function bannedUser(): Promise<TestUser> {
  const admin = await createUser("admin");
  const user = await createUser("creator");
  await banUser(actorFor(admin, { isAdmin: true }), user.id, REASON, request);
  return user;
}

passwordBeforeAll();

describe("a user banned while signed in", () => {
  it("the next page load lands on /auth with the reason, and the dead cookie is cleared", async () => {
    const user = await bannedUser();
    const res = await fetchApp("/channels", withCookie(user.cookie));
    expect(await outcome(res)).toBe("→/auth");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("__Host-sb_session=;"))).toBe(true);
    const { path, html } = await land(res);
    expect(path).toBe("/auth");
    expect(html).toContain("Account banned");
    expect(html).toContain(MESSAGE);
    expect(html).not.toContain("Signed out");
  });

  it("a client-side navigation (.data) is redirected to /auth with the reason too", async () => {
    const user = await bannedUser();
    const res = await fetchApp("/dashboard.data", withCookie(user.cookie));
    expect(await redirectTarget(res)).toBe("/auth");
    const { html } = await land(res);
    expect(html).toContain(MESSAGE);
  });

  it("the tab's own sign-out (after the socket's 'banned' event) says why, not 'Signed out'", async () => {
    const user = await bannedUser();
    // The tab's API calls in between (401) keep the cookie that tells why; only a telling answer clears it.
    const api = await fetchApp("/api/session", withCookie(user.cookie));
    expect(api.status).toBe(401);
    expect(api.headers.getSetCookie().some((c) => c.startsWith("__Host-sb_session="))).toBe(false);
    const res = await postForm("/auth/sign-out", {}, { headers: { Cookie: user.cookie } });
    expect(await outcome(res)).toBe("→/auth");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("__Host-sb_session=;"))).toBe(true);
    const { html } = await land(res);
    expect(html).toContain(MESSAGE);
    expect(html).not.toContain("You have been signed out.");
  });

  it("opening /auth itself with the dead cookie shows the reason once", async () => {
    const user = await bannedUser();
    const res = await fetchApp("/auth?mode=signin", withCookie(user.cookie));
    expect(await redirectTarget(res)).toBe("/auth?mode=signin");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("__Host-sb_session=;"))).toBe(true);
    const { html } = await land(res);
    expect(html).toContain(MESSAGE);
    // The cookie is gone now: the next visit is a plain /auth.
    const again = await fetchApp("/auth", withCookie(cookiesFrom(res)));
    expect(again.status).toBe(200);
  });

  it("is told nothing of a ban once it is lifted, nor when an admin only ended the sessions", async () => {
    const admin = await createUser("admin");
    const lifted = await bannedUser();
    await unbanUser(actorFor(admin, { isAdmin: true }), lifted.id, "Appeal accepted", request);
    const res = await fetchApp("/channels", withCookie(lifted.cookie));
    expect(await redirectTarget(res)).toBe("/auth?redirectTo=%2Fchannels");

    const ended = await createUser("creator");
    await endUserSessions(actorFor(admin, { isAdmin: true }), ended.id, request);
    const res2 = await fetchApp("/channels", withCookie(ended.cookie));
    expect(await redirectTarget(res2)).toBe("/auth?redirectTo=%2Fchannels");
    expect(res2.headers.getSetCookie().some((c) => c.startsWith("__Host-sb_toast"))).toBe(false);
  });

  it("a ban by the development factory (sessions ended after the flag) is told the same way", async () => {
    const user = await createUser("creator");
    const res = await postForm("/dev/factory", { intent: "ban", email: user.email, reason: REASON });
    expect(res.status).toBeLessThan(400);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?").bind(user.id).first("n")).toBe(0);
    const { html } = await land(await fetchApp("/dashboard", withCookie(user.cookie)));
    expect(html).toContain(MESSAGE);
  });
});
