// /dashboard's D1 cost: one round trip (the session lookup's batch, accounts alongsideSession,
// docs/decisions/0083) holding three statements: the session query, ONE statement with both
// counts (docs/decisions/0089) and the money card's one statement (payments startMoneyAtAGlance,
// docs/decisions/0328; it reads no money for anyone but an approved creator). Counted by wrapping
// the binding's batch and the statements' own execution for the length of one request.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser } from "../../factories/users";
import { pageRoundTrips } from "../d1-calls";

/** The number a dashboard card shows (StatCard: aria-label = its title, the value in a text-3xl paragraph). */
function cardValue(html: string, title: string): number | null {
  const m = new RegExp(`aria-label="${title}"[\\s\\S]*?text-3xl[^>]*>(\\d+)<`).exec(html);
  return m ? Number(m[1]) : null;
}

describe("/dashboard: one round trip, three statements", () => {
  it("a signed-in /dashboard reads the session, both counts and the money card in one batch of three statements", async () => {
    const me = await createUser("creator");
    await env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Mine')")
      .bind(crypto.randomUUID(), me.id, `UC${crypto.randomUUID().replace(/-/g, "").slice(0, 22)}`)
      .run();
    const published = (await env.DB.prepare("SELECT count(*) AS n FROM music_tracks WHERE status = 'published'").first<{ n: number }>())?.n ?? 0;
    const { html, ...seen } = await pageRoundTrips("/dashboard", me.cookie);
    expect(seen).toEqual({ calls: 1, statements: 3 });
    expect(cardValue(html, "Music Library")).toBe(published);
    expect(cardValue(html, "Connected Channels")).toBe(1);
    expect(html).toContain('aria-labelledby="money-heading"');
  });
});
