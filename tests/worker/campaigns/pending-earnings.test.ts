// /payments is where a person looks for all their money (issue 42 §1, decision 0321): campaign
// earnings approved but not settled show under "Pending — not yet in your balance", by campaign,
// with the latest payout day of the terms (60 days after the end); settling moves them out.
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { CAMPAIGN_SEED_IDS } from "~/dev/campaigns-seed";
import { DEMO_ACCOUNTS, seedDemoData } from "~/dev/seed.server";
import { hashPassword } from "~/modules/accounts/accounts.server";
import { payoutDeadline } from "~/modules/campaigns/rules";
import { formatPayoutDay } from "~/modules/payments/calendar";
import { signInAs } from "../../factories/users";
import { fetchApp, withCookie } from "../helpers";

/** The id of the seed's demo account of a kind, or "" when there is none. */
const demoId = (kind: (typeof DEMO_ACCOUNTS)[number]["kind"]) => DEMO_ACCOUNTS.find((a) => a.kind === kind)?.id ?? "";

const pendingSection = (html: string) => {
  const at = html.indexOf("Pending — not yet in your balance");
  return at < 0 ? "" : html.slice(at, html.indexOf("</section>", at));
};

it("the demo creator's campaign earnings are on /payments before settling, each with its payout deadline; a settled one leaves the section", async () => {
  await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
  const [creator, clipper] = [demoId("creator"), demoId("clipper")];
  const { cookie } = await signInAs(creator);
  const campaign = (id: string) =>
    env.DB.prepare("SELECT ends_at AS endsAt, ended_at AS endedAt FROM campaigns WHERE id = ?").bind(id).first<{ endsAt: string; endedAt: string | null }>();
  const [live, ended] = await Promise.all([campaign(CAMPAIGN_SEED_IDS.live), campaign(CAMPAIGN_SEED_IDS.ended)]);

  const html = (await (await fetchApp("/payments", withCookie(cookie))).text()).replaceAll("<!-- -->", "");
  const pending = pendingSection(html);
  expect(pending).not.toBe("");
  expect(pending).toContain("$46.46 earned in campaigns that are not settled yet");
  expect(pending).toContain("Campaign: Fizz Cola — Summer Launch");
  expect(pending).toContain("$30.86");
  expect(pending).toContain("$15.60");
  expect(pending).toContain(`By ${formatPayoutDay(payoutDeadline(live ?? { endsAt: "", endedAt: null }))} at the latest`);
  expect(pending).toContain(`By ${formatPayoutDay(payoutDeadline(ended ?? { endsAt: "", endedAt: null }))} at the latest`);

  // Settled: its amount is in the statement now, not pending.
  await env.DB.prepare("UPDATE campaigns SET status = 'settled', settled_at = ? WHERE id = ?").bind(new Date().toISOString(), CAMPAIGN_SEED_IDS.ended).run();
  const after = pendingSection((await (await fetchApp("/payments", withCookie(cookie))).text()).replaceAll("<!-- -->", ""));
  expect(after).toContain("$30.86");
  expect(after).not.toContain("$15.60");

  // Someone with no campaign earnings sees no such section.
  const asClipper = (await (await fetchApp("/payments", withCookie((await signInAs(clipper)).cookie))).text()).replaceAll("<!-- -->", "");
  expect(pendingSection(asClipper)).toBe("");
}, 180_000);
