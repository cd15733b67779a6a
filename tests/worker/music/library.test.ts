// The music library (/music): FTS5 search and its ranking, each filter, the sorts, server
// pagination, only published tracks, the approval guard, and addresses it cannot use (never a 500).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "~/lib/permissions";
import { ftsQuery, libraryPage } from "~/modules/music/music.server";
import { EMPTY_LIBRARY_QUERY, LIBRARY_PAGE_SIZE, libraryHref, parseLibraryQuery, type LibraryQuery } from "~/modules/music/schema";
import { trackInsert } from "../../factories/tracks";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, okText, outcome, withCookie } from "../helpers";
import { present } from "../../helpers/present";

let creator: TestUser;
let pending: TestUser;
let actor: Actor;

type TrackFixture = {
  title: string;
  artist?: string;
  tags?: string;
  genre?: string | null;
  mood?: string | null;
  bpm?: number | null;
  duration?: number;
  status?: "in_review" | "published" | "rejected" | "withdrawn";
  licences?: number;
  publishedAt?: string;
};

async function addTracks(list: TrackFixture[]): Promise<string[]> {
  const ids = list.map(() => crypto.randomUUID());
  await env.DB.batch(
    list.map((t, i) =>
      trackInsert({
        id: ids[i],
        title: t.title,
        artist: t.artist,
        genre: t.genre === undefined ? "Pop" : t.genre,
        mood: t.mood === undefined ? "Happy" : t.mood,
        bpm: t.bpm === undefined ? 100 : t.bpm,
        durationSeconds: t.duration,
        tags: t.tags ?? "",
        peaks: JSON.stringify(Array.from({ length: 128 }, (_, j) => (j * 7) % 256)),
        status: t.status,
        licenceCount: t.licences ?? 0,
        // One minute apart (the newest first), unless the fixture says when.
        publishedAt: (t.status ?? "published") === "published" ? (t.publishedAt ?? new Date(Date.now() - i * 60_000).toISOString()) : null,
      }),
    ),
  );
  return ids;
}

const query = (changes: Partial<LibraryQuery>): LibraryQuery => ({ ...EMPTY_LIBRARY_QUERY, ...changes });
const titles = async (changes: Partial<LibraryQuery>) => (await libraryPage(actor, query(changes))).tracks.map((t) => t.title);

beforeAll(async () => {
  [creator, pending] = await Promise.all([createUser("creator"), createUser("pending")]);
  actor = { id: creator.id, email: creator.email, isAdmin: false, approvalStatus: "approved", isBanned: false, isMusicPartner: false, hasActiveAgency: false };
  await fetchApp("/");
}, 180_000);

describe("search", () => {
  beforeAll(async () => {
    await addTracks([
      { title: "Quiet Harbour", artist: "Nobody", tags: "zephyrine ocean" }, // tag match
      { title: "Zephyrine Dawn", artist: "Someone", tags: "morning" }, // title match
      { title: "Lantern", artist: "Zephyrine Band", tags: "night" }, // artist match
      { title: "Unrelated", artist: "Else", tags: "zebra" },
    ]);
  });

  it("ranks a title match above an artist match above a tag match, and matches prefixes", async () => {
    expect(await titles({ q: "zephyr", sort: "relevance" })).toEqual(["Zephyrine Dawn", "Lantern", "Quiet Harbour"]);
    expect(await titles({ q: "ZEPHYRINE", sort: "relevance" })).toEqual(["Zephyrine Dawn", "Lantern", "Quiet Harbour"]);
  });

  it("needs every word to match (each a prefix)", async () => {
    expect(await titles({ q: "zephyr dawn", sort: "relevance" })).toEqual(["Zephyrine Dawn"]);
    expect(await titles({ q: "zephyr oce", sort: "relevance" })).toEqual(["Quiet Harbour"]);
  });

  it("turns what was typed into quoted prefix terms, so FTS syntax cannot be injected", async () => {
    expect(ftsQuery('sun" OR title:x* NEAR(a b) -c')).toBe('"sun"* "or"* "title"* "x" "near"* "a" "b" "c"');
    // A single character is a whole word, not a prefix (docs/decisions/0100); at most eight words count.
    expect(ftsQuery("a b c d e f g h i j")?.split(" ")).toHaveLength(8);
    expect(ftsQuery("  \"'*()  ")).toBeNull();
    for (const q of ['"', "zeph*", "AND", "title:zephyrine", "NEAR(zephyrine", "-zephyrine", "^zeph", "zephyrine OR", "'; DROP TABLE music_tracks; --"]) {
      const res = await fetchApp(libraryHref(query({ q })), withCookie(creator.cookie));
      expect(res.status, q).toBe(200);
    }
    expect(await count("SELECT count(*) AS n FROM music_tracks")).toBeGreaterThan(0);
    // Operators are searched as words: "or" matches nothing here, so neither does the whole search.
    expect(await titles({ q: "zephyrine OR zebra" })).toEqual([]);
  });

  it("a search of punctuation only is no search", async () => {
    const all = await libraryPage(actor, query({}));
    const punct = await libraryPage(actor, query({ q: "!!! ???" }));
    expect(punct.total).toBe(all.total);
  });
});

describe("filters, sorts and pages", () => {
  beforeAll(async () => {
    await addTracks([
      { title: "Filt Jazz Slow", tags: "filtset", genre: "Jazz", mood: "Calm", bpm: 70, duration: 30 },
      { title: "Filt Jazz Fast", tags: "filtset", genre: "Jazz", mood: "Energetic", bpm: 160, duration: 200 },
      { title: "Filt Rock Mid", tags: "filtset", genre: "Rock", mood: "Energetic", bpm: 120, duration: 90 },
      { title: "filt ambient none", tags: "filtset", genre: "Ambient", mood: "Calm", bpm: null, duration: 45 },
    ]);
  });

  it("filters by genre, mood, BPM range and duration range, alone and together", async () => {
    const q = "filtset";
    expect((await titles({ q, genre: "Jazz", sort: "title" })).sort()).toEqual(["Filt Jazz Fast", "Filt Jazz Slow"]);
    expect((await titles({ q, mood: "Calm", sort: "title" })).sort()).toEqual(["Filt Jazz Slow", "filt ambient none"]);
    expect(await titles({ q, bpmMin: 100, sort: "title" })).toEqual(["Filt Jazz Fast", "Filt Rock Mid"]);
    expect(await titles({ q, bpmMax: 120, sort: "title" })).toEqual(["Filt Jazz Slow", "Filt Rock Mid"]);
    expect(await titles({ q, bpmMin: 100, bpmMax: 130 })).toEqual(["Filt Rock Mid"]);
    expect(await titles({ q, durMin: 40, durMax: 100, sort: "title" })).toEqual(["filt ambient none", "Filt Rock Mid"]);
    expect(await titles({ q, durMax: 30 })).toEqual(["Filt Jazz Slow"]);
    expect(await titles({ q, genre: "Jazz", mood: "Energetic", bpmMin: 150, durMin: 180 })).toEqual(["Filt Jazz Fast"]);
    expect(await titles({ q, genre: "Rock", mood: "Calm" })).toEqual([]);
  });

  it("reads the filters from the URL the form sends (names, case, reversed ranges)", async () => {
    const parsed = parseLibraryQuery(new URLSearchParams("q=filtset&genre=jazz&mood=ENERGETIC&bpm_min=180&bpm_max=150&dur_min=&dur_max=&sort=&page="));
    expect(parsed).toMatchObject({
      q: "filtset",
      genre: "Jazz",
      mood: "Energetic",
      bpmMin: 150,
      bpmMax: 180,
      durMin: null,
      durMax: null,
      sort: "relevance",
      page: 1,
    });
    expect(await titles(parsed)).toEqual(["Filt Jazz Fast"]);
  });

  it("sorts by title (case-insensitive), newest and most used", async () => {
    const ids = await addTracks([
      { title: "bravo", tags: "sortset", licences: 5, publishedAt: "2025-01-02T00:00:00.000Z" },
      { title: "Alpha", tags: "sortset", licences: 1, publishedAt: "2025-01-03T00:00:00.000Z" },
      { title: "Charlie", tags: "sortset", licences: 9, publishedAt: "2025-01-01T00:00:00.000Z" },
    ]);
    expect(ids).toHaveLength(3);
    expect(await titles({ q: "sortset", sort: "title" })).toEqual(["Alpha", "bravo", "Charlie"]);
    expect(await titles({ q: "sortset", sort: "newest" })).toEqual(["Alpha", "bravo", "Charlie"]);
    expect(await titles({ q: "sortset", sort: "popular" })).toEqual(["Charlie", "bravo", "Alpha"]);
  });

  it("pages on the server; a page past the end shows the last page", async () => {
    await addTracks(Array.from({ length: LIBRARY_PAGE_SIZE + 5 }, (_, i) => ({ title: `Pager ${String(i).padStart(2, "0")}`, tags: "pagerset" })));
    const first = await libraryPage(actor, query({ q: "pagerset", sort: "title" }));
    expect(first).toMatchObject({ total: LIBRARY_PAGE_SIZE + 5, page: 1, pageCount: 2 });
    expect(first.tracks).toHaveLength(LIBRARY_PAGE_SIZE);
    expect(first.tracks[0]?.title).toBe("Pager 00");
    const second = await libraryPage(actor, query({ q: "pagerset", sort: "title", page: 2 }));
    expect(second.tracks.map((t) => t.title)).toEqual(["Pager 20", "Pager 21", "Pager 22", "Pager 23", "Pager 24"]);
    const beyond = await libraryPage(actor, query({ q: "pagerset", sort: "title", page: 99 }));
    expect(beyond.page).toBe(2);
    expect(beyond.tracks).toHaveLength(5);
    // The page links keep the search and the sort.
    const html = await okText(fetchApp("/music?q=pagerset&sort=title", withCookie(creator.cookie)));
    expect(html).toContain('href="/music?q=pagerset&amp;sort=title&amp;page=2"');
    expect(html).toContain("Page 1 of 2");
  });

  it("shows each track's details and a waveform from its peaks", async () => {
    const [track] = (await libraryPage(actor, query({ q: "filt rock" }))).tracks;
    expect(track).toMatchObject({ title: "Filt Rock Mid", genre: "Rock", mood: "Energetic", bpm: 120, durationSeconds: 90, tags: ["filtset"], coverUrl: null });
    expect(JSON.parse(present(track, "the Filt Rock Mid track").peaks)).toHaveLength(64);
    const html = await okText(fetchApp("/music?q=filt+rock", withCookie(creator.cookie)));
    expect(html).toContain("Filt Rock Mid");
    expect(html).toContain("1:30");
    expect(html).toContain('data-testid="track-waveform"');
  });
});

describe("visibility", () => {
  it("lists published tracks only: in review, rejected and withdrawn ones stay out of results and counts", async () => {
    await addTracks([
      { title: "Vis Published", tags: "visset" },
      { title: "Vis Review", tags: "visset", status: "in_review" },
      { title: "Vis Rejected", tags: "visset", status: "rejected" },
      { title: "Vis Withdrawn", tags: "visset", status: "withdrawn" },
    ]);
    const page = await libraryPage(actor, query({ q: "visset" }));
    expect(page.tracks.map((t) => t.title)).toEqual(["Vis Published"]);
    expect(page.total).toBe(1);
    const all = await libraryPage(actor, query({}));
    expect(all.total).toBe(await count("SELECT count(*) AS n FROM music_tracks WHERE status = 'published'"));
    const html = await okText(fetchApp("/music?q=vis", withCookie(creator.cookie)));
    expect(html).toContain("Vis Published");
    expect(html).not.toContain("Vis Review");
    expect(html).not.toContain("Vis Withdrawn");
  });

  it("asked for tracks by id (the Favorites view), still only published ones", async () => {
    const [a, b] = await addTracks([
      { title: "Fav One", tags: "favset" },
      { title: "Fav Hidden", tags: "favset", status: "withdrawn" },
    ]);
    const page = await libraryPage(actor, parseLibraryQuery(new URLSearchParams({ ids: `${a},${b},not-an-id` })));
    expect(page.tracks.map((t) => t.title)).toEqual(["Fav One"]);
  });
});

describe("the page and its guard", () => {
  it("is a plain GET form with labelled controls; without results it says so and offers 'Clear filters'", async () => {
    const html = await okText(fetchApp("/music?q=nothingmatchesthis", withCookie(creator.cookie)));
    const form = /<form[^>]*role="search"[^>]*>/.exec(html)?.[0] ?? "";
    expect(form).toContain('method="get"');
    expect(form).toContain('action="/music"');
    for (const [id, label] of [
      ["library-q", "Search"],
      ["library-genre", "Genre"],
      ["library-mood", "Mood"],
      ["library-sort", "Sort by"],
      ["library-bpm-min", "Lowest BPM"],
      ["library-bpm-max", "Highest BPM"],
      ["library-dur-min", "Shortest length"],
      ["library-dur-max", "Longest length"],
    ]) {
      expect(html, id).toMatch(new RegExp(`<label[^>]*for="${id}"[^>]*>${label}</label>`));
    }
    expect(html).toContain("No tracks match your search");
    expect(html).toMatch(/<a[^>]*href="\/music"[^>]*>Clear filters<\/a>/);
    expect(html).toContain('value="nothingmatchesthis"');
  });

  it("answers addresses it cannot use with the library, never an error", async () => {
    for (const qs of [
      "bpm_min=abc&bpm_max=-5",
      "page=-1",
      "page=abc",
      "page=1e9",
      "dur_min=1.5&dur_max=99999999999",
      "genre=%3Cscript%3E&mood=nope&sort=drop",
      "sort=relevance",
      `q=${"x".repeat(5000)}`,
      "ids=%27%22,,",
      "q=a&q=b&page=2&page=3",
    ]) {
      const res = await fetchApp(`/music?${qs}`, withCookie(creator.cookie));
      expect(res.status, qs).toBe(200);
      const data = await fetchApp(`/music.data?${qs}`, withCookie(creator.cookie));
      expect(data.status, qs).toBe(200);
    }
    expect(parseLibraryQuery(new URLSearchParams("bpm_min=abc&page=-1&sort=relevance"))).toEqual(EMPTY_LIBRARY_QUERY);
  });

  it("sends a signed-out visitor to sign in and back", async () => {
    const res = await fetchApp("/music?q=zeph");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/auth?redirectTo=${encodeURIComponent("/music?q=zeph")}`);
  });

  it("sends a pending user to /pending-approval (page and .data); /music is not among the spec's audited paths", async () => {
    expect(await outcome(await fetchApp("/music", withCookie(pending.cookie)))).toBe("→/pending-approval");
    expect(await outcome(await fetchApp("/music.data?q=x", withCookie(pending.cookie)))).toBe("→/pending-approval");
    expect(
      await count(
        "SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'unauthorized_access_attempt' AND user_id = ? AND path = '/music'",
        pending.id,
      ),
    ).toBe(0);
    // The partner pages under /music are audited (spec section 6): the same guard writes the row there.
    await fetchApp("/music/submit", withCookie(pending.cookie));
    const row = await env.DB.prepare(
      "SELECT severity, details FROM security_audit_log WHERE event_type = 'unauthorized_access_attempt' AND user_id = ? AND path = '/music/submit'",
    )
      .bind(pending.id)
      .first<{ severity: string; details: string }>();
    expect(row?.severity).toBe("high");
    expect(JSON.parse(row?.details ?? "{}")).toMatchObject({ path: "/music/submit", user_id: pending.id, approval_status: "pending" });
  });
});
