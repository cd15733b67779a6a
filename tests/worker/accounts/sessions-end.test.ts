import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { banUser, endUserSessions, grantAdmin, resetPassword, revokeAdmin } from "~/modules/accounts/accounts.server";
import { notifyUser } from "~/modules/notifications/notifications.server";
import { parseSocketMessage, SOCKET_CLOSE_BANNED, SOCKET_CLOSE_SESSION_ENDED, type SocketMessage } from "~/modules/notifications/protocol";
import { sha256Hex } from "~/platform/crypto.server";
import { actorFor } from "../../factories/actors";
import { createUser, signInAs, type TestUser } from "../../factories/users";
import { ORIGIN, TEST_PASSWORD, count, fetchApp, passwordBeforeAll, postForm } from "../helpers";

// Issue 11 item 14: every way a session ends goes through one path (session.server.ts endSessions /
// endSessionsStatements + afterSessionsEnded) that deletes the rows and has the user's notifier
// close the sockets of those sessions, and only those. Real sockets through the worker.

type Tab = {
  ws: WebSocket;
  messages: SocketMessage[];
  closed: { code: number; reason: string } | null;
};

async function waitFor<T>(get: () => T | null | undefined, what: string, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = get();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A browser tab's notifications socket, opened with a session cookie. */
async function openTab(cookie: string): Promise<Tab> {
  const res = await fetchApp("/api/notifications/socket", { headers: { Upgrade: "websocket", Cookie: cookie, Origin: ORIGIN } });
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  ws.accept();
  const tab: Tab = { ws, messages: [], closed: null };
  ws.addEventListener("message", (e) => {
    const message = typeof e.data === "string" ? parseSocketMessage(e.data) : null;
    if (message) tab.messages.push(message);
  });
  ws.addEventListener("close", (e) => {
    tab.closed = { code: e.code, reason: e.reason };
  });
  return tab;
}

const closedOf = (tab: Tab) => waitFor(() => tab.closed, "the socket to close");

/** Positive proof that a tab is still open: a notification sent now reaches it. */
async function stillOpen(user: { id: string }, tab: Tab): Promise<void> {
  const title = `Control ${crypto.randomUUID()}`;
  await notifyUser(user.id, { title, content: "sent after the sessions ended" });
  await waitFor(() => tab.messages.find((m) => m.type === "notification" && m.notification.title === title), "the control notification");
  expect(tab.closed).toBeNull();
}

const prefixOf = (token: string) => sha256Hex(token).slice(0, 12);
const sessionsOf = (userId: string) => count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", userId);

const password = passwordBeforeAll();

describe("ending a session closes its sockets (one path)", () => {
  it("Settings → end one session: that session's socket closes (4001), the signed-in one stays open", async () => {
    const user = await createUser("creator");
    const a = await signInAs(user.id); // the other device
    const tabA = await openTab(a.cookie);
    const tabB = await openTab(user.cookie); // the device in Settings

    const res = await postForm("/settings", { intent: "sign-out-session", session: prefixOf(a.token) }, { headers: { Cookie: user.cookie } });
    expect(res.status).toBe(200);

    expect(await closedOf(tabA)).toMatchObject({ code: SOCKET_CLOSE_SESSION_ENDED });
    await stillOpen(user, tabB);
    expect(await count("SELECT count(*) AS n FROM sessions WHERE id = ?", sha256Hex(a.token))).toBe(0);
    expect(await sessionsOf(user.id)).toBe(1);
  });

  it("Settings → sign out other sessions: every other session's sockets close, this one stays open", async () => {
    const user = await createUser("creator");
    const others = [await signInAs(user.id), await signInAs(user.id)] as const;
    const otherTabs = [await openTab(others[0].cookie), await openTab(others[0].cookie), await openTab(others[1].cookie)];
    const mine = await openTab(user.cookie);

    const res = await postForm("/settings", { intent: "sign-out-others" }, { headers: { Cookie: user.cookie } });
    expect(res.status).toBe(200);
    for (const tab of otherTabs) expect(await closedOf(tab)).toMatchObject({ code: SOCKET_CLOSE_SESSION_ENDED });
    await stillOpen(user, mine);
    expect(await sessionsOf(user.id)).toBe(1);
  });

  it("sign-out closes only the signing-out session's sockets", async () => {
    const user = await createUser("creator");
    const other = await signInAs(user.id);
    const leaving = await openTab(user.cookie);
    const staying = await openTab(other.cookie);
    const res = await postForm("/auth/sign-out", {}, { headers: { Cookie: user.cookie } });
    expect(res.status).toBe(302);
    expect(await closedOf(leaving)).toMatchObject({ code: SOCKET_CLOSE_SESSION_ENDED });
    await stillOpen(user, staying);
  });

  it("an admin ending the user's sessions, a role change both ways and a ban close every socket", async () => {
    const admin = await createUser("admin");
    const request = new Request(`${ORIGIN}/admin`, { method: "POST" });

    const ended = await createUser("creator");
    const endedTab = await openTab(ended.cookie);
    await endUserSessions(actorFor(admin, { isAdmin: true }), ended.id, request);
    expect(await closedOf(endedTab)).toMatchObject({ code: SOCKET_CLOSE_SESSION_ENDED });

    const promoted = await createUser("creator");
    const promotedTab = await openTab(promoted.cookie);
    await grantAdmin(actorFor(admin, { isAdmin: true }), promoted.id, request);
    expect(await closedOf(promotedTab)).toMatchObject({ code: SOCKET_CLOSE_SESSION_ENDED });

    const demotedCookie = (await signInAs(promoted.id)).cookie;
    const demotedTab = await openTab(demotedCookie);
    await revokeAdmin(actorFor(admin, { isAdmin: true }), promoted.id, request);
    expect(await closedOf(demotedTab)).toMatchObject({ code: SOCKET_CLOSE_SESSION_ENDED });

    const banned = await createUser("creator");
    const bannedTab = await openTab(banned.cookie);
    await banUser(actorFor(admin, { isAdmin: true }), banned.id, "Spam links", request);
    // The tab hears why before its socket closes.
    expect(await waitFor(() => bannedTab.messages.find((m) => m.type === "account"), "the banned event")).toEqual({
      type: "account",
      event: "banned",
      reason: "Spam links",
    });
    expect(await closedOf(bannedTab)).toMatchObject({ code: SOCKET_CLOSE_BANNED });
    for (const u of [ended, promoted, banned]) expect(await sessionsOf(u.id)).toBe(0);
  });

  it("a password change closes the other sessions' sockets; a reset closes all of them", async () => {
    const user: TestUser = await createUser("creator", { passwordHash: password.hash });
    const other = await signInAs(user.id);
    const otherTab = await openTab(other.cookie);
    const res = await postForm(
      "/settings",
      { intent: "change-password", currentPassword: TEST_PASSWORD, password: "New!Passw0rd2", confirmPassword: "New!Passw0rd2" },
      { headers: { Cookie: user.cookie } },
    );
    expect(res.status).toBe(302);
    expect(await closedOf(otherTab)).toMatchObject({ code: SOCKET_CLOSE_SESSION_ENDED });
    // This browser got a fresh session (the only one).
    expect(await sessionsOf(user.id)).toBe(1);

    const again = await signInAs(user.id);
    const tab = await openTab(again.cookie);
    const token = crypto.randomUUID().replaceAll("-", "");
    await env.DB.prepare("INSERT INTO one_time_tokens (token_hash, user_id, purpose, expires_at) VALUES (?, ?, 'password_reset', ?)")
      .bind(sha256Hex(token), user.id, new Date(Date.now() + 60_000).toISOString())
      .run();
    await resetPassword(new Request(`${ORIGIN}/auth/reset-password`, { method: "POST" }), token, "Reset!Passw0rd3");
    expect(await closedOf(tab)).toMatchObject({ code: SOCKET_CLOSE_SESSION_ENDED });
  });

  it("records why a session was ended by someone else (not for a sign-out), and prunes nothing recent", async () => {
    const user = await createUser("creator");
    const other = await signInAs(user.id);
    await postForm("/settings", { intent: "sign-out-session", session: prefixOf(other.token) }, { headers: { Cookie: user.cookie } });
    const row = await env.DB.prepare("SELECT user_id, reason FROM ended_sessions WHERE id = ?").bind(sha256Hex(other.token)).first();
    expect(row).toEqual({ user_id: user.id, reason: "ended_by_user" });
    await postForm("/auth/sign-out", {}, { headers: { Cookie: user.cookie } });
    expect(await count("SELECT count(*) AS n FROM ended_sessions WHERE id = ?", sha256Hex(user.token))).toBe(0);
  });
});
