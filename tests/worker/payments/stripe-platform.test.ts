// Issue 41 §4 (Stripe): the platform's country decides who can be paid and under which service
// agreement (docs/decisions/0306); the SDK client is pinned to the package's API version; a transfer
// refused for the platform's own balance holds the payout and alerts the admins instead of failing
// it; a payout whose webhook never came is settled by the daily job (0307); the stand-in's onboarding
// asks for the country's own bank details.
import { env } from "cloudflare:workers";
import Stripe from "stripe";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { pauseWebhooks, refuseNextTransfer, reverseTransfer, standInState } from "~/dev/dev-stripe.server";
import { runPayoutDay } from "~/modules/payments/payments.server";
import { STRIPE_API_VERSION, stripeClient } from "~/platform/stripe.server";
import { createUser, type TestUser } from "../../factories/users";
import { bellCount, count, fetchApp, ORIGIN, outcome, postForm, redirectTarget, withCookie } from "../helpers";
import { onboard, onPayments } from "./stripe-helpers";
import { present } from "../../helpers/present";

const HEADER = "month,channel_id,creator_id,video_id,net_revenue,currency";
const vars = env as unknown as Record<string, string | undefined>;
let admin: TestUser;

beforeAll(async () => {
  admin = await createUser("admin");
  await fetchApp("/auth");
}, 180_000);

afterEach(async () => {
  vars.STRIPE_PLATFORM_COUNTRY = "US";
  await pauseWebhooks(false);
  await refuseNextTransfer(false);
});

const asAdmin = (fields: Record<string, string>) => postForm("/admin/payments", fields, withCookie(admin.cookie));
const payoutsOf = (userId: string) =>
  env.DB.prepare("SELECT * FROM payouts WHERE user_id = ? ORDER BY created_at").bind(userId).all<Record<string, string | number | null>>();
const standInAccountOf = async (userId: string) => (await standInState()).accounts.find((a) => a.metadata.user_id === userId);

async function creatorWithChannel(): Promise<TestUser & { channelId: string }> {
  const user = await createUser("creator");
  const channelId = `UCpl${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
  await env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Platform Channel')")
    .bind(crypto.randomUUID(), user.id, channelId)
    .run();
  return { ...user, channelId };
}

/** Imports a month (a past one), marks its funds received and finalizes it. */
async function payableMonth(month: string, rows: string) {
  const form = new FormData();
  form.set("intent", "preview");
  form.set("month", month);
  form.set("file", new File([`${HEADER}\n${rows}`], "r.csv", { type: "text/csv" }));
  expect((await fetchApp("/admin/payments", { method: "POST", headers: { Origin: ORIGIN, Cookie: admin.cookie }, body: form })).status).toBe(200);
  const staged = await env.DB.prepare("SELECT id FROM revenue_imports WHERE month = ? AND status = 'staged' ORDER BY created_at DESC LIMIT 1")
    .bind(month)
    .first<{ id: string }>();
  expect(await outcome(await asAdmin({ intent: "commit", importId: staged?.id ?? "", replaces: "" }))).toBe("→/admin/payments");
  expect(await outcome(await asAdmin({ intent: "funds_received", month }))).toBe("→/admin/payments");
  expect(await outcome(await asAdmin({ intent: "finalize", month }))).toBe("→/admin/payments");
}

describe("the platform's country (0306)", () => {
  it("a UK platform offers only the countries Stripe lets it pay, and refuses Australia", async () => {
    vars.STRIPE_PLATFORM_COUNTRY = "GB";
    const c = await createUser("creator");
    const html = await (await fetchApp("/payments", withCookie(c.cookie))).text();
    for (const offered of ["United Kingdom", "United States", "Canada", "Switzerland", "Germany", "Ireland", "Norway"]) expect(html).toContain(offered);
    for (const notOffered of ["Australia", "New Zealand", "Japan", "Singapore", "Hong Kong", "Mexico", "Brazil"]) expect(html).not.toContain(notOffered);
    const refused = await onPayments(c, { intent: "connect_payouts", country: "AU" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Choose the country of your bank account.");
    expect(await standInAccountOf(c.id)).toBeUndefined();
  });

  it("a platform outside the cross-border region offers only its own country", async () => {
    vars.STRIPE_PLATFORM_COUNTRY = "AU";
    const c = await createUser("creator");
    expect((await onPayments(c, { intent: "connect_payouts", country: "US" })).status).toBe(400);
    expect(await redirectTarget(await onPayments(c, { intent: "connect_payouts", country: "AU" }))).toMatch(/^\/dev\/stripe\/onboarding\/link_/);
    expect(await standInAccountOf(c.id)).toMatchObject({ country: "AU", tos_acceptance: { service_agreement: "full" } });
  });

  it("opens an account under the recipient agreement exactly when it is cross-border (https://docs.stripe.com/connect/service-agreement-types)", async () => {
    const cases: [platform: string, person: string, agreement: "full" | "recipient"][] = [
      ["GB", "GB", "full"],
      ["GB", "US", "recipient"],
      ["US", "US", "full"],
      ["US", "DE", "recipient"],
    ];
    for (const [platform, person, agreement] of cases) {
      vars.STRIPE_PLATFORM_COUNTRY = platform;
      const c = await createUser("creator");
      expect(await redirectTarget(await onPayments(c, { intent: "connect_payouts", country: person }))).toMatch(/^\/dev\/stripe\/onboarding\/link_/);
      expect(await standInAccountOf(c.id), `${platform} platform, ${person} person`).toMatchObject({
        country: person,
        tos_acceptance: { service_agreement: agreement },
      });
    }
  });
});

describe("the Stripe client", () => {
  it("is constructed with the API version the installed SDK pins, explicitly", async () => {
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
    const client = await stripeClient(ORIGIN);
    expect(client.getApiField("version")).toBe(STRIPE_API_VERSION);
  });
});

describe("the stand-in's onboarding", () => {
  it("asks for the account's own country's bank details: a UK sort code, an EEA IBAN, a US routing number", async () => {
    vars.STRIPE_PLATFORM_COUNTRY = "GB";
    const pageFor = async (country: string) => {
      const c = await createUser("creator");
      const link = await redirectTarget(await onPayments(c, { intent: "connect_payouts", country }));
      expect(link).toMatch(/^\/dev\/stripe\/onboarding\/link_/);
      return (await fetchApp(link ?? "")).text();
    };
    const gb = await pageFor("GB");
    expect(gb).toContain("Sort code");
    expect(gb).toContain("Account number");
    expect(gb).not.toContain("Routing number");
    const de = await pageFor("DE");
    expect(de).toContain("IBAN");
    expect(de).not.toContain("Routing number");
    expect(await pageFor("US")).toContain("Routing number");
  });
});

describe("a transfer refused for the platform's balance (0307)", () => {
  it("holds the payout (pending, with the reason), alerts the admins once and tells the creator nothing; the next run with funds pays it", async () => {
    const c = await creatorWithChannel();
    await onboard(c);
    await payableMonth("2024-01", `2024-01,${c.channelId},,,100.00,USD\n`);
    await refuseNextTransfer(true, "balance_insufficient");
    const run = await runPayoutDay(new Date("2024-02-19T04:00:00Z"));
    expect(run.transfers).toMatchObject({ held: 1, failed: 0, sent: 0 });
    const p = present((await payoutsOf(c.id)).results[0], "the payout");
    expect(p).toMatchObject({ status: "pending", failure_reason: null, failed_at: null, stripe_transfer_id: null });
    expect(String(p.held_reason)).toContain("platform's Stripe balance is too low");
    // The creator: no failure, no e-mail, no bell, nothing back "in the balance".
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'payout_failed'", c.email)).toBe(0);
    expect(await bellCount(c.id, "n.kind = 'payout_failed'")).toBe(0);
    const mine = await (await fetchApp("/payments", withCookie(c.cookie))).text();
    expect(mine).not.toContain("Back in your balance");
    expect(mine).not.toContain("insufficient");
    // The admins: one critical audit row, one bell each, the reason on the admin page.
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'payout_held_balance_insufficient' AND severity = 'critical'")).toBe(1);
    expect(await bellCount(admin.id, "n.kind = 'payout_held'")).toBe(1);
    expect(await (await fetchApp("/admin/payments", withCookie(admin.cookie))).text()).toContain("platform&#x27;s Stripe balance is too low");

    // Still short the next day: still held, no second alert.
    await refuseNextTransfer(true, "balance_insufficient");
    expect((await runPayoutDay(new Date("2024-02-20T04:00:00Z"))).transfers).toMatchObject({ held: 1, failed: 0 });
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'payout_held_balance_insufficient'")).toBe(1);
    expect(await bellCount(admin.id, "n.kind = 'payout_held'")).toBe(1);

    // Topped up: the next daily run sends it, and it is paid.
    expect((await runPayoutDay(new Date("2024-02-21T04:00:00Z"))).transfers?.sent).toBe(1);
    await vi.waitFor(async () => expect((await payoutsOf(c.id)).results[0]?.status).toBe("paid"), { timeout: 10_000 });
    expect((await payoutsOf(c.id)).results[0]).toMatchObject({ held_reason: null, held_at: null, failure_reason: null });
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'payout_paid'", c.email)).toBe(1);
  });
});

describe("a payout whose webhook never came (0307)", () => {
  it("is marked paid by the daily job once it is over an hour old and its transfer exists, not reversed", async () => {
    const c = await creatorWithChannel();
    await onboard(c);
    await payableMonth("2024-03", `2024-03,${c.channelId},,,100.00,USD\n`);
    await pauseWebhooks(true);
    expect((await runPayoutDay(new Date("2024-04-18T04:00:00Z"))).transfers?.sent).toBe(1);
    const sent = present((await payoutsOf(c.id)).results[0], "the payout");
    expect(sent).toMatchObject({ status: "processing" });
    expect(sent.stripe_transfer_id).toMatch(/^tr_/);
    // Within the hour the job waits for the webhook.
    expect((await runPayoutDay(new Date("2024-04-18T04:30:00Z"))).transfers?.reconciled).toBe(0);
    expect((await payoutsOf(c.id)).results[0]?.status).toBe("processing");
    // After it, Stripe is asked.
    expect((await runPayoutDay(new Date("2024-04-18T06:00:00Z"))).transfers?.reconciled).toBe(1);
    expect((await payoutsOf(c.id)).results[0]).toMatchObject({ status: "paid", reference: sent.stripe_transfer_id });
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE payout_id = ? AND status = 'paid'", sent.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'payout_paid'", c.email)).toBe(1);
    expect(await bellCount(c.id, "n.kind = 'payout_paid'")).toBe(1);
    // Nothing more on the next run.
    expect((await runPayoutDay(new Date("2024-04-19T06:00:00Z"))).transfers?.reconciled).toBe(0);
  });

  it("is failed by the daily job, as transfer.reversed would, when its transfer was reversed", async () => {
    const c = await creatorWithChannel();
    await onboard(c);
    await payableMonth("2024-05", `2024-05,${c.channelId},,,20.00,USD\n`);
    await pauseWebhooks(true);
    await runPayoutDay(new Date("2024-06-18T04:00:00Z"));
    const sent = present((await payoutsOf(c.id)).results[0], "the payout");
    expect(sent).toMatchObject({ status: "processing" });
    await reverseTransfer(String(sent.stripe_transfer_id), new Request(ORIGIN));
    expect((await runPayoutDay(new Date("2024-06-18T06:00:00Z"))).transfers?.reconciled).toBe(1);
    expect((await payoutsOf(c.id)).results[0]).toMatchObject({ status: "failed", failure_reason: "The transfer was reversed in Stripe" });
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE user_id = ? AND status = 'finalized' AND payout_id IS NULL", c.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'payout_failed'", c.email)).toBe(1);
  });
});
