import { describe, expect, it } from "vitest";
import { reconnectDelay, RECONNECT_MAX_MS } from "~/modules/notifications/components/notification-socket";
import { badgeText } from "~/modules/notifications/components/notification-bell";
import { fieldErrorsOf as fieldErrors } from "~/lib/forms";
import { splitEmails } from "~/modules/notifications/messages";
import { broadcastSchema, notificationActionSchema } from "~/modules/notifications/schema";
import { mergeNotifications } from "~/modules/notifications/notifications";
import { parseSocketMessage, PONG, type NotificationItem, type SocketMessage } from "~/modules/notifications/protocol";
import { notificationItem } from "../../factories/notifications";

const item = (id: string, createdAt: string, extra: Partial<NotificationItem> = {}) =>
  notificationItem({ id, notificationId: `n-${id}`, title: id, createdAt, ...extra });

describe("badge", () => {
  it("shows nothing at 0, the count up to 9, '9+' above 9", () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(1)).toBe("1");
    expect(badgeText(9)).toBe("9");
    expect(badgeText(10)).toBe("9+");
    expect(badgeText(250)).toBe("9+");
  });
});

describe("merging pushed and fetched notifications", () => {
  it("keeps one entry per id, newest first", () => {
    const a = item("a", "2026-01-01T10:00:00.000Z");
    const b = item("b", "2026-01-01T11:00:00.000Z");
    const c = item("c", "2026-01-01T11:00:00.000Z");
    const merged = mergeNotifications([a, b], [b, c, a]);
    expect(merged.map((n) => n.id)).toEqual(["c", "b", "a"]);
  });

  it("never turns a read item back to unread from an older copy", () => {
    const read = item("a", "2026-01-01T10:00:00.000Z", { isRead: true, readAt: "2026-01-01T10:05:00.000Z" });
    const stale = item("a", "2026-01-01T10:00:00.000Z");
    expect(mergeNotifications([read], [stale])[0]).toMatchObject({ isRead: true, readAt: "2026-01-01T10:05:00.000Z" });
  });
});

describe("reconnect backoff", () => {
  it("doubles from 0.5 s and stays under 30 s, with jitter in the upper half", () => {
    expect(reconnectDelay(0, () => 0)).toBe(250);
    expect(reconnectDelay(0, () => 1)).toBe(500);
    expect(reconnectDelay(3, () => 1)).toBe(4000);
    expect(reconnectDelay(20, () => 1)).toBe(RECONNECT_MAX_MS);
    expect(reconnectDelay(20, () => 0)).toBe(RECONNECT_MAX_MS / 2);
  });
});

describe("broadcast form schema", () => {
  it("accepts everyone, one kind of user, or chosen e-mails", () => {
    expect(broadcastSchema.parse({ title: " Hi ", content: "Text", audience: "all" })).toEqual({
      title: "Hi",
      content: "Text",
      audience: { type: "all" },
    });
    expect(broadcastSchema.parse({ title: "Hi", content: "x", audience: "role", role: "clippers" }).audience).toEqual({
      type: "role",
      role: "clippers",
    });
    expect(
      broadcastSchema.parse({
        title: "Hi",
        content: "x",
        audience: "users",
        emails: "A@Example.com, b@example.com\nA@example.com",
      }).audience,
    ).toEqual({ type: "users", emails: ["a@example.com", "b@example.com"] });
  });

  it("explains what is missing or wrong", () => {
    const errors = (input: Record<string, string>) => {
      const r = broadcastSchema.safeParse(input);
      return r.success ? {} : fieldErrors(r.error);
    };
    expect(errors({ title: "", content: "", audience: "all" })).toMatchObject({
      title: "Title is required.",
      content: "Text is required.",
    });
    expect(errors({ title: "x".repeat(121), content: "y", audience: "all" }).title).toBe("Title must be 120 characters or less.");
    expect(errors({ title: "x", content: "y", audience: "role", role: "kings" }).role).toBe("Choose a kind of user.");
    expect(errors({ title: "x", content: "y", audience: "users", emails: "" }).emails).toBe("Enter at least one e-mail address.");
    expect(errors({ title: "x", content: "y", audience: "users", emails: "not-an-email" }).emails).toMatch(/Not a valid e-mail/);
    expect(errors({ title: "x", content: "y", audience: "nobody" }).audience).toBeTruthy();
  });

  it("sanitises the text the spec's way", () => {
    expect(broadcastSchema.parse({ title: "<b>Hi</b>", content: "<img src=x onerror=alert(1)>", audience: "all" })).toMatchObject({
      title: "bHi/b",
      content: "img src=x alert(1)",
    });
  });

  it("splits e-mails on commas, semicolons, spaces and lines", () => {
    expect(splitEmails("a@x.io; b@x.io c@x.io\n\nd@x.io,")).toEqual(["a@x.io", "b@x.io", "c@x.io", "d@x.io"]);
  });
});

describe("socket protocol (one module for the object and the browser)", () => {
  const notification = item("a", "2026-01-01T10:00:00.000Z");

  it("reads each message the object sends", () => {
    const messages: SocketMessage[] = [
      { type: "notification", notification },
      { type: "read", ids: ["a", "b"], readAt: "2026-01-01T10:05:00.000Z" },
      { type: "read", ids: "all", readAt: "2026-01-01T10:05:00.000Z", before: "2026-01-01T10:00:00.000Z" },
      { type: "account", event: "banned", reason: "Spam" },
      { type: "account", event: "approved", reason: null },
    ];
    for (const m of messages) expect(parseSocketMessage(JSON.stringify(m))).toEqual(m);
  });

  it("drops the pong, malformed frames and shapes that are not in the protocol", () => {
    expect(parseSocketMessage(PONG)).toBeNull();
    expect(parseSocketMessage("{not json")).toBeNull();
    expect(parseSocketMessage(new ArrayBuffer(4))).toBeNull();
    expect(parseSocketMessage(JSON.stringify({ type: "shout", text: "hi" }))).toBeNull();
    expect(parseSocketMessage(JSON.stringify({ type: "account", event: "promoted", reason: null }))).toBeNull();
    // The drift that once happened: a notification without its fields.
    expect(parseSocketMessage(JSON.stringify({ type: "notification", notification: { id: "a" } }))).toBeNull();
    expect(parseSocketMessage(JSON.stringify({ type: "read", ids: "some", readAt: "x" }))).toBeNull();
  });
});

describe("bell actions schema", () => {
  it("accepts mark-read with a uuid and mark-all-read with an optional cutoff", () => {
    const id = "3f0e8a52-6f1b-4c3a-9d2e-1a2b3c4d5e6f";
    expect(notificationActionSchema.parse({ intent: "mark-read", id })).toEqual({ intent: "mark-read", id });
    expect(notificationActionSchema.parse({ intent: "mark-all-read" })).toEqual({ intent: "mark-all-read" });
  });

  it("refuses a malformed id and an unknown intent", () => {
    const errors = (input: Record<string, string>) => {
      const r = notificationActionSchema.safeParse(input);
      return r.success ? {} : fieldErrors(r.error);
    };
    expect(errors({ intent: "mark-read", id: "1 OR 1=1" })).toEqual({ id: "Invalid notification id" });
    expect(Object.values(errors({ intent: "nope" }))).toEqual(["Unknown intent"]);
  });
});
