// Search that finds what creators type (issue 30 §1): genre, mood and tempo words, spelling
// variants (lofi / lo-fi, hip hop / hip-hop, harbour / harbor), typos corrected against the
// library's own words, and relevance (an exact title first). Run against the demo catalogue
// (app/dev/music-seed.ts), as the demo shows it. docs/decisions/0240.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { MUSIC_SEED_TRACKS } from "~/dev/music-seed";
import type { Actor } from "~/lib/permissions";
import { libraryPage, similarTracks } from "~/modules/music/music.server";
import { EMPTY_LIBRARY_QUERY, LIBRARY_PAGE_SIZE } from "~/modules/music/schema";
import { correctWords, editDistance, searchGroups } from "~/modules/music/search-words";
import { ftsQuery } from "~/modules/music/music.server";
import { trackInsert } from "../../factories/tracks";
import { createUser } from "../../factories/users";
import { fetchApp, okText, withCookie } from "../helpers";
import { present } from "../../helpers/present";

let actor: Actor;
let cookie: string;
const published = MUSIC_SEED_TRACKS.filter((t) => t.status === "published");
const titlesWhere = (keep: (t: (typeof published)[number]) => boolean) => published.filter(keep).map((t) => t.title);

async function search(q: string) {
  const page = await libraryPage(actor, { ...EMPTY_LIBRARY_QUERY, q, sort: "relevance", page: 1 });
  return { ...page, titles: page.tracks.map((t) => t.title) };
}

/** Every track the search finds, as a set of titles (the expected sets fit one page). */
async function found(q: string): Promise<string[]> {
  const page = await search(q);
  expect(page.total, q).toBeLessThanOrEqual(LIBRARY_PAGE_SIZE);
  return [...page.titles].sort();
}

beforeAll(async () => {
  const creator = await createUser("creator");
  cookie = creator.cookie ?? "";
  actor = { id: creator.id, email: creator.email, isAdmin: false, approvalStatus: "approved", isBanned: false, isMusicPartner: false, hasActiveAgency: false };
  await fetchApp("/");
  // The seed's rows without their audio (the search reads the rows only).
  await env.DB.batch(
    MUSIC_SEED_TRACKS.map(({ id, title, artist, genre, mood, bpm, tags, status }) =>
      trackInsert({ id, title, artist, genre, mood, bpm, tags, status, audioKey: `music/search-test/${id}.wav` }),
    ),
  );
}, 180_000);

describe("genre, mood and tempo words", () => {
  it("finds every track of a genre by its name: jazz, hip hop, hip-hop, hiphop, lofi, lo-fi, lo fi", async () => {
    const jazz = titlesWhere((t) => t.genre === "Jazz").sort();
    expect(jazz.length).toBeGreaterThan(1);
    expect(await found("jazz")).toEqual(jazz);
    const hipHop = titlesWhere((t) => t.genre === "Hip-Hop").sort();
    for (const q of ["hip hop", "hip-hop", "hiphop", "Hip Hop"]) expect(await found(q), q).toEqual(hipHop);
    const lofi = titlesWhere((t) => t.genre === "Lo-fi").sort();
    for (const q of ["lofi", "lo-fi", "lo fi", "LoFi"]) expect(await found(q), q).toEqual(lofi);
  });

  it("finds a mood (chill, uplifting) and a genre with a mood", async () => {
    const chill = titlesWhere((t) => t.mood === "Chill" || t.tags.split(" ").includes("chill")).sort();
    expect(await found("chill")).toEqual(chill);
    expect(await found("uplifting")).toEqual(titlesWhere((t) => t.mood === "Uplifting").sort());
    expect(await found("chill jazz")).toEqual(titlesWhere((t) => t.mood === "Chill" && t.genre === "Jazz").sort());
  });

  it('a word for a mood finds the moods it names: "upbeat" finds the Energetic, Happy and Uplifting tracks (issue 42)', async () => {
    const moodOr = (moods: string[], tag: string) => titlesWhere((t) => moods.includes(t.mood) || t.tags.split(" ").includes(tag)).sort();
    const upbeat = moodOr(["Energetic", "Happy", "Uplifting"], "upbeat");
    expect(upbeat.length).toBeGreaterThan(10);
    expect(await search("upbeat")).toMatchObject({ total: upbeat.length, correctedQ: null });
    const bigPage = async (q: string) => {
      const page = await libraryPage(actor, { ...EMPTY_LIBRARY_QUERY, q, sort: "title", page: 1 });
      const rest = page.pageCount > 1 ? await libraryPage(actor, { ...EMPTY_LIBRARY_QUERY, q, sort: "title", page: 2 }) : null;
      return [...page.tracks, ...(rest?.tracks ?? [])].map((t) => t.title).sort();
    };
    expect(await bigPage("upbeat")).toEqual(upbeat);
    expect(await found("relaxed")).toEqual(moodOr(["Calm", "Chill"], "relaxed"));
    expect(await found("moody")).toEqual(moodOr(["Dark"], "moody"));
    expect(await found("feel good")).toEqual(moodOr(["Happy", "Uplifting"], "feelgood"));
    expect(await found("melancholic piano")).toEqual(titlesWhere((t) => t.mood === "Sad" && t.tags.includes("piano")).sort());
    // A mood's own name means that mood, as the Mood filter does: "happy" is not Energetic too.
    expect(await found("happy")).toEqual(titlesWhere((t) => t.mood === "Happy").sort());
    // The mood is matched as the track's mood only, not as a word of a title.
    expect(ftsQuery("upbeat")).toBe('("upbeat"* OR search_facets : "energetic" OR search_facets : "happy" OR search_facets : "uplifting")');
  });

  it("finds a tempo band (slow under 90 BPM, fast from 120)", async () => {
    const slowJazz = titlesWhere((t) => t.genre === "Jazz" && t.bpm < 90).sort();
    expect(slowJazz.length).toBeGreaterThan(0);
    expect(await found("slow jazz")).toEqual(slowJazz);
    expect(await found("fast rock")).toEqual(titlesWhere((t) => t.genre === "Rock" && t.bpm >= 120).sort());
  });

  it("keeps the index in step when a track's genre or mood changes", async () => {
    const track = published.find((t) => t.title === "Velvet Room");
    await env.DB.prepare("UPDATE music_tracks SET genre = 'Funk', mood = 'Happy' WHERE id = ?").bind(track?.id).run();
    try {
      expect(await found("jazz")).not.toContain("Velvet Room");
      expect(await found("funk")).toContain("Velvet Room");
    } finally {
      await env.DB.prepare("UPDATE music_tracks SET genre = 'Jazz', mood = 'Romantic' WHERE id = ?").bind(track?.id).run();
    }
    expect(await found("jazz")).toContain("Velvet Room");
  });
});

describe("spelling variants", () => {
  it("harbour finds Harbor (British and American spellings, both ways)", async () => {
    const harbor = titlesWhere((t) => t.artist === "Harbor Lights").sort();
    expect(harbor.length).toBeGreaterThan(1);
    expect(await found("harbour lights")).toEqual(harbor);
    expect(await found("harbor lights")).toEqual(harbor);
    expect(await found("grey")).toEqual(await found("gray"));
    expect(await found("cosy")).toEqual(titlesWhere((t) => t.tags.includes("cozy")).sort());
  });

  it("builds the variants as OR groups of quoted terms (nothing typed is FTS syntax)", () => {
    expect(ftsQuery("harbour lights")).toBe('("harbour"* OR "harbor"*) AND "lights"*');
    expect(ftsQuery("hip-hop")).toBe('("hip hop"* OR "hiphop"*)');
    expect(ftsQuery("lofi OR")).toBe('("lofi"* OR "lo fi"*) AND "or"*');
    expect(searchGroups(["colour"])).toEqual([{ spellings: ["colour", "color"], moods: [] }]);
  });
});

describe("typos", () => {
  it('corrects "aurra" to Aurora and "nigth market" to Night Market, and says so', async () => {
    const aura = await search("aurra");
    expect(aura.titles[0]).toBe("Aurora");
    expect(aura.correctedQ).toBe("aurora");
    const market = await search("nigth market");
    expect(market.titles).toEqual(["Night Market"]);
    expect(market.correctedQ).toBe("night market");
    const twoTypos = await search("uplfiting");
    expect(twoTypos.correctedQ).toBe("uplifting");
    expect([...twoTypos.titles].sort()).toEqual(titlesWhere((t) => t.mood === "Uplifting").sort());
  });

  it("shows what it searched instead on /music", async () => {
    const html = await okText(fetchApp("/music?q=nigth+market", withCookie(cookie)));
    expect(html).toContain("Night Market");
    expect(html).toContain("Showing results for");
  });

  it("does not correct a search that finds tracks, nor invent a word", async () => {
    expect((await search("night")).correctedQ).toBeNull();
    const none = await search("zzqxjv");
    expect(none).toMatchObject({ total: 0, correctedQ: null });
    // An unpublished track's words are never offered: "Loud Room Demo" was rejected.
    expect(MUSIC_SEED_TRACKS.some((t) => t.title === "Loud Room Demo" && t.status !== "published")).toBe(true);
    expect(await search("loud rooom")).toMatchObject({ total: 0, correctedQ: null });
  });

  it("measures edits as people make them (a swap is one edit)", () => {
    expect(editDistance("nigth", "night", 2)).toBe(1);
    expect(editDistance("aurra", "aurora", 2)).toBe(1);
    expect(editDistance("abcdef", "uvwxyz", 2)).toBe(3);
    expect(
      correctWords(
        ["nigth", "market"],
        [
          { term: "night", docs: 3 },
          { term: "market", docs: 1 },
        ],
      ),
    ).toEqual(["night", "market"]);
    expect(correctWords(["night"], [{ term: "nightly", docs: 1 }])).toBeNull();
    // Short words are not corrected (too many neighbours).
    expect(correctWords(["jaz"], [{ term: "jam", docs: 1 }])).toBeNull();
  });
});

describe("relevance", () => {
  it("an exact title comes before title words and tag matches", async () => {
    // "Sunrise Loop" is a title; Aurora is tagged "sunrise".
    const sunrise = await search("sunrise");
    expect(sunrise.titles[0]).toBe("Sunrise Loop");
    expect(sunrise.titles).toContain("Aurora");
    // "Night Market" exactly beats "Night Drive" and the tracks tagged night.
    expect((await search("night market")).titles[0]).toBe("Night Market");
    expect((await search("night")).titles.slice(0, 2).sort()).toEqual(["Night Drive", "Night Market"]);
    expect((await search("Low Tide")).titles[0]).toBe("Low Tide");
  });
});

describe("similar tracks", () => {
  const byTitle = (title: string) => present(published.find((t) => t.title === title) ?? published[0], `a published track for ${title}`);

  it("lists the tracks sharing the most of genre, mood, tempo (±10 BPM) and artist, never the track itself", async () => {
    const velvet = byTitle("Velvet Room"); // Jazz, Romantic, 88 BPM, Maya Okafor
    const { track, tracks } = await similarTracks(actor, velvet.id);
    expect(track.title).toBe("Velvet Room");
    const titles = tracks.map((t) => t.title);
    expect(titles).not.toContain("Velvet Room");
    // Jazz + 92 BPM, and Romantic + 90 BPM + the same artist: the closest two.
    expect(titles.slice(0, 2).sort()).toEqual(["Moonlit Waltz", "Sunday Stroll"]);
    expect(titles).toContain("Cafe Morning"); // Jazz + the same artist
    // Sharing one trait other than the genre is not similar: Chrome Hearts is only Romantic.
    expect(titles).not.toContain("Chrome Hearts");
    // Only published tracks: the rejected demo is Rock/Energetic like Summit Push's neighbours.
    const rock = await similarTracks(actor, byTitle("Thunder Road Trip").id);
    expect(rock.tracks.map((t) => t.title)).not.toContain("Loud Room Demo");
    expect(rock.tracks.map((t) => t.title)).toContain("Wild Card");
  });

  it("has its page, linked from each library row; an unknown or unpublished track is not found", async () => {
    const velvet = byTitle("Velvet Room");
    const html = await okText(fetchApp(`/music/similar/${velvet.id}`, withCookie(cookie)));
    expect(html).toContain("Similar to “Velvet Room”");
    expect(html).toContain("Sunday Stroll");
    const library = await okText(fetchApp("/music?q=velvet", withCookie(cookie)));
    expect(library).toContain(`href="/music/similar/${velvet.id}"`);
    expect((await fetchApp("/music/similar/no-such-track", withCookie(cookie))).status).toBe(404);
    const rejected = MUSIC_SEED_TRACKS.find((t) => t.status === "rejected");
    expect((await fetchApp(`/music/similar/${rejected?.id}`, withCookie(cookie))).status).toBe(404);
    // Signed out: the sign-in screen, as for /music.
    expect((await fetchApp(`/music/similar/${velvet.id}`)).status).toBe(302);
  });
});

describe("the filter card on small screens", () => {
  it("folds the filters behind a 'Filters' toggle, open from the start when a filter is on", async () => {
    const toggle = (html: string) => /<input id="library-filters-toggle"[^>]*>/.exec(html)?.[0] ?? "";
    const plain = await okText(fetchApp("/music", withCookie(cookie)));
    expect(toggle(plain)).not.toBe("");
    expect(toggle(plain)).not.toContain("checked");
    expect(plain).toContain('for="library-filters-toggle"');
    // The folded fields stay in the form (sent with it), only hidden below md.
    expect(plain).toMatch(/id="library-filters-more" class="[^"]*hidden[^"]*peer-checked:grid[^"]*md:contents/);
    const filtered = await okText(fetchApp("/music?genre=Jazz&bpm_min=80", withCookie(cookie)));
    expect(toggle(filtered)).toContain("checked");
    expect(filtered).toContain("Filters (2 on)");
  });
});
