// Chat (issue 30 §4): mutes per room — muted in room A, a member still posts in room B, also with
// sends to both rooms at once; one open mute per user and room under parallel admins; a mute in
// every room still works — and the typing indicator: relayed through the room's socket to the
// others, throttled per person (however many sockets they open), never stored, and never for
// someone who may not post there; and the cap on one person's sockets to a room. Decisions 0246, 0247, 0298.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chatAdminAction, chatPage } from "~/modules/chat/chat.server";
import { CHAT_TYPING, TYPING_RELAY_MIN_MS } from "~/modules/chat/protocol";
import { actorFor } from "../../factories/actors";
import { createUser, type TestUser } from "../../factories/users";
import type { ChatRoom } from "../../../workers/chat-room";
import { SOCKETS_PER_PERSON } from "../../../workers/chat-room";
import { d1Calls } from "../d1-calls";
import { count, fetchApp, postForm } from "../helpers";
import {
  type ChatClient,
  chatClientOf,
  chatSocketRequest,
  connectChat,
  createRoom,
  resetRates,
  resetSendRates,
  resetTyping,
  roomStub,
  send,
  sendOk,
} from "./chat-helpers";
import { present } from "../../helpers/present";

let admin: TestUser;
let admin2: TestUser;
let mia: TestUser;
let noah: TestUser;
let roomA: string;
let roomB: string;
let news: string;

const adminActor = () => actorFor(admin, { isAdmin: true });
const manage = (who: TestUser, fields: Record<string, string>) => postForm("/chat-management", fields, { headers: { Cookie: who.cookie } });
const openMutes = (userId: string) => count("SELECT count(*) AS n FROM chat_mutes WHERE user_id = ? AND ended_at IS NULL", userId);

beforeAll(async () => {
  [admin, admin2, mia, noah] = await Promise.all([
    createUser("admin", { fullName: "Ada Admin" }),
    createUser("admin", { fullName: "Abe Admin" }),
    createUser("creator", { fullName: "Mia Moss" }),
    createUser("creator", { fullName: "Noah North" }),
  ]);
  roomA = await createRoom(admin, "Room A");
  roomB = await createRoom(admin, "Room B");
  news = await createRoom(admin, "News", "announcements");
  await fetchApp("/api/chat?members=a", { headers: { Cookie: mia.cookie } });
}, 180_000);

beforeEach(async () => {
  for (const room of [roomA, roomB, news]) {
    await resetRates(room);
    await resetTyping(room);
  }
  await resetSendRates(admin, mia, noah);
  await env.DB.prepare("UPDATE chat_mutes SET ended_at = ? WHERE ended_at IS NULL").bind(new Date().toISOString()).run();
});

describe("mutes per room", () => {
  it("muted in room A: refused there (saying which room), posts in room B; sends to both at once split the same way", async () => {
    const tabA = await connectChat(roomA, mia);
    const tabB = await connectChat(roomB, mia);
    expect((await manage(admin, { intent: "mute", userId: mia.id, roomId: roomA, minutes: "60", reason: "Spam in A" })).status).toBe(302);
    // The tab in A hears the mute; the tab in B hears that none holds there.
    const inA = await tabA.next((m) => m.type === "mute");
    expect(inA).toMatchObject({ type: "mute", mute: { reason: "Spam in A", allRooms: false } });
    expect(await tabB.next((m) => m.type === "mute")).toEqual({ type: "mute", mute: null });

    const refused = await send(mia, roomA, "in A?");
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^You are muted in #Room A until \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}\. Reason: Spam in A$/,
    );
    await sendOk(mia, roomB, "in B fine");
    // At once: two sends to A and two to B (the D1 INSERT holds the mute rule: no window between check and write).
    const results = await Promise.all([send(mia, roomA, "a1"), send(mia, roomB, "b1"), send(mia, roomA, "a2"), send(mia, roomB, "b2")]);
    expect(results.map((r) => r.status)).toEqual([403, 200, 403, 200]);
    expect(await count("SELECT count(*) AS n FROM chat_messages WHERE room_id = ? AND user_id = ?", roomA, mia.id)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM chat_messages WHERE room_id = ? AND user_id = ?", roomB, mia.id)).toBe(3);
    // The page says so in A only.
    const pageA = await chatPage(actorFor(mia), "room-a");
    expect(pageA.mute).toMatchObject({ reason: "Spam in A", allRooms: false });
    expect((await chatPage(actorFor(mia), "room-b")).mute).toBeNull();
    // Editing one's message in A is refused too; in B it is not.
    tabA.ws.close(1000);
    tabB.ws.close(1000);
  });

  it("one open mute per user and room: two admins at once → one wins; different rooms at once → both; audit rows name the room", async () => {
    const same = await Promise.all([
      manage(admin, { intent: "mute", userId: noah.id, roomId: roomA, minutes: "15", reason: "one" }),
      manage(admin2, { intent: "mute", userId: noah.id, roomId: roomA, minutes: "15", reason: "two" }),
    ]);
    expect(same.map((r) => r.status).sort()).toEqual([302, 409]);
    expect(await openMutes(noah.id)).toBe(1);
    const both = await Promise.all([
      manage(admin, { intent: "mute", userId: noah.id, roomId: roomB, minutes: "15", reason: "b" }),
      manage(admin2, { intent: "mute", userId: noah.id, roomId: "", minutes: "15", reason: "everywhere" }),
    ]);
    expect(both.map((r) => r.status)).toEqual([302, 302]);
    expect(await openMutes(noah.id)).toBe(3);
    expect(
      await count(
        "SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'chat_user_muted' AND target_user_id = ? AND details LIKE ?",
        noah.id,
        `%${roomA}%`,
      ),
    ).toBe(1);
    // An unknown room is refused, nothing stored.
    expect((await manage(admin, { intent: "mute", userId: noah.id, roomId: crypto.randomUUID(), minutes: "15", reason: "x" })).status).toBe(404);
    expect(await openMutes(noah.id)).toBe(3);
  });

  it("a mute in every room holds everywhere; ending a room's mute leaves it; ending it lets them post; two unmutes at once end it once", async () => {
    await chatAdminAction(adminActor(), { intent: "mute", userId: noah.id, roomId: null, minutes: 60, reason: "everywhere" });
    await chatAdminAction(adminActor(), { intent: "mute", userId: noah.id, roomId: roomB, minutes: 15, reason: "B only" });
    expect((await send(noah, roomA, "a")).status).toBe(403);
    expect(((await (await send(noah, roomB, "b")).json()) as { error: string }).error).toMatch(/^You are muted until .* Reason: everywhere$/);
    const idOf = async (room: string | null) =>
      (await env.DB.prepare("SELECT id FROM chat_mutes WHERE user_id = ? AND ended_at IS NULL AND room_id IS ?").bind(noah.id, room).first<{ id: string }>())
        ?.id ?? "";
    expect((await manage(admin, { intent: "unmute", muteId: await idOf(roomB) })).status).toBe(302);
    expect((await send(noah, roomB, "b")).status).toBe(403);
    const everywhere = await idOf(null);
    const twice = await Promise.all([manage(admin, { intent: "unmute", muteId: everywhere }), manage(admin2, { intent: "unmute", muteId: everywhere })]);
    expect(twice.map((r) => r.status).sort()).toEqual([302, 409]);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'chat_user_unmuted' AND details LIKE ?", `%${everywhere}%`)).toBe(1);
    await sendOk(noah, roomA, "free again");
    await sendOk(noah, roomB, "and here");
  });

  it("the admin page lists each mute with its room, and offers a room or every room when muting from the feed", async () => {
    await chatAdminAction(adminActor(), { intent: "mute", userId: mia.id, roomId: roomA, minutes: 60, reason: "A only" });
    await sendOk(noah, roomB, "a message to moderate");
    const html = (await (await fetchApp("/chat-management", { headers: { Cookie: admin.cookie } })).text()).replaceAll("<!-- -->", "");
    expect(html).toContain("in #Room A");
    expect(html).toMatch(/<option value="[0-9a-f-]{36}" selected="">In #Room B<\/option><option value="">In every room<\/option>/);
  });
});

describe("typing indicator", () => {
  it("goes through the room's socket to the others, not back to the typist, at most once per 2 s per person, and is not stored", async () => {
    const typist = await connectChat(roomA, mia);
    const reader = await connectChat(roomA, noah);
    const elsewhere = await connectChat(roomB, noah);
    const storedBefore = await count("SELECT count(*) AS n FROM chat_messages");
    typist.ws.send(CHAT_TYPING);
    expect(await reader.next((m) => m.type === "typing")).toEqual({ type: "typing", userId: mia.id, name: "Mia Moss" });
    // A burst within the throttle: nothing more is relayed.
    for (let i = 0; i < 5; i++) typist.ws.send(CHAT_TYPING);
    await new Promise((r) => setTimeout(r, 600));
    expect(reader.messages.filter((m) => m.type === "typing")).toHaveLength(1);
    expect(typist.messages.some((m) => m.type === "typing")).toBe(false);
    expect(elsewhere.messages.some((m) => m.type === "typing")).toBe(false);
    expect(await count("SELECT count(*) AS n FROM chat_messages")).toBe(storedBefore);
    // After the throttle, the next one goes through.
    await new Promise((r) => setTimeout(r, 1600));
    typist.ws.send(CHAT_TYPING);
    await reader.next((m) => m.type === "typing" && reader.messages.filter((x) => x.type === "typing").length === 2, 4000);
    for (const c of [typist, reader, elsewhere]) c.ws.close(1000);
  });

  it("is not relayed for someone who may not post there: muted in the room, or a member in announcements", async () => {
    await chatAdminAction(adminActor(), { intent: "mute", userId: mia.id, roomId: roomA, minutes: 60, reason: "quiet" });
    const typist = await connectChat(roomA, mia);
    const reader = await connectChat(roomA, noah);
    typist.ws.send(CHAT_TYPING);
    const inNews = await connectChat(news, mia);
    const newsReader = await connectChat(news, noah);
    inNews.ws.send(CHAT_TYPING);
    // An admin typing in announcements is relayed (the control: frames do flow).
    const adminTab = await connectChat(news, admin);
    adminTab.ws.send(CHAT_TYPING);
    expect(await newsReader.next((m) => m.type === "typing")).toMatchObject({ userId: admin.id, name: "Ada Admin" });
    await new Promise((r) => setTimeout(r, 300));
    expect(reader.messages.some((m) => m.type === "typing")).toBe(false);
    expect(newsReader.messages.filter((m) => m.type === "typing").map((m) => m.type === "typing" && m.userId)).toEqual([admin.id]);
    for (const c of [typist, reader, inNews, newsReader, adminTab]) c.ws.close(1000);
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const typingFrames = (c: ChatClient) => c.messages.filter((m) => m.type === "typing");
/** Forgets only the room's typing throttle (not its cached "may post" answers): the next "typing" is taken at once. */
const forgetThrottle = (roomId: string) =>
  runInDurableObject(roomStub(roomId), (o: ChatRoom) => {
    // biome-ignore lint/complexity/useLiteralKeys: the object's private throttle, reached by tests only
    o["typingAt"].clear();
  });

describe("one person, many sockets (decision 0298)", () => {
  it("typing on all of a person's sockets to a room at once is relayed once, not once per socket", async () => {
    const tabs = await Promise.all(Array.from({ length: SOCKETS_PER_PERSON }, () => connectChat(roomA, mia)));
    const reader = await connectChat(roomA, noah);
    for (const tab of tabs) tab.ws.send(CHAT_TYPING);
    expect(await reader.next((m) => m.type === "typing")).toEqual({ type: "typing", userId: mia.id, name: "Mia Moss" });
    await sleep(600);
    expect(typingFrames(reader)).toHaveLength(1);
    // The throttle is each person's own: Noah typing now reaches each of Mia's tabs once.
    reader.ws.send(CHAT_TYPING);
    for (const tab of tabs) expect(await tab.next((m) => m.type === "typing")).toMatchObject({ userId: noah.id });
    expect(tabs.map((t) => typingFrames(t).length)).toEqual(tabs.map(() => 1));
    for (const c of [...tabs, reader]) c.ws.close(1000);
  });

  it("asks D1 whether the typist may post once, not on every relay; a mute told to the room is heeded at once, and its end too", async () => {
    const typist = await connectChat(roomA, mia);
    const reader = await connectChat(roomA, noah);
    const relayed = (n: number) => reader.next(() => typingFrames(reader).length === n);
    const typed = (n: number) => async () => {
      typist.ws.send(CHAT_TYPING);
      await relayed(n);
    };
    expect((await d1Calls(typed(1))).calls).toBe(1);
    // The throttle waited out: the next relay goes through on the answer already read.
    await sleep(TYPING_RELAY_MIN_MS + 100);
    expect((await d1Calls(typed(2))).calls).toBe(0);

    await chatAdminAction(adminActor(), { intent: "mute", userId: mia.id, roomId: roomA, minutes: 60, reason: "quiet" });
    await typist.next((m) => m.type === "mute");
    await forgetThrottle(roomA);
    typist.ws.send(CHAT_TYPING);
    await sleep(400);
    expect(typingFrames(reader)).toHaveLength(2);

    const mute = await env.DB.prepare("SELECT id FROM chat_mutes WHERE user_id = ? AND ended_at IS NULL").bind(mia.id).first<{ id: string }>();
    await chatAdminAction(adminActor(), { intent: "unmute", muteId: mute!.id });
    await typist.next((m) => m.type === "mute" && m.mute === null);
    await forgetThrottle(roomA);
    typist.ws.send(CHAT_TYPING);
    await relayed(3);
    for (const c of [typist, reader]) c.ws.close(1000);
  });

  it(`refuses a person's socket to a room past ${SOCKETS_PER_PERSON} with a 429 before the upgrade; others still get in, and a closed tab frees its place`, async () => {
    const tabs = await Promise.all(Array.from({ length: SOCKETS_PER_PERSON }, () => connectChat(roomB, noah)));
    const over = await chatSocketRequest(roomB, noah.cookie);
    expect(over.status).toBe(429);
    expect(over.webSocket).toBeNull();
    expect(over.headers.get("Retry-After")).toBe("10");
    expect(await over.json()).toEqual({
      error: "Too many sockets",
      message: `At most ${SOCKETS_PER_PERSON} open connections per person here: close another tab and try again.`,
    });
    expect(await runInDurableObject(roomStub(roomB), (o: ChatRoom) => o.socketCount())).toBe(SOCKETS_PER_PERSON);
    // The cap is per person: someone else opens the room as usual.
    const other = await connectChat(roomB, mia);
    // A closed tab frees its place (once the room has answered its close).
    present(tabs[0], "the first tab").ws.close(1000);
    let again = await chatSocketRequest(roomB, noah.cookie);
    for (const until = Date.now() + 3000; again.status === 429 && Date.now() < until; ) {
      await again.body?.cancel();
      await sleep(50);
      again = await chatSocketRequest(roomB, noah.cookie);
    }
    const replacement = chatClientOf(again);
    for (const c of [...tabs.slice(1), other, replacement]) c.ws.close(1000);
  });
});
