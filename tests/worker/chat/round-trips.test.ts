// /chat-management's D1 cost (issue 32 §3): the rooms, the feed and the mutes in one batch, then ONE
// people lookup for everyone the page names (the feed's authors, the muted and who muted them).
// Before, the feed's authors and the mutes' people were two lookups, one after the other.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser } from "../../factories/users";
import { pageRoundTrips } from "../d1-calls";
import { createRoom } from "./chat-helpers";

describe("/chat-management: one lookup for the people it names", () => {
  it("a feed message and a mute: three round trips, every name on the page", async () => {
    const admin = await createUser("admin", { fullName: "Ada Roundtrip" });
    const author = await createUser("creator", { fullName: "Wren Writer" });
    const muted = await createUser("creator", { fullName: "Milo Muted" });
    const room = await createRoom(admin, `Round trips ${crypto.randomUUID().slice(0, 4)}`);
    const until = new Date(Date.now() + 86_400_000).toISOString();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO chat_messages (id, room_id, seq, user_id, body) VALUES (?, ?, 900001, ?, 'round trip hello')").bind(
        crypto.randomUUID(),
        room,
        author.id,
      ),
      env.DB.prepare("INSERT INTO chat_mutes (id, user_id, reason, muted_until, muted_by) VALUES (?, ?, 'spam links', ?, ?)").bind(
        crypto.randomUUID(),
        muted.id,
        until,
        admin.id,
      ),
    ]);
    const { html, ...seen } = await pageRoundTrips("/chat-management", admin.cookie);
    expect(html).toContain("round trip hello");
    expect(html).toContain("Wren Writer");
    expect(html).toContain("Milo Muted");
    expect(html).toContain("Ada Roundtrip");
    // Session; rooms, feed and mutes; the people.
    expect(seen.calls).toBe(3);
  });
});
