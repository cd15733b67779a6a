import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser, signInAs } from "../../factories/users";
import { d1Calls } from "../d1-calls";
import { fetchApp, ORIGIN, postForm, setCookieValue, withCookie } from "../helpers";
import { batch, builtOnce, builtOncePerShape, d1, db, inJsonList, sessionStartOf, withD1Session, withRequestSession } from "~/platform/db.server";
import { eq, sql } from "drizzle-orm";
import { profiles } from "~/db/schema";

// Reads near the user (docs/decisions/0232): every statement goes through a D1 session, one per
// request; a request that writes starts on the primary, a read starts from the browser's bookmark
// (or anywhere), and the session's last bookmark goes back in the __Host-sb_d1 cookie, so a person
// reads their own writes even when the next read is served by a replica. Locally every session
// runs on the primary; these tests prove the wrapper: which session each request gets, that the
// cookie is set after a write and that the next read starts from it.

const BOOKMARK_COOKIE = "__Host-sb_d1";

/** Runs `fn` inside the session `withRequestSession` gives `request`; returns the session's bookmark before any query. */
async function startOf(request: Request): Promise<string | null> {
  let seen: string | null | undefined;
  await withRequestSession(request, async () => {
    seen = d1().getBookmark();
    return new Response("ok");
  });
  return seen ?? null;
}

describe("one D1 session per request, its bookmark in a cookie", () => {
  it("a write sets the bookmark cookie, and the next read starts from it and sees the write", async () => {
    const user = await createUser("creator", { fullName: "Before Name" });
    const { cookie } = await signInAs(user.id);

    const write = await postForm("/profile", { intent: "name", fullName: "After Name" }, withCookie(cookie));
    expect(write.status).toBe(200);
    const bookmark = setCookieValue(write, BOOKMARK_COOKIE);
    expect(bookmark, "the write's answer carries the session's bookmark").toMatch(/^[0-9a-f]+(-[0-9a-f]+)+$/i);
    const attributes = write.headers.getSetCookie().find((c) => c.startsWith(`${BOOKMARK_COOKIE}=`)) ?? "";
    expect(attributes).toContain("Path=/");
    expect(attributes).toContain("Secure");
    expect(attributes).toContain("HttpOnly");
    expect(attributes).toContain("SameSite=Lax");

    // The next page view sends it back: its session starts at that bookmark, and the page shows the write.
    const next = new Request(new URL("/profile", ORIGIN), withCookie(`${cookie}; ${BOOKMARK_COOKIE}=${bookmark}`));
    expect(sessionStartOf(next)).toBe(bookmark);
    expect(await startOf(new Request(next))).toBe(bookmark);
    const read = await fetchApp("/profile", withCookie(`${cookie}; ${BOOKMARK_COOKIE}=${bookmark}`));
    expect(read.status).toBe(200);
    expect(await read.text()).toContain("After Name");
  });

  it("a bookmark only moves forward: a later write gives a later bookmark", async () => {
    const user = await createUser("creator");
    const { cookie } = await signInAs(user.id);
    const first = setCookieValue(await postForm("/profile", { intent: "name", fullName: "One" }, withCookie(cookie)), BOOKMARK_COOKIE) ?? "";
    const second =
      setCookieValue(await postForm("/profile", { intent: "name", fullName: "Two" }, withCookie(`${cookie}; ${BOOKMARK_COOKIE}=${first}`)), BOOKMARK_COOKIE) ??
      "";
    expect(first).not.toBe("");
    expect(second.localeCompare(first)).toBeGreaterThan(0);
  });

  it("a request that writes starts on the primary, a read anywhere; a malformed cookie is ignored, never sent to D1", async () => {
    const get = (cookie?: string) => new Request(new URL("/dashboard", ORIGIN), cookie ? { headers: { Cookie: cookie } } : {});
    expect(sessionStartOf(get())).toBe("first-unconstrained");
    expect(sessionStartOf(new Request(new URL("/profile", ORIGIN), { method: "POST" }))).toBe("first-primary");
    // A write starts on the primary even when the browser carries a bookmark.
    const carried = "00000000-00000015-00000000-00000000000000000000000000000000";
    expect(sessionStartOf(new Request(new URL("/profile", ORIGIN), { method: "POST", headers: { Cookie: `${BOOKMARK_COOKIE}=${carried}` } }))).toBe(
      "first-primary",
    );
    expect(sessionStartOf(get(`${BOOKMARK_COOKIE}=${carried}`))).toBe(carried);
    for (const bad of ["x'; DROP TABLE users; --", "%%%", "a".repeat(600), "", "0-0", "00000000-00000015-00000000-0000000000000000000000000000000g"]) {
      expect(sessionStartOf(get(`${BOOKMARK_COOKIE}=${encodeURIComponent(bad)}`))).toBe("first-unconstrained");
    }
    const res = await fetchApp("/auth", withCookie(`${BOOKMARK_COOKIE}=%E0%A4%A`));
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });

  it("an anonymous visitor reading public pages gets no cookie; a signed-in reader gets the bookmark", async () => {
    const page = await fetchApp("/");
    expect(page.status).toBe(200);
    expect(setCookieValue(page, BOOKMARK_COOKIE)).toBeNull();
    await page.arrayBuffer();

    const user = await createUser("creator");
    const { cookie } = await signInAs(user.id);
    const dashboard = await fetchApp("/dashboard", withCookie(cookie));
    expect(dashboard.status).toBe(200);
    expect(setCookieValue(dashboard, BOOKMARK_COOKIE)).toMatch(/^[0-9a-f]+(-[0-9a-f]+)+$/i);
    await dashboard.arrayBuffer();
  });

  it("statements of a unit of work share its session; outside one, they run on a primary session", async () => {
    await withD1Session("first-primary", async (session) => {
      expect(d1()).toBe(session);
      await db().run(sql`SELECT 1`);
      expect(session.getBookmark()).not.toBeNull();
    });
    // Outside a request (a Durable Object's own call, a test): a session of its own, not the binding itself.
    expect(d1()).not.toBe(env.DB);
    expect(typeof d1().getBookmark).toBe("function");
  });

  it("a statement built once runs with each unit of work's values in that unit's session, alone and in a batch (0279)", async () => {
    const [a, b] = [await createUser("creator", { fullName: "Once Alpha" }), await createUser("creator", { fullName: "Once Beta" })];
    let builds = 0;
    const nameOf = builtOnce((slot) => {
      builds++;
      return db()
        .select({ fullName: profiles.fullName })
        .from(profiles)
        .where(eq(profiles.userId, slot("userId")));
    });
    for (const [user, name] of [
      [a, "Once Alpha"],
      [b, "Once Beta"],
    ] as const) {
      await withD1Session("first-unconstrained", async (session) => {
        expect(session.getBookmark()).toBeNull();
        expect(await nameOf({ userId: user.id }).get()).toEqual({ fullName: name });
        // The statement ran in this unit of work's session (its bookmark moved), not in the one it was built in.
        expect(session.getBookmark()).not.toBeNull();
      });
    }
    await withD1Session("first-primary", async () => {
      const [first, count, second] = await batch([
        nameOf({ userId: b.id }),
        db().select({ n: sql<number>`count(*)` }).from(profiles),
        nameOf({ userId: a.id }),
      ]);
      expect(first).toEqual([{ fullName: "Once Beta" }]);
      expect(count[0]?.n).toBeGreaterThanOrEqual(2);
      expect(second).toEqual([{ fullName: "Once Alpha" }]);
      expect(await nameOf({ userId: "nobody" }).get()).toBeUndefined();
    });
    expect(builds).toBe(1);
  });
  it("batch: drizzle queries and built-once statements in one D1 round trip, each answered as alone, atomic, two requests apart (0319)", async () => {
    const [a, b] = [await createUser("creator", { fullName: "Batch Alpha" }), await createUser("creator", { fullName: "Batch Beta" })];
    const nameOf = builtOnce((slot) =>
      db()
        .select({ fullName: profiles.fullName })
        .from(profiles)
        .where(eq(profiles.userId, slot("userId"))),
    );
    const relational = () => db().query.profiles.findFirst({ columns: { fullName: true }, where: eq(profiles.userId, a.id) });
    const alone = {
      select: await db().select({ fullName: profiles.fullName }).from(profiles).where(eq(profiles.userId, b.id)),
      raw: await db().all(sql`select full_name as name from profiles where user_id = ${a.id}`),
      relational: await relational(),
      built: await nameOf({ userId: a.id }).all(),
    };
    let answers: unknown[] = [];
    const seen = await d1Calls(async () => {
      answers = await batch([
        db().select({ fullName: profiles.fullName }).from(profiles).where(eq(profiles.userId, b.id)),
        db().all(sql`select full_name as name from profiles where user_id = ${a.id}`),
        relational(),
        nameOf({ userId: a.id }),
        db().update(profiles).set({ fullName: "Batch Alpha 2" }).where(eq(profiles.userId, a.id)),
        nameOf({ userId: a.id }),
      ]);
    });
    expect(seen).toEqual({ calls: 1, statements: 6 });
    expect(answers.slice(0, 4)).toEqual([alone.select, alone.raw, alone.relational, alone.built]);
    expect(answers[5]).toEqual([{ fullName: "Batch Alpha 2" }]);
    // Atomic: a failing statement undoes the batch's write, and the error is D1's own.
    const failing = batch([
      db().update(profiles).set({ fullName: "Never Written" }).where(eq(profiles.userId, b.id)),
      db().run(sql`insert into profiles (user_id) values (${b.id})`),
    ]);
    await expect(failing).rejects.toThrow(/constraint/i);
    expect(await nameOf({ userId: b.id }).get()).toEqual({ fullName: "Batch Beta" });
    // Two units of work batching at once, interleaved at every await: each gets its own rows, in its own session.
    const [x, y] = await Promise.all(
      [a, b].map((user) =>
        withD1Session("first-primary", async (session) => {
          const [rows, again] = await batch([nameOf({ userId: user.id }), nameOf({ userId: user.id })]);
          return { rows, again, moved: session.getBookmark() !== null };
        }),
      ),
    );
    expect(x).toEqual({ rows: [{ fullName: "Batch Alpha 2" }], again: [{ fullName: "Batch Alpha 2" }], moved: true });
    expect(y).toEqual({ rows: [{ fullName: "Batch Beta" }], again: [{ fullName: "Batch Beta" }], moved: true });
  });
  it("a list goes into a built-once statement as one JSON value: any length, beyond D1's 100 bound values (0284)", async () => {
    const people = await Promise.all(Array.from({ length: 3 }, (_, i) => createUser("creator", { fullName: `Listed ${i}` })));
    let builds = 0;
    const namesOf = builtOnce((slot) => {
      builds++;
      return db()
        .select({ userId: profiles.userId, fullName: profiles.fullName })
        .from(profiles)
        .where(inJsonList(profiles.userId, slot("ids")))
        .orderBy(profiles.fullName);
    });
    const [a, b, c] = people.map((p) => p.id);
    expect(await namesOf({ ids: JSON.stringify([a, b]) }).all()).toEqual([
      { userId: a, fullName: "Listed 0" },
      { userId: b, fullName: "Listed 1" },
    ]);
    // 150 values (D1 would refuse 150 bound parameters): the unknown ones match nothing.
    const long = [...Array.from({ length: 147 }, (_, i) => `nobody-${i}`), c, a, "nobody"];
    const [rows, none] = await batch([namesOf({ ids: JSON.stringify(long) }), namesOf({ ids: "[]" })]);
    expect(rows.map((r) => r.fullName)).toEqual(["Listed 0", "Listed 2"]);
    expect(none).toEqual([]);
    // The same helper with the values themselves, for a statement built per request.
    expect(
      await db()
        .select({ userId: profiles.userId })
        .from(profiles)
        .where(inJsonList(profiles.userId, [b])),
    ).toEqual([{ userId: b }]);
    expect(builds).toBe(1);
  });
  it("a statement whose text depends on a choice is built once per shape, each with its own values (0284)", async () => {
    const [a, b] = [await createUser("creator", { fullName: "Shape Alpha" }), await createUser("creator", { fullName: "Shape Beta" })];
    const built: string[] = [];
    const named = builtOncePerShape(
      (byName: boolean) => String(byName),
      (slot, byName: boolean) => {
        built.push(String(byName));
        return db()
          .select({ userId: profiles.userId })
          .from(profiles)
          .where(byName ? eq(profiles.fullName, slot("name")) : inJsonList(profiles.userId, slot("ids")));
      },
    );
    expect(await named(true, { name: "Shape Alpha" }).all()).toEqual([{ userId: a.id }]);
    expect(await named(false, { ids: JSON.stringify([b.id]) }).all()).toEqual([{ userId: b.id }]);
    expect(await named(true, { name: "Shape Beta" }).all()).toEqual([{ userId: b.id }]);
    expect(built).toEqual(["true", "false"]);
  });
});
