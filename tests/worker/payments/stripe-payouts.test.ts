// Payouts through Stripe Connect Express (issue 29), offline against the built-in stand-in through
// the same code as production: onboarding from /payments (return and refresh), the payout day's
// transfers with an idempotency key per payout, signed webhooks stored once (unsigned, forged, stale
// and replayed ones change nothing), paid and failed payouts (a failure returns the amount to the
// balance and tells the person), the minimum, people paid outside Stripe, adjustments, and a
// deployment without the Stripe secrets.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { reverseTransfer, refuseNextTransfer, signPayload } from "~/dev/dev-stripe.server";
import { runPayoutDay } from "~/modules/payments/payments.server";
import { clearSettingsCache } from "~/platform/settings.server";
import { createUser, type TestUser } from "../../factories/users";
import { bellCount, count, fetchApp, ORIGIN, outcome, postForm, redirectTarget, withCookie } from "../helpers";
import { present } from "../../helpers/present";

const HEADER = "month,channel_id,creator_id,video_id,net_revenue,currency";
let admin: TestUser;

beforeAll(async () => {
  admin = await createUser("admin");
  await fetchApp("/auth");
}, 180_000);

const asAdmin = (fields: Record<string, string>) => postForm("/admin/payments", fields, withCookie(admin.cookie));
const onPayments = (user: TestUser, fields: Record<string, string>) => postForm("/payments", fields, withCookie(user.cookie));

async function creatorWithChannel(): Promise<TestUser & { channelId: string }> {
  const user = await createUser("creator");
  const channelId = `UCsp${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
  await env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Stripe Channel')")
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
  const res = await fetchApp("/admin/payments", { method: "POST", headers: { Origin: ORIGIN, Cookie: admin.cookie }, body: form });
  expect(res.status).toBe(200);
  const staged = await env.DB.prepare("SELECT id FROM revenue_imports WHERE month = ? AND status = 'staged' ORDER BY created_at DESC LIMIT 1")
    .bind(month)
    .first<{ id: string }>();
  const live = await env.DB.prepare("SELECT live_import_id FROM revenue_months WHERE month = ?").bind(month).first<{ live_import_id: string }>();
  expect(await outcome(await asAdmin({ intent: "commit", importId: staged?.id ?? "", replaces: live?.live_import_id ?? "" }))).toBe("→/admin/payments");
  expect(await outcome(await asAdmin({ intent: "funds_received", month }))).toBe("→/admin/payments");
  expect(await outcome(await asAdmin({ intent: "finalize", month }))).toBe("→/admin/payments");
}

const accountOf = (userId: string) =>
  env.DB.prepare("SELECT method, stripe_account_id, status, status_reason FROM payout_accounts WHERE user_id = ?")
    .bind(userId)
    .first<{ method: string; stripe_account_id: string | null; status: string | null; status_reason: string | null }>();
const payoutsOf = (userId: string) =>
  env.DB.prepare("SELECT * FROM payouts WHERE user_id = ? ORDER BY created_at").bind(userId).all<Record<string, string | number | null>>();

/** The whole onboarding, as the person does it: Set up payouts → Stripe's page → Complete → back to /payments. */
async function onboard(user: TestUser, outcomeAtStripe = "complete"): Promise<string> {
  const start = await onPayments(user, { intent: "connect_payouts", country: "US" });
  const link = await redirectTarget(start);
  expect(link).toMatch(/^\/dev\/stripe\/onboarding\/link_/);
  const page = await fetchApp(link ?? "");
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("Get paid by Shortbeat");
  const done = await postForm(link ?? "", { outcome: outcomeAtStripe });
  expect(await redirectTarget(done)).toBe("/payments/payout-account/return");
  const back = await fetchApp("/payments/payout-account/return", withCookie(user.cookie));
  expect(await redirectTarget(back)).toBe("/payments");
  return (await accountOf(user.id))?.stripe_account_id ?? "";
}

/** A webhook as Stripe sends it: signed with the endpoint's secret (or not). */
async function webhook(event: Record<string, unknown>, opts: { sign?: boolean; t?: number; secret?: string } = {}) {
  const payload = JSON.stringify({ object: "event", api_version: "2026-10-28.endive", livemode: false, pending_webhooks: 1, request: { id: null }, ...event });
  const headers = new Headers({ "Content-Type": "application/json" });
  if (opts.sign !== false) headers.set("Stripe-Signature", await signPayload(payload, opts.secret ?? env.STRIPE_WEBHOOK_SECRET, opts.t));
  return fetchApp("/api/stripe/webhook", { method: "POST", headers, body: payload });
}

describe("setting up a payout account from /payments", () => {
  it("offers the set-up, creates one Express account even for two clicks, and shows Stripe's status after the return", async () => {
    const c = await createUser("creator");
    const html = await (await fetchApp("/payments", withCookie(c.cookie))).text();
    expect(html).toContain("Payout method");
    expect(html).toContain("Set up payouts");
    expect(html).toContain("Country of your bank account");

    const both = await Promise.all([onPayments(c, { intent: "connect_payouts", country: "US" }), onPayments(c, { intent: "connect_payouts", country: "US" })]);
    for (const r of both) expect(await redirectTarget(r)).toMatch(/^\/dev\/stripe\/onboarding\/link_/);
    const row = await accountOf(c.id);
    expect(row).toMatchObject({ method: "stripe", status: "needs_information" });
    expect(row?.stripe_account_id).toMatch(/^acct_/);
    expect(await count("SELECT count(*) AS n FROM payout_accounts WHERE user_id = ?", c.id)).toBe(1);
    expect((await fetchApp("/payments", withCookie(c.cookie)).then((r) => r.text())).includes("Needs information")).toBe(true);

    // A used link goes to the refresh URL, which offers a new one.
    const link = (await redirectTarget(both[0])) ?? "";
    expect(await redirectTarget(await postForm(link, { outcome: "incomplete" }))).toBe("/payments/payout-account/return");
    expect(await redirectTarget(await fetchApp(link))).toBe("/payments/payout-account/refresh");
    expect(await redirectTarget(await fetchApp("/payments/payout-account/refresh", withCookie(c.cookie)))).toBe("/payments");

    // Completed at Stripe: enabled (read from Stripe on the return, and by the account.updated webhook).
    const accountId = await onboard(c);
    expect(accountId).toBe(row?.stripe_account_id);
    expect(await accountOf(c.id)).toMatchObject({ status: "enabled" });
    const after = await (await fetchApp("/payments", withCookie(c.cookie))).text();
    expect(after).toContain("Enabled");
    expect(after).toContain("Open your Stripe dashboard");
    await vi.waitFor(
      async () => expect(await count("SELECT count(*) AS n FROM stripe_events WHERE type = 'account.updated' AND account = ?", accountId)).toBeGreaterThan(0),
      {
        timeout: 10_000,
      },
    );
  });

  it("shows a restricted account and why, and is for the person only", async () => {
    const c = await createUser("creator");
    await onboard(c, "restricted");
    expect(await accountOf(c.id)).toMatchObject({ status: "restricted", status_reason: "Stripe needs more information before it can pay you." });
    const html = await (await fetchApp("/payments", withCookie(c.cookie))).text();
    expect(html).toContain("Restricted");
    expect(html).toContain("Update your details with Stripe");
    const pending = await createUser("pending");
    expect(await outcome(await onPayments(pending, { intent: "connect_payouts", country: "US" }))).not.toMatch(/onboarding/);
    expect(await count("SELECT count(*) AS n FROM payout_accounts WHERE user_id = ?", pending.id)).toBe(0);
  });
});

describe("the payout day through Stripe", () => {
  it("sends one transfer per payout with its idempotency key; the signed webhook marks it paid, once; the person is told", async () => {
    const c = await creatorWithChannel();
    const accountId = await onboard(c);
    await payableMonth("2024-01", `2024-01,${c.channelId},,,100.00,USD\n`);
    // 2024-02-19 is a Monday (the 18th is a Sunday).
    const [a, b] = await Promise.all([runPayoutDay(new Date("2024-02-19T04:00:00Z")), runPayoutDay(new Date("2024-02-19T04:00:00Z"))]);
    expect(a.batch).toBe("2024-02");
    expect((a.transfers?.sent ?? 0) + (b.transfers?.sent ?? 0)).toBe(1);
    const p = present((await payoutsOf(c.id)).results[0], "the payout");
    expect(p).toMatchObject({ method: "stripe", stripe_account_id: accountId, amount_cents: 7000 });
    expect(p.stripe_transfer_id).toMatch(/^tr_/);
    await vi.waitFor(async () => expect((await payoutsOf(c.id)).results[0]?.status).toBe("paid"), { timeout: 10_000 });
    const paid = present((await payoutsOf(c.id)).results[0], "the paid payout");
    expect(paid.reference).toBe(p.stripe_transfer_id);
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE payout_id = ? AND status = 'paid'", p.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'payout_paid'", c.email)).toBe(1);
    expect(await bellCount(c.id, "n.kind = 'payout_paid'")).toBe(1);
    const html = await (await fetchApp("/payments", withCookie(c.cookie))).text();
    expect(html).toContain("Stripe");
    expect(html).toContain(String(p.stripe_transfer_id));
    // Marking it paid by hand is only for payouts outside Stripe.
    const byHand = await asAdmin({ intent: "mark_paid", payoutId: String(p.id), reference: "BANK-1" });
    expect(byHand.status).toBe(409);
    expect(await byHand.text()).toContain("Only a payout made outside Stripe is marked paid by hand");
  });

  it("a transfer Stripe refuses fails the payout at once: the amount is back in the balance and the person is told", async () => {
    const c = await creatorWithChannel();
    await onboard(c);
    await payableMonth("2024-02", `2024-02,${c.channelId},,,50.00,USD\n`);
    // A refusal about the destination (a platform's own short balance holds the payout instead: stripe-platform.test.ts).
    await refuseNextTransfer(true, "transfers_not_allowed");
    const run = await runPayoutDay(new Date("2024-03-18T04:00:00Z"));
    expect(run.transfers?.failed).toBe(1);
    const p = present((await payoutsOf(c.id)).results[0], "the payout");
    expect(p).toMatchObject({ status: "failed" });
    expect(String(p.failure_reason)).toContain("Stripe refused the transfer: The requested transfer cannot be created");
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE user_id = ? AND status = 'finalized' AND payout_id IS NULL", c.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'payout_failed'", c.email)).toBe(1);
    const html = await (await fetchApp("/payments", withCookie(c.cookie))).text();
    expect(html).toContain("Failed");
    expect(html).toContain("Back in your balance");
    // The next payout day pays it.
    await runPayoutDay(new Date("2024-04-18T04:00:00Z"));
    await vi.waitFor(async () => expect((await payoutsOf(c.id)).results.map((r) => r.status)).toEqual(["failed", "paid"]), { timeout: 10_000 });
    expect((await payoutsOf(c.id)).results[1]?.amount_cents).toBe(3500);
  });

  it("a transfer reversed in Stripe fails its payout by webhook and returns the amount to the balance", async () => {
    const c = await creatorWithChannel();
    await onboard(c);
    await payableMonth("2024-05", `2024-05,${c.channelId},,,20.00,USD\n`);
    await runPayoutDay(new Date("2024-06-18T04:00:00Z"));
    await vi.waitFor(async () => expect((await payoutsOf(c.id)).results[0]?.status).toBe("paid"), { timeout: 10_000 });
    const p = present((await payoutsOf(c.id)).results[0], "the payout");
    await reverseTransfer(String(p.stripe_transfer_id), new Request(ORIGIN));
    await vi.waitFor(async () => expect((await payoutsOf(c.id)).results[0]?.status).toBe("failed"), { timeout: 10_000 });
    expect((await payoutsOf(c.id)).results[0]?.failure_reason).toBe("The transfer was reversed in Stripe");
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE user_id = ? AND status = 'finalized' AND payout_id IS NULL", c.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'payout_failed'", c.email)).toBe(1);
    expect(await bellCount(c.id, "n.kind = 'payout_failed'")).toBe(1);
  });

  it("leaves balances below the minimum, without an enabled account, or negative after a debit to carry over", async () => {
    const small = await creatorWithChannel();
    const unconnected = await creatorWithChannel();
    const debited = await creatorWithChannel();
    await onboard(small);
    await onboard(debited);
    // $10.00 net → $7.00: under the $10 minimum.
    await payableMonth(
      "2024-07",
      `2024-07,${small.channelId},,,10.00,USD\n2024-07,${unconnected.channelId},,,100.00,USD\n2024-07,${debited.channelId},,,100.00,USD\n`,
    );
    // A debit larger than the $70.00 balance (decision 0223): the balance is negative and carries over.
    const token = crypto.randomUUID();
    const adj = await asAdmin({
      intent: "adjust",
      token,
      person: debited.email,
      month: "2024-07",
      direction: "debit",
      amount: "90",
      reason: "Duplicate claim",
    });
    expect(await outcome(adj)).toBe("→/admin/payments");
    await runPayoutDay(new Date("2024-08-19T04:00:00Z"));
    for (const who of [small, unconnected, debited]) expect((await payoutsOf(who.id)).results).toHaveLength(0);
    const page = await (await fetchApp("/payments", withCookie(debited.cookie))).text();
    expect(page).toContain("-$20.00");
    expect(page).toContain("A debit larger than your balance");
    expect(await (await fetchApp("/payments", withCookie(small.cookie))).text()).toContain("carries over: payouts start at $10.00");
    expect(await (await fetchApp("/payments", withCookie(unconnected.cookie))).text()).toContain("it is paid once your payout account is enabled");
    // The minimum is a setting.
    await env.DB.prepare("INSERT OR REPLACE INTO app_settings (key, value) VALUES ('payout_minimum_usd', '5')").run();
    clearSettingsCache();
    try {
      await runPayoutDay(new Date("2024-09-18T04:00:00Z"));
      expect((await payoutsOf(small.id)).results).toMatchObject([{ amount_cents: 700, method: "stripe" }]);
    } finally {
      await env.DB.prepare("DELETE FROM app_settings WHERE key = 'payout_minimum_usd'").run();
      clearSettingsCache();
    }
  });
});

describe("the webhook endpoint", () => {
  it("refuses unsigned, forged and stale requests and changes nothing; stores each event once and applies it once", async () => {
    const c = await creatorWithChannel();
    const accountId = await onboard(c);
    await env.DB.prepare("UPDATE payout_accounts SET status = 'restricted', synced_at = '2000-01-01T00:00:00.000Z' WHERE user_id = ?").bind(c.id).run();
    const id = `evt_${crypto.randomUUID().replace(/-/g, "")}`;
    const event = {
      id,
      type: "account.updated",
      created: Math.floor(Date.now() / 1000),
      account: accountId,
      data: {
        object: { id: accountId, object: "account", details_submitted: true, payouts_enabled: true, capabilities: { transfers: "active" }, requirements: {} },
      },
    };
    const before = await count("SELECT count(*) AS n FROM stripe_events");
    expect((await webhook(event, { sign: false })).status).toBe(400);
    expect((await webhook(event, { secret: "whsec_not_ours" })).status).toBe(400);
    expect((await webhook(event, { t: Math.floor(Date.now() / 1000) - 3600 })).status).toBe(400);
    expect(await count("SELECT count(*) AS n FROM stripe_events")).toBe(before);
    expect((await accountOf(c.id))?.status).toBe("restricted");

    const first = await webhook(event);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ received: true, outcome: "account status" });
    expect((await accountOf(c.id))?.status).toBe("enabled");
    // The same event again (a replay, or Stripe's retry), even twice at once: stored once, nothing more happens.
    await env.DB.prepare("UPDATE payout_accounts SET status = 'restricted' WHERE user_id = ?").bind(c.id).run();
    const again = await Promise.all([webhook(event), webhook(event)]);
    for (const r of again) expect(await r.json()).toMatchObject({ received: true, duplicate: true });
    expect(await count("SELECT count(*) AS n FROM stripe_events WHERE id = ?", id)).toBe(1);
    expect((await accountOf(c.id))?.status).toBe("restricted");
    // Only POST; no Origin is needed (Stripe sends none), the signature is the check.
    expect((await fetchApp("/api/stripe/webhook")).status).toBe(405);
  });

  it("never marks paid a transfer whose amount or destination differ from the payout", async () => {
    const c = await creatorWithChannel();
    await onboard(c);
    await env.DB.prepare(
      "INSERT INTO payouts (id, user_id, batch, amount_cents, status, method, stripe_account_id) VALUES (?, ?, '2024-10', 1500, 'processing', 'stripe', ?)",
    )
      .bind(`pm-${c.id}`, c.id, (await accountOf(c.id))?.stripe_account_id)
      .run();
    const res = await webhook({
      id: `evt_${crypto.randomUUID().replace(/-/g, "")}`,
      type: "transfer.created",
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: "tr_mismatch",
          object: "transfer",
          amount: 999999,
          currency: "usd",
          destination: "acct_someone_else",
          metadata: { payout_id: `pm-${c.id}` },
        },
      },
    });
    expect(await res.json()).toMatchObject({ outcome: "mismatch: not paid" });
    expect((await payoutsOf(c.id)).results[0]?.status).toBe("processing");
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'payout_transfer_mismatch' AND severity = 'critical'")).toBeGreaterThan(
      0,
    );
  });
});

describe("people paid outside Stripe", () => {
  it("an admin marks a person paid outside Stripe: their payouts are gathered as such and marked paid with the bank's reference", async () => {
    const c = await creatorWithChannel();
    const both = await Promise.all([
      asAdmin({ intent: "pay_outside", person: c.email, reason: "Bank transfer (country not served by Stripe)" }),
      asAdmin({ intent: "pay_outside", person: c.email, reason: "Bank transfer (country not served by Stripe)" }),
    ]);
    expect((await Promise.all(both.map(outcome))).sort()).toEqual(["409", "→/admin/payments"]);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'payout_method_manual' AND target_user_id = ?", c.id)).toBe(1);
    expect(await (await fetchApp("/payments", withCookie(c.cookie))).text()).toContain("You are paid outside Stripe");
    expect((await onPayments(c, { intent: "connect_payouts", country: "US" })).status).toBe(409);
    await payableMonth("2024-11", `2024-11,${c.channelId},,,30.00,USD\n`);
    await runPayoutDay(new Date("2024-12-18T04:00:00Z"));
    const p = present((await payoutsOf(c.id)).results[0], "the payout");
    expect(p).toMatchObject({ method: "manual", status: "pending", amount_cents: 2100 });
    expect(await outcome(await asAdmin({ intent: "mark_paid", payoutId: String(p.id), reference: "BANK-42" }))).toBe("→/admin/payments");
    expect((await payoutsOf(c.id)).results[0]).toMatchObject({ status: "paid", reference: "BANK-42" });
    // Back to Stripe.
    expect(await outcome(await asAdmin({ intent: "pay_through_stripe", person: c.email }))).toBe("→/admin/payments");
    expect((await accountOf(c.id))?.method).toBe("stripe");
  });
});

describe("a deployment without the Stripe secrets", () => {
  it("refuses to start Stripe payouts with a clear admin message, still pays people paid outside Stripe, and refuses webhooks", async () => {
    const viaStripe = await creatorWithChannel();
    const byHand = await creatorWithChannel();
    await onboard(viaStripe);
    expect(await outcome(await asAdmin({ intent: "pay_outside", person: byHand.email, reason: "Bank transfer" }))).toBe("→/admin/payments");
    await payableMonth("2023-01", `2023-01,${viaStripe.channelId},,,100.00,USD\n2023-01,${byHand.channelId},,,100.00,USD\n`);
    const saved = { key: env.STRIPE_SECRET_KEY, secret: env.STRIPE_WEBHOOK_SECRET };
    const e = env as unknown as Record<string, string>;
    e.STRIPE_SECRET_KEY = "";
    try {
      const run = await runPayoutDay(new Date("2023-02-20T04:00:00Z"));
      expect(run.refused).toContain("Payouts through Stripe are off: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not set.");
      expect((await payoutsOf(viaStripe.id)).results).toHaveLength(0);
      expect((await payoutsOf(byHand.id)).results).toMatchObject([{ method: "manual", status: "pending" }]);
      expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'payout_run_refused' AND severity = 'critical'")).toBeGreaterThan(0);
      const page = await (await fetchApp("/admin/payments", withCookie(admin.cookie))).text();
      expect(page).toContain("Payouts through Stripe are off");
      expect((await asAdmin({ intent: "send_transfers" })).status).toBe(503);
      expect((await webhook({ id: "evt_x", type: "account.updated", created: 1, data: { object: {} } })).status).toBe(503);
      expect(await (await fetchApp("/payments", withCookie(viaStripe.cookie))).text()).toContain("Payouts through Stripe are not available yet");
    } finally {
      e.STRIPE_SECRET_KEY = saved.key;
      e.STRIPE_WEBHOOK_SECRET = saved.secret;
    }
  });
});
