import { createExecutionContext, evictDurableObject, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { NotificationList } from "~/modules/notifications/notifications";
import type { NotifyQueueMessage, PushItem } from "~/modules/notifications/notifications.server";
import { parseSocketMessage, type NotificationItem, type SocketMessage } from "~/modules/notifications/protocol";
import { sha256Hex } from "~/platform/crypto.server";
import { userNotifier } from "~/platform/realtime.server";
import {
  DIRECT_FANOUT_MAX,
  PUSHES_PER_INVOCATION,
  PUSHES_PER_QUEUE_MESSAGE,
  QUEUE_FANOUT_THRESHOLD,
  consumeNotifyQueue,
  createNotification,
  deliverDirect,
  deliverSlice,
  frameOf,
  listNotifications,
  markAllRead,
  markRead,
  notifyAccountDecision,
  notifyUser,
  resolveAudience,
} from "~/modules/notifications/notifications.server";
import { afterSessionsEnded } from "~/modules/accounts/accounts.server";
import { actorFor } from "../../factories/actors";
import { notificationMessage } from "../../factories/notifications";
import { createUser, signInAs, type TestUser } from "../../factories/users";
import { SOCKETS_PER_USER, type UserNotifier } from "../../../workers/user-notifier";
import { ORIGIN, count, fetchApp, okText, postForm } from "../helpers";
import { type SocketClient, socketClient } from "../socket-client";
import { present } from "../../helpers/present";

// ---------------------------------------------------------------------------------------------
// A small socket client: collects messages and closes, waits for what a test expects.
// ---------------------------------------------------------------------------------------------

type Client = SocketClient<SocketMessage>;

function socketRequest(cookie: string | null, origin: string | null = ORIGIN) {
  const headers = new Headers({ Upgrade: "websocket" });
  if (cookie) headers.set("Cookie", cookie);
  if (origin) headers.set("Origin", origin);
  return fetchApp("/api/notifications/socket", { headers });
}

async function connect(user: { cookie: string }): Promise<Client> {
  return socketClient(await socketRequest(user.cookie), parseSocketMessage, "protocol");
}

const stubOf = (userId: string) => env.USER_NOTIFIER.get(env.USER_NOTIFIER.idFromName(userId));
const notificationsOf = (c: Client) => c.messages.filter((m): m is Extract<SocketMessage, { type: "notification" }> => m.type === "notification");
const titlesOf = (c: Client) => notificationsOf(c).map((m) => m.notification.title);

/**
 * The positive signal that replaces "wait, then nothing arrived": a control notification sent to
 * the user AFTER the one that must not reach them. The user's object delivers in the order it is
 * called, so once the control has arrived anything sent before it would have arrived first.
 */
async function sendControl(user: TestUser, tab: Client): Promise<string> {
  const title = `Control ${crypto.randomUUID()}`;
  await notifyUser(user.id, { title, content: "must arrive after anything sent before it" });
  await tab.next((m) => m.type === "notification" && m.notification.title === title);
  return title;
}

async function getList(user: TestUser, query = ""): Promise<NotificationList> {
  const res = await fetchApp(`/api/notifications${query}`, { headers: { Cookie: user.cookie } });
  expect(res.status).toBe(200);
  return (await res.json()) as NotificationList;
}

// ---------------------------------------------------------------------------------------------

// The socket is answered before React Router; the first request that reaches it compiles the
// whole app inside workerd, which on a busy machine takes longer than one test's timeout.
beforeAll(async () => {
  await fetchApp("/api/notifications");
}, 180_000);

describe("notification socket: who may open one", () => {
  it("refuses a socket without a session (401)", async () => {
    const res = await socketRequest(null);
    expect(res.status).toBe(401);
    expect(res.webSocket).toBeNull();
  });

  it("refuses a socket with an unknown session token (401)", async () => {
    const res = await socketRequest("__Host-sb_session=not-a-real-token");
    expect(res.status).toBe(401);
  });

  it("refuses a socket from a foreign Origin, even with a valid session (403)", async () => {
    const user = await createUser("creator");
    const res = await socketRequest(user.cookie, "https://evil.example");
    expect(res.status).toBe(403);
    expect(res.webSocket).toBeNull();
  });

  it("refuses a socket without an Origin header (403)", async () => {
    const user = await createUser("creator");
    const res = await socketRequest(user.cookie, null);
    expect(res.status).toBe(403);
  });

  it("refuses a banned user's socket", async () => {
    const user = await createUser("banned");
    const res = await socketRequest(user.cookie);
    expect(res.status).toBe(403);
  });

  it("refuses a plain GET without the upgrade (426)", async () => {
    const user = await createUser("creator");
    const res = await fetchApp("/api/notifications/socket", { headers: { Cookie: user.cookie, Origin: ORIGIN } });
    expect(res.status).toBe(426);
  });

  it("accepts a signed-in user's socket from our own origin, pending users included", async () => {
    for (const kind of ["creator", "pending", "rejected"] as const) {
      const user = await createUser(kind);
      const client = await connect(user);
      expect(await runInDurableObject(stubOf(user.id), (o: UserNotifier) => o.socketCount())).toBe(1);
      client.ws.close(1000, "done");
    }
  });

  it(`refuses a user's socket past ${SOCKETS_PER_USER} with a 429 before the upgrade (decision 0298); a closed tab frees its place`, async () => {
    const user = await createUser("creator");
    const tabs = await Promise.all(Array.from({ length: SOCKETS_PER_USER }, () => connect(user)));
    const over = await socketRequest(user.cookie);
    expect(over.status).toBe(429);
    expect(over.webSocket).toBeNull();
    expect(over.headers.get("Retry-After")).toBe("10");
    expect(((await over.json()) as { error: string }).error).toBe("Too many sockets");
    expect(await runInDurableObject(stubOf(user.id), (o: UserNotifier) => o.socketCount())).toBe(SOCKETS_PER_USER);
    // A closed tab frees its place (once the object has answered its close).
    present(tabs[0], "the first tab").ws.close(1000, "done");
    let again = await socketRequest(user.cookie);
    for (const until = Date.now() + 3000; again.status === 429 && Date.now() < until; ) {
      await again.body?.cancel();
      await new Promise((r) => setTimeout(r, 50));
      again = await socketRequest(user.cookie);
    }
    const replacement = socketClient(again, parseSocketMessage, "protocol");
    for (const c of [...tabs.slice(1), replacement]) c.ws.close(1000, "done");
  });
});

describe("delivery", () => {
  it("pushes a new notification to every open socket of the user and to no other user", async () => {
    const alice = await createUser("creator");
    const bob = await createUser("creator");
    const tabA = await connect(alice);
    const tabB = await connect(alice);
    const bobTab = await connect(bob);

    const item = await notifyUser(alice.id, { title: "Hello Alice", content: "Only for you", kind: "test" });

    for (const tab of [tabA, tabB]) {
      const m = await tab.next((x) => x.type === "notification");
      expect(m).toMatchObject({ type: "notification", notification: { id: item.id, title: "Hello Alice", isRead: false } });
    }
    // Bob's control arrives, and it is the first and only notification Bob's tab received.
    const control = await sendControl(bob, bobTab);
    expect(titlesOf(bobTab)).toEqual([control]);
    // D1 is the record: the row exists for Alice only.
    const rows = await env.DB.prepare("SELECT user_id FROM user_notifications WHERE id = ?").bind(item.id).all<{ user_id: string }>();
    expect(rows.results).toEqual([{ user_id: alice.id }]);
  });

  it("keeps socket metadata across hibernation/eviction: delivery and session checks still work", async () => {
    const user = await createUser("creator");
    const second = await signInAs(user.id);
    const tab1 = await connect(user);
    const tab2 = await connect({ cookie: second.cookie });
    const stub = stubOf(user.id);

    const before = await runInDurableObject(stub, (_o: UserNotifier, state) => state.getWebSockets().map((ws) => ws.deserializeAttachment()));
    await evictDurableObject(stub);

    // After eviction a new instance reads the attachments from the hibernated sockets.
    const after = await runInDurableObject(stub, (_o: UserNotifier, state) => state.getWebSockets().map((ws) => ws.deserializeAttachment()));
    expect(after).toHaveLength(2);
    expect(after).toEqual(before);
    expect(after.map((a: { sessionId: string }) => a.sessionId).sort()).toEqual([sha256Hex(user.token), sha256Hex(second.token)].sort());

    const item = await notifyUser(user.id, { title: "After hibernation", content: "still delivered" });
    expect(await tab1.next((m) => m.type === "notification")).toMatchObject({ notification: { id: item.id } });
    expect(await tab2.next((m) => m.type === "notification")).toMatchObject({ notification: { id: item.id } });

    // The session id from the attachment is what picks the socket to close.
    await env.DB.prepare("DELETE FROM sessions WHERE id = ?").bind(sha256Hex(second.token)).run();
    await evictDurableObject(stub);
    await afterSessionsEnded(user.id);
    expect(await tab2.waitClosed()).toMatchObject({ code: 4001 });
    expect(await runInDurableObject(stub, (o: UserNotifier) => o.socketCount())).toBe(1);
    // The other tab is still open: a control sent afterwards reaches it.
    await sendControl(user, tab1);
    expect(tab1.closed).toBeNull();
  });

  it("answers keep-alive pings without a message of its own", async () => {
    const user = await createUser("creator");
    const tab = await connect(user);
    const pong = new Promise<string>((resolve) => tab.ws.addEventListener("message", (e) => resolve(String(e.data))));
    tab.ws.send("ping");
    expect(await pong).toBe("pong");
  });

  it("ending a user's sessions closes their sockets", async () => {
    const user = await createUser("creator");
    const tab = await connect(user);
    await env.DB.prepare("DELETE FROM sessions WHERE user_id = ?").bind(user.id).run();
    await afterSessionsEnded(user.id);
    expect(await tab.waitClosed()).toMatchObject({ code: 4001 });
  });

  it("a ban sends the 'banned' event and closes the sockets, whichever comes first", async () => {
    const user = await createUser("creator");
    const tab = await connect(user);
    await env.DB.prepare("UPDATE profiles SET is_banned = 1 WHERE user_id = ?").bind(user.id).run();
    await notifyAccountDecision(user.id, "banned", "Spam");
    expect(await tab.next((m) => m.type === "account")).toEqual({ type: "account", event: "banned", reason: "Spam" });
    expect(await tab.waitClosed()).toMatchObject({ code: 4003 });
    // The notification is on record too.
    const list = await listNotifications(actorFor(user));
    expect(list.notifications[0]).toMatchObject({ title: "Account banned", kind: "account_banned" });
    expect(present(list.notifications[0], "the newest notification").content).toContain("Spam");

    // Sessions ended first (the order an admin action may use): the event still arrives.
    const other = await createUser("creator");
    const tab2 = await connect(other);
    await env.DB.batch([
      env.DB.prepare("UPDATE profiles SET is_banned = 1 WHERE user_id = ?").bind(other.id),
      env.DB.prepare("DELETE FROM sessions WHERE user_id = ?").bind(other.id),
    ]);
    await afterSessionsEnded(other.id);
    expect(await tab2.next((m) => m.type === "account")).toMatchObject({ event: "banned" });
    expect(await tab2.waitClosed()).toMatchObject({ code: 4003 });
  });

  it("an approval reaches the pending user's open tab as an account event plus a notification", async () => {
    const user = await createUser("pending");
    const tab = await connect(user);
    await notifyAccountDecision(user.id, "approved");
    expect(await tab.next((m) => m.type === "account")).toEqual({ type: "account", event: "approved", reason: null });
    expect(await tab.next((m) => m.type === "notification")).toMatchObject({ notification: { title: "Account approved" } });
    // Not closed: a control sent after the decision still arrives on the same socket.
    await sendControl(user, tab);
    expect(tab.closed).toBeNull();
  });
});

describe("list, catch-up and marking read", () => {
  it("lists the user's notifications newest first, with the unread count", async () => {
    const user = await createUser("creator");
    const a = await notifyUser(user.id, { title: "First", content: "1" });
    await new Promise((r) => setTimeout(r, 5));
    const b = await notifyUser(user.id, { title: "Second", content: "2" });
    const list = await getList(user);
    expect(list.notifications.map((n) => n.id)).toEqual([b.id, a.id]);
    expect(list.unreadCount).toBe(2);
    expect(list.notifications[0]).toMatchObject({ title: "Second", content: "2", isRead: false, readAt: null });
  });

  it("refuses the list without a session (401)", async () => {
    const res = await fetchApp("/api/notifications");
    expect(res.status).toBe(401);
  });

  it("catches up with ?since: everything from that time, nothing older (no gap)", async () => {
    const user = await createUser("creator");
    const old = await notifyUser(user.id, { title: "Old", content: "seen" });
    await new Promise((r) => setTimeout(r, 5));
    const missed1 = await notifyUser(user.id, { title: "Missed 1", content: "while offline" });
    const missed2 = await notifyUser(user.id, { title: "Missed 2", content: "while offline" });
    const list = await getList(user, `?since=${encodeURIComponent(old.createdAt)}`);
    const ids = list.notifications.map((n) => n.id);
    // Inclusive of the last-seen time (the client drops the id it already has): no gap.
    expect(ids).toContain(missed1.id);
    expect(ids).toContain(missed2.id);
    expect(ids).toContain(old.id);
    const later = await getList(user, `?since=${encodeURIComponent(missed2.createdAt)}`);
    expect(later.notifications.map((n) => n.id)).not.toContain(old.id);
  });

  it("marks one read (is_read and read_at), and only the user's own rows", async () => {
    const alice = await createUser("creator");
    const mallory = await createUser("creator");
    const item = await notifyUser(alice.id, { title: "Private", content: "x" });
    const tab = await connect(alice);

    // Someone else's id: nothing changes.
    const foreign = await postForm("/api/notifications", { intent: "mark-read", id: item.id }, { headers: { Cookie: mallory.cookie } });
    expect(foreign.status).toBe(200);
    expect(await foreign.json()).toMatchObject({ changed: false });
    let row = await env.DB.prepare("SELECT is_read, read_at FROM user_notifications WHERE id = ?").bind(item.id).first();
    expect(row).toEqual({ is_read: 0, read_at: null });

    const own = await postForm("/api/notifications", { intent: "mark-read", id: item.id }, { headers: { Cookie: alice.cookie } });
    expect(await own.json()).toMatchObject({ changed: true });
    row = await env.DB.prepare("SELECT is_read, read_at FROM user_notifications WHERE id = ?").bind(item.id).first();
    expect(row?.is_read).toBe(1);
    expect(typeof row?.read_at).toBe("string");
    // The user's other tabs follow.
    expect(await tab.next((m) => m.type === "read")).toMatchObject({ type: "read", ids: [item.id] });
    expect((await getList(alice)).unreadCount).toBe(0);
  });

  it("marks all read in one write, leaving other users' rows alone", async () => {
    const alice = await createUser("creator");
    const bob = await createUser("creator");
    for (let i = 0; i < 3; i++) await notifyUser(alice.id, { title: `A${i}`, content: "x" });
    await notifyUser(bob.id, { title: "B", content: "x" });
    const res = await postForm("/api/notifications", { intent: "mark-all-read" }, { headers: { Cookie: alice.cookie } });
    expect(await res.json()).toMatchObject({ ok: true, changed: 3 });
    expect((await getList(alice)).unreadCount).toBe(0);
    expect((await getList(bob)).unreadCount).toBe(1);
    const readAts = await env.DB.prepare("SELECT DISTINCT read_at FROM user_notifications WHERE user_id = ?").bind(alice.id).all();
    expect(readAts.results).toHaveLength(1); // one statement, one time
  });

  it("mark all with a cutoff keeps what arrived after it unread", async () => {
    const user = await createUser("creator");
    const seen = await notifyUser(user.id, { title: "Seen", content: "x" });
    await new Promise((r) => setTimeout(r, 5));
    await notifyUser(user.id, { title: "Arrived later", content: "x" });
    expect(await markAllRead(actorFor(user), seen.createdAt)).toBe(1);
    expect((await listNotifications(actorFor(user))).unreadCount).toBe(1);
  });

  it("refuses a malformed id and an unknown intent", async () => {
    const user = await createUser("creator");
    expect((await postForm("/api/notifications", { intent: "mark-read", id: "1 OR 1=1" }, { headers: { Cookie: user.cookie } })).status).toBe(400);
    expect((await postForm("/api/notifications", { intent: "nope" }, { headers: { Cookie: user.cookie } })).status).toBe(400);
  });

  it("markRead returns false for an already-read row", async () => {
    const user = await createUser("creator");
    const item = await notifyUser(user.id, { title: "x", content: "y" });
    expect(await markRead(actorFor(user), item.id)).toBe(true);
    expect(await markRead(actorFor(user), item.id)).toBe(false);
  });
});

describe("fan-out and audiences", () => {
  it("selects each kind of user", async () => {
    const users = {
      creator: await createUser("creator"),
      clipper: await createUser("clipper"),
      partner: await createUser("partner"),
      agency: await createUser("agency"),
      admin: await createUser("admin"),
      pending: await createUser("pending"),
      banned: await createUser("banned"),
    };
    const ids = (list: string[]) => new Set(list);
    const creators = ids(await resolveAudience({ type: "role", role: "creators" }));
    expect(creators.has(users.creator.id)).toBe(true);
    for (const k of ["clipper", "partner", "agency", "admin", "pending", "banned"] as const) expect(creators.has(users[k].id)).toBe(false);

    const check = async (role: Parameters<typeof resolveAudience>[0], member: TestUser, others: TestUser[]) => {
      const set = ids(await resolveAudience(role));
      expect(set.has(member.id)).toBe(true);
      for (const o of others) expect(set.has(o.id)).toBe(false);
    };
    const all = Object.values(users);
    const except = (u: TestUser) => all.filter((x) => x !== u);
    await check({ type: "role", role: "clippers" }, users.clipper, except(users.clipper));
    await check({ type: "role", role: "music-partners" }, users.partner, except(users.partner));
    await check({ type: "role", role: "agency-managers" }, users.agency, except(users.agency));
    await check({ type: "role", role: "admins" }, users.admin, except(users.admin));
    await check({ type: "role", role: "pending" }, users.pending, except(users.pending));

    const everyone = ids(await resolveAudience({ type: "all" }));
    for (const k of ["creator", "clipper", "partner", "agency", "admin", "pending"] as const) expect(everyone.has(users[k].id)).toBe(true);
    expect(everyone.has(users.banned.id)).toBe(false);

    const chosen = await resolveAudience({ type: "users", emails: [users.partner.email, users.pending.email] });
    expect(new Set(chosen)).toEqual(new Set([users.partner.id, users.pending.id]));
  });

  it("writes one row per recipient across several chunks and pushes to each", async () => {
    const users: TestUser[] = [];
    for (let i = 0; i < 6; i++) users.push(await createUser("creator"));
    const tabs = await Promise.all(users.slice(0, 3).map(connect));
    const ids = users.map((u) => u.id);
    const result = await createNotification({ title: "Fan-out", content: "to six" }, { type: "ids", userIds: ids });
    expect(result.recipients).toBe(6);
    const rows = await env.DB.prepare("SELECT user_id, id FROM user_notifications WHERE notification_id = ?")
      .bind(result.notificationId)
      .all<{ user_id: string; id: string }>();
    expect(new Set(rows.results.map((r) => r.user_id))).toEqual(new Set(ids));
    for (const r of rows.results) expect(r.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (const [i, tab] of tabs.entries()) {
      const m = (await tab.next((x) => x.type === "notification")) as { notification: NotificationItem };
      expect(m.notification.id).toBe(rows.results.find((r) => r.user_id === present(users[i], `user ${i}`).id)!.id);
    }
  });
});

describe("broadcast", () => {
  const form = (fields: Record<string, string>) => fields;

  it("refuses non-admins on the page (loader and action) and on the API", async () => {
    const creator = await createUser("creator");
    const page = await fetchApp("/admin/broadcast", { headers: { Cookie: creator.cookie } });
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/dashboard");
    const post = await postForm("/admin/broadcast", form({ title: "Not from an admin", content: "y", audience: "all" }), {
      headers: { Cookie: creator.cookie },
    });
    expect([302, 303]).toContain(post.status);
    const api = await postForm("/api/notifications?intent=broadcast", form({ title: "Not from an admin", content: "y", audience: "all" }), {
      headers: { Cookie: creator.cookie },
    });
    expect(api.status).toBe(403);
    const anon = await postForm("/admin/broadcast", form({ title: "Not from an admin", content: "y", audience: "all" }));
    expect([302, 303]).toContain(anon.status);
    expect(anon.headers.get("Location")).toBe("/auth");
    expect(await count("SELECT count(*) AS n FROM notifications WHERE title = 'Not from an admin'")).toBe(0);
  });

  it("an admin broadcasts to one kind of user: rows for them only, pushed live, audit-logged", async () => {
    const admin = await createUser("admin");
    const partner = await createUser("partner");
    const creator = await createUser("creator");
    const partnerTab = await connect(partner);
    const creatorTab = await connect(creator);
    const res = await postForm(
      "/api/notifications?intent=broadcast",
      form({ title: "Partners only", content: "New brief", audience: "role", role: "music-partners" }),
      { headers: { Cookie: admin.cookie } },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { ok: boolean; recipients: number; notificationId: string; d1WriteMs: number };
    expect(body.ok).toBe(true);
    expect(body.recipients).toBeGreaterThanOrEqual(1);
    expect(typeof body.d1WriteMs).toBe("number");
    expect(await partnerTab.next((m) => m.type === "notification")).toMatchObject({ notification: { title: "Partners only" } });
    // The broadcast's pushes were all issued before the partner's arrived; the creator's control
    // is issued after, so a stray broadcast push would have reached the creator's tab before it.
    const control = await sendControl(creator, creatorTab);
    expect(titlesOf(creatorTab)).toEqual([control]);
    const has = async (u: TestUser) =>
      (await env.DB.prepare("SELECT count(*) AS n FROM user_notifications WHERE user_id = ? AND notification_id = ?")
        .bind(u.id, body.notificationId)
        .first<{ n: number }>())!.n;
    expect(await has(partner)).toBe(1);
    expect(await has(creator)).toBe(0);
    const log = await env.DB.prepare("SELECT user_id, severity, details FROM security_audit_log WHERE event_type = 'notification_broadcast'").all<{
      user_id: string;
      severity: string;
      details: string;
    }>();
    const entry = log.results.find((r) => JSON.parse(r.details).notification_id === body.notificationId);
    expect(entry).toMatchObject({ user_id: admin.id, severity: "medium" });
    expect(JSON.parse(entry!.details)).toMatchObject({ audience: "music partners", title: "Partners only" });
  });

  it("an admin broadcasts to chosen users by e-mail through the page form (no JavaScript)", async () => {
    const admin = await createUser("admin");
    const a = await createUser("creator");
    const b = await createUser("creator");
    const c = await createUser("creator");
    const res = await postForm(
      "/admin/broadcast",
      form({ title: "Just you two", content: "Hi", audience: "users", emails: `${a.email}\n${b.email.toUpperCase()}` }),
      { headers: { Cookie: admin.cookie } },
    );
    expect([302, 303]).toContain(res.status);
    expect(res.headers.get("Location")).toBe("/admin/broadcast");
    const rows = await env.DB.prepare(
      `SELECT un.user_id FROM user_notifications un JOIN notifications n ON n.id = un.notification_id WHERE n.title = 'Just you two'`,
    ).all<{ user_id: string }>();
    expect(new Set(rows.results.map((r) => r.user_id))).toEqual(new Set([a.id, b.id]));
    expect(rows.results.some((r) => r.user_id === c.id)).toBe(false);
  });

  it("rejects an unknown e-mail, a missing title and a file that is not what it claims", async () => {
    const admin = await createUser("admin");
    const unknown = await postForm(
      "/api/notifications?intent=broadcast",
      form({ title: "T", content: "C", audience: "users", emails: "nobody-here@example.com" }),
      { headers: { Cookie: admin.cookie } },
    );
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { errors: Record<string, string> }).errors.emails).toMatch(/No account/);

    const missing = await postForm("/api/notifications?intent=broadcast", form({ title: "  ", content: "C", audience: "all" }), {
      headers: { Cookie: admin.cookie },
    });
    expect(((await missing.json()) as { errors: Record<string, string> }).errors.title).toBe("Title is required.");

    const fd = new FormData();
    fd.set("title", "With a fake image");
    fd.set("content", "C");
    fd.set("audience", "all");
    fd.set("image", new File(["<svg onload=alert(1)>"], "cat.png", { type: "image/png" }));
    const fake = await fetchApp("/api/notifications?intent=broadcast", {
      method: "POST",
      body: fd,
      headers: { Cookie: admin.cookie, Origin: ORIGIN },
    });
    expect(fake.status).toBe(400);
    expect(((await fake.json()) as { errors: Record<string, string> }).errors.image).toMatch(/PNG, JPG, WEBP, GIF/);
    expect(await count("SELECT count(*) AS n FROM notifications WHERE title = 'With a fake image'")).toBe(0);
  });

  it("a broadcast with an image and a video: public image URL, video URL signed for 3600 s", async () => {
    const admin = await createUser("admin");
    const user = await createUser("creator");
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    const mp4 = new Uint8Array([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0, 0, 2, 0, 1, 2, 3, 4]);
    const fd = new FormData();
    fd.set("title", "Watch this");
    fd.set("content", "A video");
    fd.set("audience", "users");
    fd.set("emails", user.email);
    fd.set("image", new File([png], "pic.png", { type: "image/png" }));
    fd.set("video", new File([mp4], "clip.mp4", { type: "video/mp4" }));
    const res = await fetchApp("/api/notifications?intent=broadcast", {
      method: "POST",
      body: fd,
      headers: { Cookie: admin.cookie, Origin: ORIGIN },
    });
    expect(res.status).toBe(200);
    const list = await getList(user);
    const item = list.notifications.find((n) => n.title === "Watch this")!;
    expect(item.imageUrl).toMatch(/^\/media\/avatars\/notifications\/[0-9a-f-]+\.png$/);
    const video = new URL(item.videoUrl!, ORIGIN);
    expect(video.pathname).toMatch(/^\/media\/signed\/notifications\/[0-9a-f-]+\.mp4$/);
    const exp = Number(video.searchParams.get("exp"));
    expect(exp - Math.floor(Date.now() / 1000)).toBeGreaterThan(3590);
    expect(exp - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(3600);

    const img = await fetchApp(item.imageUrl!);
    expect(img.status).toBe(200);
    expect(img.headers.get("Content-Type")).toBe("image/png");
    expect(new Uint8Array(await img.arrayBuffer())).toEqual(png);
    const vid = await fetchApp(item.videoUrl!);
    expect(vid.status).toBe(200);
    expect(vid.headers.get("Content-Type")).toBe("video/mp4");
    expect(new Uint8Array(await vid.arrayBuffer())).toEqual(mp4);
  });

  it("renders the broadcast page for admins with the form", async () => {
    const admin = await createUser("admin");
    const html = await okText(fetchApp("/admin/broadcast", { headers: { Cookie: admin.cookie } }));
    expect(html.toLowerCase()).toContain('enctype="multipart/form-data"');
    for (const label of ["Title", "Text", "Image", "Video", "Everyone", "Chosen users"]) expect(html).toContain(label);
  });
});

describe("large fan-outs through the queue", () => {
  it("enqueues the pushes and the queue consumer delivers them to the open sockets", async () => {
    const users: TestUser[] = [];
    for (let i = 0; i < 3; i++) users.push(await createUser("creator"));
    const tabs = await Promise.all(users.map(connect));
    const result = await createNotification(
      { title: "Queued", content: "through NOTIFY_QUEUE" },
      { type: "ids", userIds: users.map((u) => u.id) },
      { queueThreshold: 1 },
    );
    expect(result.recipients).toBe(3);
    for (const tab of tabs) {
      const m = (await tab.next((x) => x.type === "notification", 10_000)) as { notification: NotificationItem };
      expect(m.notification.title).toBe("Queued");
    }
  });

  it("the consumer acks what it delivered and retries what failed", async () => {
    const { createMessageBatch, getQueueResult } = await import("cloudflare:test");
    const user = await createUser("creator");
    const tab = await connect(user);
    const message = notificationMessage({ title: "Direct", content: "consumer" });
    const batch = createMessageBatch<NotifyQueueMessage>("shortbeat-notify", [
      { id: "m1", timestamp: new Date(), attempts: 1, body: { type: "push", pushes: [{ userId: user.id, frame: frameOf(message) }] } },
      // A malformed body (no pushes array) makes delivery throw: retried, not lost.
      { id: "m2", timestamp: new Date(), attempts: 1, body: { type: "push" } as unknown as NotifyQueueMessage },
    ]);
    const ctx = createExecutionContext();
    const { consumeNotifyQueue } = await import("~/modules/notifications/notifications.server");
    await consumeNotifyQueue(batch);
    await waitOnExecutionContext(ctx);
    const outcome = await getQueueResult(batch, ctx);
    expect(outcome.explicitAcks).toEqual(["m1"]);
    expect(outcome.retryMessages.map((m) => m.msgId)).toEqual(["m2"]);
    const got = (await tab.next((x) => x.type === "notification")) as { notification: NotificationItem };
    expect(got.notification.title).toBe("Direct");
  });
});

describe("direct fan-out in slices (decision 0088)", () => {
  const pushFor = (userId: string, title: string): PushItem => ({ userId, frame: frameOf(notificationMessage({ title, content: "sliced" })) });
  /** Every message with this title on the tab, after a control sent later has arrived (nothing is still on its way). */
  const settledCount = async (user: TestUser, tab: Client, title: string) => {
    await sendControl(user, tab);
    return titlesOf(tab).filter((t) => t === title).length;
  };

  it("the default path keeps audiences of a few thousand off the queue, in slices within the subrequest budget", () => {
    expect(QUEUE_FANOUT_THRESHOLD).toBeGreaterThan(DIRECT_FANOUT_MAX);
    expect(DIRECT_FANOUT_MAX).toBeGreaterThanOrEqual(5000);
    // Cloudflare: at least 1,000 subrequests to its services per invocation on every plan, 32 invocations per chain.
    expect(PUSHES_PER_INVOCATION).toBeLessThanOrEqual(900);
    expect(Math.ceil(DIRECT_FANOUT_MAX / PUSHES_PER_INVOCATION)).toBeLessThan(32);
    expect(PUSHES_PER_QUEUE_MESSAGE * 10).toBeLessThanOrEqual(PUSHES_PER_INVOCATION);
  });

  it("a broadcast larger than one slice reaches every tab of every recipient exactly once", async () => {
    const users: TestUser[] = [];
    for (let i = 0; i < 7; i++) users.push(await createUser("creator"));
    const tabs = await Promise.all(users.map(connect));
    const second = await connect(present(users[0], "the first user"));
    const title = `Sliced ${crypto.randomUUID()}`;
    // Slices of 2: the request's own slice and three NotifyFanOut invocations, all at once.
    const result = await createNotification({ title, content: "in slices" }, { type: "ids", userIds: users.map((u) => u.id) }, { sliceSize: 2 });
    expect(result.recipients).toBe(7);
    // The pushes run after createNotification returns (waitUntil): wait for each, then prove no second one follows.
    for (const tab of [...tabs, second]) await tab.next((m) => m.type === "notification" && m.notification.title === title, 10_000);
    for (const [i, tab] of tabs.entries()) expect(await settledCount(present(users[i], `user ${i}`), tab, title)).toBe(1);
    expect(await settledCount(present(users[0], "the first user"), second, title)).toBe(1);
  });

  it("1,001 pushes go out in three invocations of at most 500, none through the queue, each once", async () => {
    const watched = await Promise.all([0, 1, 2].map(() => createUser("creator")));
    const tabs = await Promise.all(watched.map(connect));
    const title = `Thousand ${crypto.randomUUID()}`;
    // Users without a socket fill the audience; the watched ones sit in the first, middle and last slice.
    const pushes = Array.from({ length: 1001 }, () => pushFor(crypto.randomUUID(), title));
    for (const [i, at] of [0, 500, 1000].entries()) pushes[at] = pushFor(present(watched[i], `watched user ${i}`).id, title);
    const outcome = await deliverDirect(pushes);
    expect(outcome).toEqual({ delivered: 3, slices: 3, queued: 0 });
    for (const [i, tab] of tabs.entries()) expect(await settledCount(present(watched[i], `watched user ${i}`), tab, title)).toBe(1);
  });

  it("a slice larger than the budget is refused before anything is sent", async () => {
    const user = await createUser("creator");
    const tab = await connect(user);
    const title = `Too big ${crypto.randomUUID()}`;
    const pushes = [pushFor(user.id, title), ...Array.from({ length: PUSHES_PER_INVOCATION }, () => pushFor(crypto.randomUUID(), title))];
    await expect(deliverSlice(pushes)).rejects.toThrow(/at most 500/);
    expect(await settledCount(user, tab, title)).toBe(0);
  });

  it("the queue consumer delivers every message of a batch (now side by side): each acked, each push once", async () => {
    const { createMessageBatch, getQueueResult } = await import("cloudflare:test");
    const users = await Promise.all([0, 1, 2, 3].map(() => createUser("creator")));
    const tabs = await Promise.all(users.map(connect));
    const title = `Batch ${crypto.randomUUID()}`;
    const batch = createMessageBatch<NotifyQueueMessage>(
      "shortbeat-notify",
      users.map((u, i) => ({ id: `b${i}`, timestamp: new Date(), attempts: 1, body: { type: "push", pushes: [pushFor(u.id, title)] } })),
    );
    const ctx = createExecutionContext();
    const { delivered } = await consumeNotifyQueue(batch);
    await waitOnExecutionContext(ctx);
    expect(delivered).toBe(4);
    const outcome = await getQueueResult(batch, ctx);
    expect([...outcome.explicitAcks].sort()).toEqual(["b0", "b1", "b2", "b3"]);
    expect(outcome.retryMessages).toEqual([]);
    for (const [i, tab] of tabs.entries()) expect(await settledCount(present(users[i], `user ${i}`), tab, title)).toBe(1);
  });
});

describe("frames serialized once (decision 0090)", () => {
  it("a fan-out to objects woken from hibernation reaches every tab of every recipient once, each frame exactly the D1 row", async () => {
    const users = await Promise.all([0, 1, 2].map(() => createUser("creator")));
    const tabsOf = await Promise.all(users.map(async (u) => [await connect(u), await connect({ cookie: (await signInAs(u.id)).cookie })]));
    for (const u of users) await evictDurableObject(stubOf(u.id));
    const title = `Woken ${crypto.randomUUID()}`;
    // Slices of 1: the request's own push and two NotifyFanOut invocations, each waking an evicted object.
    const result = await createNotification({ title, content: "after hibernation" }, { type: "ids", userIds: users.map((u) => u.id) }, { sliceSize: 1 });
    expect(result.recipients).toBe(3);
    for (const [i, u] of users.entries()) {
      const row = (await listNotifications(actorFor(u))).notifications.find((n) => n.notificationId === result.notificationId);
      expect(row).toMatchObject({ title, isRead: false });
      for (const tab of present(tabsOf[i], `the tabs of user ${i}`)) {
        expect(await tab.next((m) => m.type === "notification" && m.notification.title === title, 10_000)).toEqual({ type: "notification", notification: row });
        await sendControl(u, tab);
        expect(titlesOf(tab).filter((t) => t === title)).toHaveLength(1);
      }
    }
  });

  it("a queue message from before frames (the message itself) is still delivered", async () => {
    const { createMessageBatch, getQueueResult } = await import("cloudflare:test");
    const user = await createUser("creator");
    const tab = await connect(user);
    const title = `Legacy ${crypto.randomUUID()}`;
    const item = { ...(await notifyUser(user.id, { title: "first", content: "x" })), id: crypto.randomUUID(), title };
    const legacy = { userId: user.id, message: { type: "notification", notification: item } } as unknown as PushItem;
    const batch = createMessageBatch<NotifyQueueMessage>("shortbeat-notify", [
      { id: "l1", timestamp: new Date(), attempts: 1, body: { type: "push", pushes: [legacy] } },
    ]);
    const ctx = createExecutionContext();
    expect(await consumeNotifyQueue(batch)).toEqual({ delivered: 1 });
    await waitOnExecutionContext(ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["l1"]);
    expect(await tab.next((m) => m.type === "notification" && m.notification.title === title)).toEqual({ type: "notification", notification: item });
  });
});

describe("the object by RPC, the protocol in one module", () => {
  const message = (title: string) => notificationMessage({ title, content: "by RPC", kind: "test" });

  it("push() delivers the message as sent to every open tab and says how many got it", async () => {
    const user = await createUser("creator");
    expect(await userNotifier(user.id).push(message("Nobody listening"))).toBe(0);
    const tabA = await connect(user);
    const tabB = await connect(user);
    const sent = message("Typed push");
    expect(await userNotifier(user.id).push(sent)).toBe(2);
    for (const tab of [tabA, tabB]) expect(await tab.next((m) => m.type === "notification")).toEqual(sent);
  });

  it("pushFrame() sends the frame as it is; a trace goes in as its last key and leaves the message unchanged", async () => {
    const user = await createUser("creator");
    const tab = await connect(user);
    const raw = new Promise<string>((resolve) => tab.ws.addEventListener("message", (e) => resolve(String(e.data))));
    const sent = message("Traced push");
    expect(await userNotifier(user.id).pushFrame(frameOf(sent), { d1DoneAt: 1, pushAt: 2 })).toBe(1);
    const frame = await raw;
    expect(JSON.parse(frame).trace).toEqual({ d1DoneAt: 1, pushAt: 2, doAt: expect.any(Number) });
    expect(parseSocketMessage(frame)).toEqual(sent);
  });

  it("accountEvent() sends the event; only a ban closes the sockets", async () => {
    const user = await createUser("pending");
    const tab = await connect(user);
    expect(await userNotifier(user.id).accountEvent("rejected", "Not eligible")).toBe(1);
    expect(await tab.next((m) => m.type === "account")).toEqual({ type: "account", event: "rejected", reason: "Not eligible" });
    await sendControl(user, tab);
    expect(tab.closed).toBeNull();
    expect(await userNotifier(user.id).accountEvent("banned")).toBe(1);
    expect(await tab.waitClosed()).toMatchObject({ code: 4003 });
  });

  it("closeEndedSessions() closes nothing while the session lives, and says how many it closed", async () => {
    const user = await createUser("creator");
    const tab = await connect(user);
    expect(await userNotifier(user.id).closeEndedSessions()).toBe(0);
    await env.DB.prepare("DELETE FROM sessions WHERE user_id = ?").bind(user.id).run();
    expect(await userNotifier(user.id).closeEndedSessions()).toBe(1);
    expect(await tab.waitClosed()).toMatchObject({ code: 4001 });
  });

  it("the object has no URL paths any more: a plain request is refused and delivers nothing", async () => {
    const user = await createUser("creator");
    const tab = await connect(user);
    const res = await userNotifier(user.id).fetch("https://notifier/push", {
      method: "POST",
      body: JSON.stringify(message("By URL")),
    });
    expect(res.status).toBe(426);
    const control = await sendControl(user, tab);
    expect(titlesOf(tab)).toEqual([control]);
  });

  it("ignores any frame a browser sends other than ping", async () => {
    const user = await createUser("creator");
    const tab = await connect(user);
    tab.ws.send(JSON.stringify(message("Echo me")));
    tab.ws.send("hello");
    const control = await sendControl(user, tab);
    expect(titlesOf(tab)).toEqual([control]);
    expect(tab.closed).toBeNull();
  });
});

describe("bodies the API does not read", () => {
  const unread = async (id: string) =>
    (await env.DB.prepare("SELECT is_read FROM user_notifications WHERE id = ?").bind(id).first<{ is_read: number }>())!.is_read;

  it("mark-read: JSON, text or an empty body is 415, broken multipart is 400, and nothing changes", async () => {
    const user = await createUser("creator");
    const item = await notifyUser(user.id, { title: "Untouched", content: "x" });
    const post = (body: BodyInit | null, type: string | null) =>
      fetchApp("/api/notifications", {
        method: "POST",
        body,
        headers: { Cookie: user.cookie, Origin: ORIGIN, ...(type ? { "Content-Type": type } : {}) },
      });
    const json = await post(JSON.stringify({ intent: "mark-read", id: item.id }), "application/json");
    expect(json.status).toBe(415);
    expect(await json.json()).toMatchObject({ ok: false, code: "unsupported_media_type" });
    expect((await post(`intent=mark-read&id=${item.id}`, "text/plain")).status).toBe(415);
    expect((await post(null, null)).status).toBe(415);
    expect((await post("--x\r\nbroken", "multipart/form-data; boundary=x")).status).toBe(400);
    expect(await unread(item.id)).toBe(0);
  });

  it("the broadcast API answers 415 for JSON and stores nothing; field errors come back per field", async () => {
    const admin = await createUser("admin");
    const res = await fetchApp("/api/notifications?intent=broadcast", {
      method: "POST",
      body: JSON.stringify({ title: "JSON broadcast", content: "x", audience: "all" }),
      headers: { Cookie: admin.cookie, Origin: ORIGIN, "Content-Type": "application/json" },
    });
    expect(res.status).toBe(415);
    expect(await count("SELECT count(*) AS n FROM notifications WHERE title = 'JSON broadcast'")).toBe(0);

    const bad = await postForm(
      "/api/notifications?intent=broadcast",
      { title: "x", content: "y", audience: "role", role: "kings" },
      {
        headers: { Cookie: admin.cookie },
      },
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ ok: false, code: "invalid_input", errors: { role: "Choose a kind of user." } });
  });

  it("the broadcast page without JavaScript: a missing title is 400 and stores nothing", async () => {
    const admin = await createUser("admin");
    const res = await postForm(
      "/admin/broadcast",
      { title: " ", content: "Page without title", audience: "all" },
      {
        headers: { Cookie: admin.cookie },
      },
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Title is required.");
    expect(await count("SELECT count(*) AS n FROM notifications WHERE content = 'Page without title'")).toBe(0);
  });

  it("lists the recent broadcasts on the page with their counts", async () => {
    const admin = await createUser("admin");
    const a = await createUser("creator");
    const title = `Counted ${crypto.randomUUID().slice(0, 8)}`;
    const res = await postForm(
      "/api/notifications?intent=broadcast",
      { title, content: "x", audience: "users", emails: a.email },
      {
        headers: { Cookie: admin.cookie },
      },
    );
    expect(res.status).toBe(200);
    const page = await fetchApp("/admin/broadcast", { headers: { Cookie: admin.cookie } });
    const html = (await page.text()).replaceAll("<!-- -->", "");
    expect(html).toContain(title);
    expect(html).toMatch(/Chosen users · 1 sent · 0 read/);
  });
});
