import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { alongsideSession, getSessionUser, sessionUserOf, validateSessionToken } from "~/modules/accounts/accounts.server";
import { requestContext } from "~/platform/context.server";
import { builtOnce, db } from "~/platform/db.server";
import { insertTrack } from "../../factories/tracks";
import { createUser } from "../../factories/users";
import { count, fetchApp, okText, redirectTarget } from "../helpers";

// /dashboard's counts ride in the session lookup's D1 batch (accounts alongsideSession,
// docs/decisions/0083): the statements run with the session's user as an SQL expression, so these
// tests check that each person sees their own numbers and that nobody the guard refuses sees any.

/** The number a dashboard card shows (StatCard: aria-label = its title, the value in a text-3xl paragraph). */
function cardValue(html: string, title: string): number | null {
  const m = new RegExp(`aria-label="${title}"[\\s\\S]*?text-3xl[^>]*>(\\d+)<`).exec(html);
  return m ? Number(m[1]) : null;
}

async function addPublishedTrack(title: string, status: "published" | "in_review" = "published") {
  await insertTrack({ title, artist: "Artist", genre: "Pop", mood: "Happy", bpm: 100, tags: "", peaks: "[]", status });
}

async function addChannel(userId: string, title: string) {
  await env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, ?)")
    .bind(crypto.randomUUID(), userId, `UC${crypto.randomUUID().replace(/-/g, "").slice(0, 22)}`, title)
    .run();
}

describe("/dashboard: counts in the session's round trip", () => {
  it("shows published tracks and the viewer's own connected channels, not someone else's", async () => {
    await addPublishedTrack("One");
    await addPublishedTrack("Two");
    await addPublishedTrack("Waiting", "in_review");
    const me = await createUser("creator");
    const other = await createUser("creator");
    await addChannel(me.id, "Mine");
    await addChannel(other.id, "Theirs A");
    await addChannel(other.id, "Theirs B");

    const published = await count("SELECT count(*) AS n FROM music_tracks WHERE status = 'published'");
    expect(published).toBeGreaterThanOrEqual(2);
    const mine = await okText(fetchApp("/dashboard", { headers: { Cookie: me.cookie } }));
    expect(cardValue(mine, "Music Library")).toBe(published);
    expect(cardValue(mine, "Connected Channels")).toBe(1);
    const theirs = await okText(fetchApp("/dashboard", { headers: { Cookie: other.cookie } }));
    expect(cardValue(theirs, "Connected Channels")).toBe(2);
  });

  it("many signed-in people at once each get their own count", async () => {
    const people = await Promise.all(Array.from({ length: 6 }, () => createUser("creator")));
    for (const [i, p] of people.entries()) for (let k = 0; k < i; k++) await addChannel(p.id, `C${k}`);
    const pages = await Promise.all(people.map((p) => okText(fetchApp("/dashboard", { headers: { Cookie: p.cookie } }))));
    expect(pages.map((html) => cardValue(html, "Connected Channels"))).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("shows nothing to a visitor without a session, a pending account or a banned one", async () => {
    const anonymous = await fetchApp("/dashboard");
    expect(anonymous.status).toBe(302);
    expect(await redirectTarget(anonymous)).toMatch(/^\/auth/);
    const pending = await createUser("pending");
    await addChannel(pending.id, "Pending's channel");
    const res = await fetchApp("/dashboard", { headers: { Cookie: pending.cookie } });
    expect(res.status).toBe(302);
    expect(await redirectTarget(res)).toBe("/pending-approval");
    const banned = await createUser("banned");
    const b = await fetchApp("/dashboard", { headers: { Cookie: banned.cookie } });
    expect(b.status).toBe(302);
    expect(await b.text()).not.toContain("Connected Channels");
  });

  it("a made-up session cookie is refused and clears, with no error", async () => {
    const res = await fetchApp("/dashboard", { headers: { Cookie: "sb_session=not-a-session; __Host-sb_session=not-a-session" } });
    expect(res.status).toBe(302);
    expect(await redirectTarget(res)).toMatch(/^\/auth/);
  });

  it("the session read in a batch with companions is the same as read alone (no column collides)", async () => {
    const me = await createUser("creator");
    const alone = await validateSessionToken(me.token);
    let companion: unknown;
    const batched = await validateSessionToken(me.token, Date.now(), [
      {
        build: (session) =>
          db()
            .select({ me: sql<string>`(select user_id from sessions where id = ${session.sessionId})` })
            .from(sql`(select 1)`),
        resolve: (rows) => (companion = rows),
        reject: () => undefined,
      },
    ]);
    expect(alone?.approvalStatus).toBe("approved");
    expect(batched).toEqual(alone);
    expect(companion).toEqual([{ me: me.id }]);
  });

  it("a statement built once over sessionUserOf reads each session's own user: in the lookup's batch, and when it comes after the lookup", async () => {
    const mine = builtOnce((slot) =>
      db()
        .select({ me: sessionUserOf(slot) })
        .from(sql`(select 1)`),
    );
    const people = await Promise.all(Array.from({ length: 3 }, () => createUser("creator")));
    for (const p of people) {
      // In the batch (validateSessionToken's companions), three sessions one after the other through one built statement.
      let rows: unknown;
      await validateSessionToken(p.token, Date.now(), [{ build: mine, resolve: (r) => (rows = r), reject: () => undefined }]);
      expect(rows).toEqual([{ me: p.id }]);
      // After the lookup has finished: alongsideSession runs it on its own, with the same values.
      const context = new RouterContextProvider();
      context.set(requestContext, { nonce: "", requestId: "test", ctx: {} as ExecutionContext });
      const args = { request: new Request("https://shortbeat.test/dashboard", { headers: { Cookie: p.cookie } }), context };
      expect((await getSessionUser(args.request, context))?.id).toBe(p.id);
      expect(await alongsideSession(args, mine)).toEqual([{ me: p.id }]);
    }
  });
});
