// The demo seed's money history (issue 14): the three months before today for the demo creator, on the
// payout calendar (paid, finalized for the next payout day, estimated), idempotent, shown on /payments and /analytics.
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { paymentsSeed } from "~/dev/payments-seed";
import { DEMO_ACCOUNTS, seedDemoData } from "~/dev/seed.server";
import { hashPassword } from "~/modules/accounts/accounts.server";
import { addMonths, dayOf, formatPayoutDay, monthLabel, monthOf, nextPayoutDate, payoutDateIn } from "~/modules/payments/calendar";
import { runPayoutDay } from "~/modules/payments/payments.server";
import { signInAs } from "../../factories/users";
import { count, fetchApp, withCookie } from "../helpers";

/** The id of the seed's demo account of a kind, or "" when there is none. */
const demoId = (kind: (typeof DEMO_ACCOUNTS)[number]["kind"]) => DEMO_ACCOUNTS.find((a) => a.kind === kind)?.id ?? "";

it("seeds the three months before today: paid by the latest payout run, finalized for the next one, estimated; once however often it runs", async () => {
  const now = new Date();
  await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
  await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
  // The expected calendar, from today and the payout-day rule (18th, Monday from a weekend).
  const today = dayOf(now);
  const thisMonth = monthOf(now);
  const [paidMonth, finalizedMonth, estimatedMonth] = [addMonths(thisMonth, -3), addMonths(thisMonth, -2), addMonths(thisMonth, -1)];
  const runMonth = payoutDateIn(thisMonth, 18) < today ? thisMonth : addMonths(thisMonth, -1);
  const runDate = payoutDateIn(runMonth, 18);
  const creator = DEMO_ACCOUNTS.find((a) => a.kind === "creator");
  expect(creator).toBeDefined();
  const creatorId = creator?.id ?? "";
  const entries = await env.DB.prepare(
    "SELECT month, status, payout_id, amount_cents FROM ledger_entries WHERE user_id = ? AND source_kind = 'music' ORDER BY month",
  )
    .bind(creatorId)
    .all();
  expect(entries.results.map((e) => [e.month, e.status, e.payout_id === null])).toEqual([
    [paidMonth, "paid", false],
    [finalizedMonth, "finalized", true],
    [estimatedMonth, "estimated", true],
  ]);
  const payouts = await env.DB.prepare("SELECT batch, payout_date, status, reference, paid_at, amount_cents FROM payouts WHERE user_id = ?")
    .bind(creatorId)
    .all();
  expect(payouts.results).toEqual([
    {
      batch: runMonth,
      payout_date: runDate,
      status: "paid",
      reference: `SB-PAY-${runMonth}-1`,
      paid_at: expect.stringMatching(new RegExp(`^${runDate}T`)),
      amount_cents: 12839,
    },
  ]);
  // The paid month was finalized before the run, the finalized one after it; nothing seeded lies in the future.
  const months = await env.DB.prepare("SELECT month, finalized_at FROM revenue_months ORDER BY month").all();
  expect(months.results).toEqual([
    { month: paidMonth, finalized_at: expect.any(String) },
    { month: finalizedMonth, finalized_at: expect.any(String) },
    { month: estimatedMonth, finalized_at: null },
  ]);
  expect(String(months.results[0]?.finalized_at) < runDate).toBe(true);
  expect(String(months.results[1]?.finalized_at) > `${runDate}T23:59:59`).toBe(true);
  const latest = await count(
    `SELECT (SELECT count(*) FROM revenue_imports WHERE created_at > ?1 OR went_live_at > ?1)
      + (SELECT count(*) FROM revenue_months WHERE funds_received_at > ?1 OR finalized_at > ?1)
      + (SELECT count(*) FROM payouts WHERE created_at > ?1 OR paid_at > ?1)
      + (SELECT count(*) FROM ledger_entries WHERE created_at > ?1) AS n`,
    new Date().toISOString(),
  );
  expect(latest).toBe(0);

  const { cookie } = await signInAs(creatorId);
  const html = (await (await fetchApp(`/payments?month=${paidMonth}`, withCookie(cookie))).text()).replaceAll("<!-- -->", "");
  expect(html).toContain(`Statement: ${monthLabel(paidMonth)}`);
  expect(html).toContain("$183.42"); // net
  expect(html).toContain("$128.39"); // floor(18342 × 0.7) = 12839
  expect(html).toContain(`SB-PAY-${runMonth}-1`);
  expect(html).toContain(formatPayoutDay(runDate));
  // The next payout holds the finalized month: floor(24517 × 0.7) = 17161.
  expect(html).toContain(formatPayoutDay(nextPayoutDate(now, 18)));
  expect(html).toContain("Expected $171.61");
  const analytics = (await (await fetchApp("/analytics", withCookie(cookie))).text()).replaceAll("<!-- -->", "");
  expect(analytics).not.toContain("No earnings in the last 12 months yet.");
  for (const m of [paidMonth, finalizedMonth, estimatedMonth]) expect(analytics).toContain(monthLabel(m));

  // The payout-day rule agrees: the latest run is done (nothing more to gather), the next one pays the finalized month.
  expect((await runPayoutDay(new Date(`${runDate}T12:00:00.000Z`))).payouts).toBe(0);
  const next = nextPayoutDate(now, 18);
  // The demo creator has no payout account yet (the journeys set one up): paid outside Stripe here.
  await env.DB.prepare("INSERT INTO payout_accounts (user_id, method, manual_reason) VALUES (?, 'manual', 'test')").bind(creatorId).run();
  const run = await runPayoutDay(new Date(`${next}T04:00:00.000Z`));
  expect(run.batch).toBe(next.slice(0, 7));
  expect(
    await count("SELECT count(*) AS n FROM payouts WHERE user_id = ? AND batch = ? AND status = 'pending' AND amount_cents = 17161", creatorId, run.batch),
  ).toBe(1);
}, 120_000);

it("a later run of the seed, in another month, adds nothing and keeps each month with its own import", async () => {
  await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
  const [admin, creator, clipper] = [demoId("admin"), demoId("creator"), demoId("clipper")];
  const before = await count("SELECT count(*) AS n FROM revenue_months");
  const later = new Date(Date.now() + 40 * 86_400_000);
  await env.DB.batch(
    paymentsSeed({
      db: env.DB,
      adminId: admin,
      creator: { userId: creator, sourceId: "UCdemoCaseyCreates0001", net: [1, 2, 3] },
      clip: { id: "00000000-0000-4000-8000-000000006101", url: "https://x.test/c", creatorUserId: creator, clipperUserId: clipper, clipperName: "C", net: 10 },
      now: later,
    }),
  );
  expect(await count("SELECT count(*) AS n FROM revenue_months")).toBe(before);
  expect(await count("SELECT count(*) AS n FROM revenue_months m JOIN revenue_imports i ON i.id = m.live_import_id WHERE i.month <> m.month")).toBe(0);
  expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE user_id = ?", creator)).toBe(4);
  expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE user_id = ?", clipper)).toBe(1);
}, 120_000);

it("seeds an agreement notice and an open revised-share offer on demo accounts the browser journeys leave alone: shown on /payments and /admin/payments", async () => {
  await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
  await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
  const [admin, manager, partner] = [demoId("admin"), demoId("agency"), demoId("partner")];
  expect(await count("SELECT count(*) AS n FROM payment_agreements WHERE user_id = ? AND status = 'notice'", manager)).toBe(1);
  expect(await count("SELECT count(*) AS n FROM share_offers WHERE user_id = ? AND status = 'offered'", partner)).toBe(1);
  const asManager = (await (await fetchApp("/payments", withCookie((await signInAs(manager)).cookie))).text()).replaceAll("<!-- -->", "");
  expect(asManager).toContain("You gave notice to end the agreement.");
  expect(asManager).toContain("Withdraw notice");
  const asPartner = (await (await fetchApp("/payments", withCookie((await signInAs(partner)).cookie))).text()).replaceAll("<!-- -->", "");
  expect(asPartner).toContain("Revised share offered: 75%");
  const asAdmin = (await (await fetchApp("/admin/payments", withCookie((await signInAs(admin)).cookie))).text()).replaceAll("<!-- -->", "");
  expect(asAdmin).toContain("Notice given");
  expect(asAdmin).toContain("Open offer: 75%");
}, 120_000);

it("the demo clipper's money is their part of their approved clip: /payments names the clip and the creator, /clipping shows it per clip (decision 0321)", async () => {
  await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
  const [creator, clipper] = [demoId("creator"), demoId("clipper")];
  const lastMonth = addMonths(monthOf(new Date()), -1);
  // Nothing for someone with no channel is called a music share.
  expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE user_id = ? AND source_kind = 'music'", clipper)).toBe(0);
  const asClipper = (await signInAs(clipper)).cookie;
  const payments = (await (await fetchApp("/payments", withCookie(asClipper))).text()).replaceAll("<!-- -->", "");
  expect(payments).toContain(`Statement: ${monthLabel(lastMonth)}`);
  expect(payments).toContain("Your part of clip https://www.youtube.com/shorts/DemoClip001 for Casey Creator (the creator)");
  expect(payments).not.toContain("Music share");
  expect(payments).not.toContain("all channels");
  expect(payments).toContain("$20.25"); // 70% of the creator's 70% of $41.35: floor(floor(4135 × 0.7) × 0.7)
  const clipping = (await (await fetchApp("/clipping", withCookie(asClipper))).text()).replaceAll("<!-- -->", "");
  expect(clipping).toContain("$20.25");
  expect(clipping).toContain(monthLabel(lastMonth)); // the clip's imported month, with its status
  // The creator's side names the clipper.
  const asCreator = (await signInAs(creator)).cookie;
  const mine = (await (await fetchApp(`/payments?month=${lastMonth}`, withCookie(asCreator))).text()).replaceAll("<!-- -->", "");
  expect(mine).toContain("Your part of clip https://www.youtube.com/shorts/DemoClip001 by Charlie Clipper (your clipper)");
  expect(mine).toContain("Music on your channel Casey Creates");
}, 120_000);
