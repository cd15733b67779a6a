// A first start whose seed is cut off half-way (a dropped local socket on a busy machine, issue 26)
// is completed by the next run: rows, and the R2 objects the seed stores (decision 0191).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS, seedDemoData } from "~/dev/seed.server";
import { MUSIC_SEED_TRACKS } from "~/dev/music-seed";
import { hashPassword } from "~/modules/accounts/accounts.server";

/** The MEDIA bucket, except that the put after `okPuts` successful ones fails as a dropped socket does. */
function droppingAfter(okPuts: number): R2Bucket {
  let puts = 0;
  return new Proxy(env.MEDIA, {
    get(target, prop) {
      if (prop === "put") {
        return (...args: Parameters<R2Bucket["put"]>) => {
          if (++puts > okPuts) return Promise.reject(new TypeError("fetch failed", { cause: new Error("other side closed") }));
          return target.put(...args);
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

async function mediaKeys(): Promise<Set<string>> {
  const keys = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await env.MEDIA.list({ cursor, limit: 1000 });
    for (const o of page.objects) keys.add(o.key);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

describe("an interrupted seed", () => {
  it("leaves no half-written rows, and the next run completes the rows and every object", async () => {
    await expect(seedDemoData({ db: env.DB, media: droppingAfter(12), hashPassword })).rejects.toThrow("fetch failed");
    // The rows go in one batch at the end: none were written.
    expect(await env.DB.prepare("SELECT count(*) AS n FROM users").first("n")).toBe(0);
    const partial = await mediaKeys();
    expect(partial.size).toBe(12);

    const next = await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
    expect(next.usersCreated).toBe(DEMO_ACCOUNTS.length);
    const keys = await mediaKeys();
    for (const t of MUSIC_SEED_TRACKS) {
      expect(keys.has(`music/${t.id}.wav`), t.title).toBe(true);
      expect(keys.has(`music/covers/${t.id}.png`), t.title).toBe(true);
    }
    const sources = await env.DB.prepare("SELECT object_key FROM clip_sources").all<{ object_key: string }>();
    expect(sources.results.length).toBeGreaterThan(0);
    for (const s of sources.results) expect(keys.has(s.object_key), s.object_key).toBe(true);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM music_tracks").first("n")).toBe(MUSIC_SEED_TRACKS.length);

    // And a third run has nothing left to do.
    expect(await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword })).toEqual({ usersCreated: 0, tracksUploaded: 0 });
    expect((await mediaKeys()).size).toBe(keys.size);
  });
});
