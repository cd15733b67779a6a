// The demo seed's campaigns (issue 15): a live one with a submission in each state, an ended one and a draft, once however often it runs.
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { CAMPAIGN_SEED_IDS } from "~/dev/campaigns-seed";
import { DEMO_ACCOUNTS, seedDemoData } from "~/dev/seed.server";
import { hashPassword } from "~/modules/accounts/accounts.server";
import { signInAs } from "../../factories/users";
import { count, fetchApp, withCookie } from "../helpers";

it("seeds a live campaign with pending, approved and rejected submissions, an ended one and a draft", async () => {
  await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
  await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
  expect(await count("SELECT count(*) AS n FROM campaigns")).toBe(3);
  expect(await count("SELECT count(DISTINCT status) AS n FROM campaign_submissions WHERE campaign_id = ?", CAMPAIGN_SEED_IDS.live)).toBe(3);
  const creator = DEMO_ACCOUNTS.find((a) => a.kind === "creator");
  const { cookie } = await signInAs(creator?.id ?? "");
  const html = await (await fetchApp("/campaigns", withCookie(cookie))).text();
  for (const text of ["Summer Launch", "Pending review", "Approved", "Rejected", "$30.86", "Autumn Glow", "Sunrise Loop"]) expect(html).toContain(text);
  expect(html).not.toContain("Winter Beats");
  expect((await fetchApp("/campaigns/summer-launch")).status).toBe(200);
  expect((await fetchApp("/campaigns/autumn-glow")).status).toBe(200);
  expect((await fetchApp("/campaigns/winter-beats")).status).toBe(404);
}, 180_000);
