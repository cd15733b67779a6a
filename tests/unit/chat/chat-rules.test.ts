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
    expect(long.error?.issues[0].message).toBe("Message must be 1000 characters or less.");
    // 1,000 characters plus brackets the sanitizer removes: fits.
    expect(messageBody.safeParse(`${"x".repeat(1000)}<>`).success).toBe(true);
    expect(messageBody.safeParse("   \u0000 ").error?.issues[0].message).toBe("Write a message first.");
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
});
