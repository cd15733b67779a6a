import { describe, expect, it } from "vitest";
import { chatActionSchema, chatAdminSchema, messageBody } from "~/modules/chat/schema";
import { parseChatFrame } from "~/modules/chat/protocol";
import { safeHref, segmentsOf } from "~/modules/chat/render";

describe("message text: the basic sanitizer, 1 to 1,000 characters", () => {
  it("removes angle brackets, script schemes and inline handlers but keeps links", () => {
    expect(messageBody.parse("<script>alert(1)</script> https://shortbeat.test/x?y=1")).toBe("scriptalert(1)/script https://shortbeat.test/x?y=1");
    expect(messageBody.parse("javajavascript:script:alert(1)")).toBe("alert(1)");
    expect(messageBody.parse("<img src=x onerror=alert(1)>")).toBe("img src=x alert(1)");
    expect(messageBody.parse("  hi  ")).toBe("hi");
  });

  it("counts after sanitizing and refuses empty and over-long text with the spec's wording", () => {
    expect(messageBody.safeParse("x".repeat(1000)).success).toBe(true);
    const long = messageBody.safeParse("x".repeat(1001));
    expect(long.success).toBe(false);
    expect(long.error?.issues[0]?.message).toBe("Message must be 1000 characters or less.");
    // 1,000 characters plus brackets the sanitizer removes: fits.
    expect(messageBody.safeParse(`${"x".repeat(1000)}<>`).success).toBe(true);
    expect(messageBody.safeParse("   \u0000 ").error?.issues[0]?.message).toBe("Write a message first.");
  });

  it("parses a send with repeated mention ids and refuses a foreign one", () => {
    const id = crypto.randomUUID();
    const roomId = crypto.randomUUID();
    const ok = chatActionSchema.parse({ intent: "send", roomId, body: "hi", mentions: [id, id] });
    expect(ok).toMatchObject({ intent: "send", mentions: [id, id] });
    expect(chatActionSchema.safeParse({ intent: "send", roomId, body: "hi", mentions: "not-an-id" }).success).toBe(false);
    expect(chatActionSchema.safeParse({ intent: "read", roomId, seq: "-1" }).success).toBe(false);
  });

  it("admin forms: mute periods from the list only, a reason required", () => {
    const userId = crypto.randomUUID();
    expect(chatAdminSchema.parse({ intent: "mute", userId, minutes: "60", reason: "spam" })).toMatchObject({ minutes: 60 });
    expect(chatAdminSchema.safeParse({ intent: "mute", userId, minutes: "61", reason: "spam" }).success).toBe(false);
    expect(chatAdminSchema.safeParse({ intent: "mute", userId, minutes: "60", reason: "  " }).success).toBe(false);
    expect(chatAdminSchema.safeParse({ intent: "create-room", name: "", kind: "general" }).success).toBe(false);
  });
});

describe("rendering: text, safe links, mentions", () => {
  it("makes http(s) URLs links without trailing punctuation and leaves everything else as text", () => {
    expect(segmentsOf("see https://a.test/x, and http://b.test.")).toEqual([
      { kind: "text", text: "see " },
      { kind: "link", text: "https://a.test/x", href: "https://a.test/x" },
      { kind: "text", text: ", and " },
      { kind: "link", text: "http://b.test", href: "http://b.test/" },
      { kind: "text", text: "." },
    ]);
    // Other schemes are never links.
    expect(segmentsOf("ftp://x.test data:text/plain,hi").every((s) => s.kind === "text")).toBe(true);
    expect(safeHref("javascript:alert(1)")).toBeNull();
    expect(safeHref("https://ok.test/a b")).toBe("https://ok.test/a%20b");
  });

  it("marks stored mentions by id, longest name first", () => {
    const mentions = [
      { id: "1", name: "Ann" },
      { id: "2", name: "Ann Lee" },
    ];
    expect(segmentsOf("hi @Ann Lee and @Ann", mentions)).toEqual([
      { kind: "text", text: "hi " },
      { kind: "mention", text: "@Ann Lee", userId: "2" },
      { kind: "text", text: " and " },
      { kind: "mention", text: "@Ann", userId: "1" },
    ]);
    expect(segmentsOf("@Nobody here", mentions)).toEqual([{ kind: "text", text: "@Nobody here" }]);
  });
});

describe("the socket protocol", () => {
  it("accepts the object's frames and drops pongs, junk and unknown types", () => {
    expect(parseChatFrame(JSON.stringify({ type: "presence", count: 3 }))).toEqual({ type: "presence", count: 3 });
    expect(parseChatFrame(JSON.stringify({ type: "deleted", id: "x", seq: 4 }))).toEqual({ type: "deleted", id: "x", seq: 4 });
    expect(parseChatFrame("pong")).toBeNull();
    expect(parseChatFrame("{not json")).toBeNull();
    expect(parseChatFrame(JSON.stringify({ type: "presence", count: "3" }))).toBeNull();
    expect(parseChatFrame(JSON.stringify({ type: "html", html: "<b>" }))).toBeNull();
  });

  const message = {
    id: "m1",
    roomId: "r1",
    seq: 7,
    userId: "u1",
    authorName: "Alice",
    authorAvatarUrl: null,
    body: "hi https://shortbeat.test",
    mentions: [{ id: "u2", name: "Bob" }],
    createdAt: "2026-11-23T10:00:00.000Z",
    editedAt: null,
  };
  const room = { id: "r1", name: "General", description: "", kind: "general", archived: false };
  const frame = (v: unknown) => parseChatFrame(JSON.stringify(v));

  it("reads every frame the room object sends, exactly as sent", () => {
    const good = [
      { type: "message", message },
      { type: "message", message: { ...message, authorAvatarUrl: "https://cdn.test/a.png" }, trace: { sentAt: 1, doAt: 2 } },
      { type: "edited", message: { ...message, editedAt: "2026-11-23T10:05:00.000Z" } },
      { type: "deleted", id: "m1", seq: 7 },
      { type: "presence", count: 0 },
      { type: "mute", mute: { until: "2026-11-24T10:00:00.000Z", reason: "Spam", allRooms: false } },
      { type: "mute", mute: { until: "2026-11-24T10:00:00.000Z", reason: "Spam", allRooms: true } },
      { type: "mute", mute: null },
      { type: "room", room: { ...room, kind: "announcements", archived: true } },
      { type: "banned", reason: null },
      { type: "banned", reason: "Spam" },
      { type: "activity", roomId: "r2", seq: 9, userId: "u1" },
    ];
    for (const f of good) expect(frame(f), JSON.stringify(f)).toEqual(f);
  });

  it("reads a mute from an object deployed before mutes per room as a mute in every room (decision 0246)", () => {
    const old = { type: "mute", mute: { until: "2026-11-24T10:00:00.000Z", reason: "Spam" } };
    expect(frame(old)).toEqual({ type: "mute", mute: { ...old.mute, allRooms: true } });
  });

  it("keeps known keys only: an extra key in a frame or a message is dropped", () => {
    expect(frame({ type: "presence", count: 2, html: "<b>" })).toEqual({ type: "presence", count: 2 });
    expect(frame({ type: "message", message: { ...message, isAdmin: true } })).toEqual({ type: "message", message });
  });

  it("refuses a malformed frame whole", () => {
    const bad: unknown[] = [
      null,
      [],
      "presence",
      { count: 2 },
      { type: "presence" },
      { type: "presence", count: 1.5 },
      { type: "presence", count: -1 },
      { type: "deleted", id: 5, seq: 1 },
      { type: "deleted", id: "m1", seq: "1" },
      { type: "message" },
      { type: "message", message: { ...message, seq: "7" } },
      { type: "message", message: { ...message, body: null } },
      { type: "message", message: { ...message, authorAvatarUrl: 3 } },
      { type: "message", message: { ...message, mentions: "u2" } },
      { type: "message", message: { ...message, mentions: [{ id: "u2" }] } },
      { type: "message", message: { id: "m1" } },
      { type: "message", message, trace: { sentAt: "now" } },
      { type: "edited", message: { ...message, editedAt: 5 } },
      { type: "mute", mute: { until: "2026-11-24T10:00:00.000Z" } },
      { type: "mute" },
      { type: "room", room: { ...room, kind: "secret" } },
      { type: "room", room: { ...room, archived: "yes" } },
      { type: "banned" },
      { type: "banned", reason: 1 },
      { type: "activity", roomId: "r2", seq: "9", userId: "u1" },
      { type: "activity", roomId: "r2", seq: 9 },
    ];
    for (const f of bad) expect(frame(f), JSON.stringify(f)).toBeNull();
    expect(parseChatFrame(new ArrayBuffer(4))).toBeNull();
  });
});
