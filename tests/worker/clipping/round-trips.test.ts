// /clipping's D1 cost (issue 32 §3): the page's own rows (links, clips, folder usage, invitations,
// waiting requests) ride in the session lookup's batch (issue 43: the round trip of their own is
// gone), then the people they name (one lookup for all of them), the
// folders and the split history in a second; the earnings are the ledger's three statements in one
// batch. Counted with ../d1-calls. Before the batches the page made seven more calls (each list its
// own statement, the invitations and waiting requests their own people lookups, and the earnings
// three calls and one more per creator for the share).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser } from "../../factories/users";
import { pageRoundTrips } from "../d1-calls";
import { pair } from "./helpers";

describe("/clipping: the page's rows in one batch", () => {
  it("a creator with a clipper, clips and invitations: three round trips, every part on the page", async () => {
    const { creator, clipper } = await pair();
    const other = await createUser("creator", { fullName: "Invited Ivy" });
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 86_400_000).toISOString();
    await env.DB.batch([
      env.DB.prepare("UPDATE profiles SET full_name = 'Clipper Cole' WHERE user_id = ?").bind(clipper.id),
      env.DB.prepare(
        "INSERT INTO clips (id, creator_user_id, clipper_user_id, platform, url, video_id, status) VALUES (?, ?, ?, 'youtube_shorts', 'https://youtube.com/shorts/rtclip00001', 'rtclip00001', 'pending')",
      ).bind(crypto.randomUUID(), creator.id, clipper.id),
      env.DB.prepare(
        "INSERT INTO clipper_invitations (id, creator_user_id, email, code_hash, status, expires_at, accepted_by, accepted_at) VALUES (?, ?, 'ivy@example.test', ?, 'accepted', ?, ?, ?)",
      ).bind(crypto.randomUUID(), creator.id, crypto.randomUUID(), later, other.id, now),
    ]);
    const { html, ...seen } = await pageRoundTrips("/clipping", creator.cookie);
    // The clip to review, the clipper, and the invitation's person (named from the same people lookup).
    expect(html).toContain("rtclip00001");
    expect(html).toContain("Clipper Cole");
    expect(html).toContain("Invited Ivy");
    // The session with the page's rows; people, folders and splits; the earnings (ledger, splits and shares in one batch).
    expect(seen.calls).toBe(3);
    expect(seen.statements).toBeGreaterThanOrEqual(10);
  });
});
