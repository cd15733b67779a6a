// Demo tracks of several lengths (issue 42 §5): every demo track was a 12–30 s loop, so the Length
// filter "from 0:30" found nothing. Four last 0:48–2:20; a database an earlier seed filled gets them
// on its next run. app/dev/music-seed.ts LONG_TRACKS.
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { DEMO_ACCOUNTS, seedDemoData } from "~/dev/seed.server";
import { MUSIC_SEED_TRACKS } from "~/dev/music-seed";
import { hashPassword } from "~/modules/accounts/accounts.server";
import { signInAs } from "../../factories/users";
import { fetchApp, withCookie } from "../helpers";

const LONG = ["Victory Lap", "Ocean Drift", "Deep Focus", "Epic Reveal"];
const lengthOf = async (title: string) =>
  env.DB.prepare("SELECT duration_seconds AS s, audio_size AS size FROM music_tracks WHERE title = ?").bind(title).first<{ s: number; size: number }>();

it("seeds four tracks of 0:45–2:30 that 'Length from 0:30' finds, and lengthens them in a database seeded before", async () => {
  await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
  const lengths = Object.fromEntries(await Promise.all(LONG.map(async (t) => [t, (await lengthOf(t))?.s])));
  expect(lengths["Victory Lap"]).toBeGreaterThanOrEqual(45);
  expect(lengths["Epic Reveal"]).toBeGreaterThanOrEqual(120);
  for (const t of LONG) expect(lengths[t], t).toBeLessThanOrEqual(150);

  const creatorId = DEMO_ACCOUNTS.find((a) => a.kind === "creator")?.id ?? "";
  const { cookie } = await signInAs(creatorId);
  const html = await (await fetchApp("/music?dur_min=30", withCookie(cookie))).text();
  for (const t of LONG) expect(html, t).toContain(t);
  expect(html).not.toContain("Sunrise Loop");

  // A database seeded when Deep Focus was a short loop: the next run makes it long, file and row.
  const deepFocus = MUSIC_SEED_TRACKS.find((t) => t.title === "Deep Focus");
  await env.DB.prepare("UPDATE music_tracks SET duration_seconds = 20, audio_size = 640044 WHERE id = ?").bind(deepFocus?.id).run();
  await env.MEDIA.put(`music/${deepFocus?.id}.wav`, new Uint8Array(640_044));
  await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
  const after = await lengthOf("Deep Focus");
  expect(after?.s).toBe(lengths["Deep Focus"]);
  const object = await env.MEDIA.head(`music/${deepFocus?.id}.wav`);
  expect(object?.size).toBe(after?.size);
  expect(after?.size).toBeGreaterThan(100 * 32_000);
}, 300_000);
