// /clipping's D1 cost (issue 32 §3): every statement of the page rides in the session lookup's
// batch, written over the session's user (issue 43, docs/decisions/0347): its own rows (links,
// clips, folder usage, invitations, waiting requests), the people they name, the folders, the split
// history, and the earnings' three ledger statements. Before: the people, folders and splits were a
// second round trip and the earnings a third (and before 3cf84e9 the page's rows a fourth). Counted with ../d1-calls. Before the batches the page made seven more calls (each list its
// own statement, the invitations and waiting requests their own people lookups, and the earnings
// three calls and one more per creator for the share).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser } from "../../factories/users";
import { pageRoundTrips } from "../d1-calls";
import { pair } from "./helpers";

describe("/clipping: the page's rows in one batch", () => {
  it("a creator with a clipper, clips and invitations: one round trip, every part on the page", async () => {
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
    // The session with the page's rows, people, folders, splits and the earnings' ledger, splits and shares.
    expect(seen.calls).toBe(1);
    expect(seen.statements).toBeGreaterThanOrEqual(12);
  });

  it("the statements over the session's user read only that user's rows: a clipper shared with another creator brings none of that creator's", async () => {
    const { creator, clipper } = await pair();
    const other = await createUser("creator", { fullName: "Other Otto" });
    const otherLink = crypto.randomUUID();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO clipper_links (id, creator_user_id, clipper_user_id, approved_at) VALUES (?, ?, ?, ?)").bind(
        otherLink,
        other.id,
        clipper.id,
        new Date().toISOString(),
      ),
      env.DB.prepare(
        "INSERT INTO clips (id, creator_user_id, clipper_user_id, platform, url, video_id, status) VALUES (?, ?, ?, 'youtube_shorts', 'https://youtube.com/shorts/rtother0001', 'rtother0001', 'pending')",
      ).bind(crypto.randomUUID(), other.id, clipper.id),
      env.DB.prepare("INSERT INTO clip_split_requests (id, link_id, from_bps, share_bps, status, created_at) VALUES (?, ?, 7000, 8500, 'pending', ?)").bind(
        crypto.randomUUID(),
        otherLink,
        new Date().toISOString(),
      ),
    ]);
    // The clipper sees both creators; the first creator sees neither the other creator, their clip nor their link's split.
    const clipperPage = await pageRoundTrips("/clipping", clipper.cookie);
    expect(clipperPage.html).toContain("Other Otto");
    expect(clipperPage.html).toContain("rtother0001");
    expect(clipperPage.calls).toBe(1);
    const { html } = await pageRoundTrips("/clipping", creator.cookie);
    expect(html).not.toContain("Other Otto");
    expect(html).not.toContain("rtother0001");
    expect(html).not.toContain("85%");
  });
});
