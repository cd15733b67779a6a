// The demo seed's money history (issue 14): three months for the demo creator, idempotent, shown on /payments.
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { DEMO_ACCOUNTS, seedDemoData } from "~/dev/seed.server";
import { hashPassword } from "~/modules/accounts/accounts.server";
import { signInAs } from "../../factories/users";
import { count, fetchApp, withCookie } from "../helpers";

it("seeds three months, a paid and a pending payout, once however often it runs", async () => {
  await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
  await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
  const creator = DEMO_ACCOUNTS.find((a) => a.kind === "creator");
  expect(creator).toBeDefined();
  expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE user_id = ?", creator?.id)).toBe(3);
  expect(await count("SELECT count(*) AS n FROM payouts WHERE user_id = ?", creator?.id)).toBe(2);
  const { cookie } = await signInAs(creator?.id ?? "");
  const html = await (await fetchApp("/payments?month=2025-09", withCookie(cookie))).text();
  expect(html).toContain("Statement: September 2025");
  expect(html).toContain("$183.42"); // net
  expect(html).toContain("$128.39"); // floor(18342 × 0.7) = 12839
  expect(html).toContain("SB-PAY-2025-10-1");
}, 120_000);
