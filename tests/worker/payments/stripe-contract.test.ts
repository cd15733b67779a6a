// The Stripe stand-in against Stripe's machine-readable contract (issue 41 §5): the `stripe` package's
// types. The stand-in's objects are typed as Stripe.Account / Stripe.Transfer fields (dev-stripe.server.ts),
// the requests below are typed with `satisfies` against the SDK's params, and every answer is read back
// through the real SDK client (its parsing, its error classes) and checked at run time for the fields
// and values our code reads (payout-accounts.server.ts, transfers.server.ts, stripe-webhooks.server.ts).
import Stripe from "stripe";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { refuseNextTransfer, setAccountState, type StandInAccount, type StandInTransfer } from "~/dev/dev-stripe.server";
import { accountStatusOf } from "~/modules/payments/payout-accounts.server";
import { isStripeRefusal, STRIPE_API_VERSION, stripeClient } from "~/platform/stripe.server";
import { fetchApp, ORIGIN } from "../helpers";

beforeAll(async () => {
  await fetchApp("/auth");
}, 180_000);
afterEach(() => refuseNextTransfer(false));

/** The fields of an account our code reads, with Stripe's documented value sets (https://docs.stripe.com/api/accounts/object). */
function expectAccountShape(a: Stripe.Account) {
  expect(a.id).toMatch(/^acct_/);
  expect(a.object).toBe("account");
  expect(typeof a.created).toBe("number");
  expect(typeof a.details_submitted).toBe("boolean");
  expect(typeof a.payouts_enabled).toBe("boolean");
  expect(["active", "inactive", "pending"]).toContain(a.capabilities?.transfers);
  expect(Array.isArray(a.requirements?.currently_due)).toBe(true);
  expect(Array.isArray(a.requirements?.past_due)).toBe(true);
  expect(a.requirements?.disabled_reason === null || typeof a.requirements?.disabled_reason === "string").toBe(true);
  expect(["full", "recipient"]).toContain(a.tos_acceptance?.service_agreement);
}

/** The fields of a transfer our code reads (https://docs.stripe.com/api/transfers/object). */
function expectTransferShape(t: Stripe.Transfer) {
  expect(t.id).toMatch(/^tr_/);
  expect(t.object).toBe("transfer");
  expect(Number.isInteger(t.amount)).toBe(true);
  expect(Number.isInteger(t.amount_reversed)).toBe(true);
  expect(typeof t.currency).toBe("string");
  expect(typeof t.destination).toBe("string");
  expect(typeof t.reversed).toBe("boolean");
  expect(typeof t.metadata).toBe("object");
}

describe("the stand-in through the real SDK client", () => {
  it("answers accounts, account links, transfers and refusals in the shapes the SDK types describe", async () => {
    const stripe = await stripeClient(ORIGIN);
    expect(stripe.getApiField("version")).toBe(STRIPE_API_VERSION);

    const accountParams = {
      type: "express",
      email: "contract@example.test",
      country: "DE",
      business_type: "individual",
      capabilities: { transfers: { requested: true } },
      tos_acceptance: { service_agreement: "recipient" },
      metadata: { user_id: "contract-user" },
    } satisfies Stripe.AccountCreateParams;
    const created = await stripe.accounts.create(accountParams);
    expectAccountShape(created);
    expect(created).toMatchObject({ country: "DE", email: "contract@example.test", metadata: { user_id: "contract-user" } });
    expect(accountStatusOf(created).status).toBe("needs_information");

    const linkParams = {
      account: created.id,
      refresh_url: `${ORIGIN}/payments/payout-account/refresh`,
      return_url: `${ORIGIN}/payments/payout-account/return`,
      type: "account_onboarding",
    } satisfies Stripe.AccountLinkCreateParams;
    const link: Stripe.AccountLink = await stripe.accountLinks.create(linkParams);
    expect(link.object).toBe("account_link");
    expect(typeof link.expires_at).toBe("number");
    expect(new URL(link.url).pathname).toMatch(/^\/dev\/stripe\/onboarding\/link_/);

    await setAccountState(created.id, "complete", new Request(ORIGIN));
    const enabled = await stripe.accounts.retrieve(created.id);
    expectAccountShape(enabled);
    expect(accountStatusOf(enabled).status).toBe("enabled");

    const transferParams = {
      amount: 1234,
      currency: "usd",
      destination: created.id,
      transfer_group: "contract-payout",
      description: "contract",
      metadata: { payout_id: "contract-payout" },
    } satisfies Stripe.TransferCreateParams;
    const transfer = await stripe.transfers.create(transferParams, { idempotencyKey: `contract-${crypto.randomUUID()}` });
    expectTransferShape(transfer);
    expect(transfer).toMatchObject({ amount: 1234, currency: "usd", destination: created.id, reversed: false, transfer_group: "contract-payout" });
    const again = await stripe.transfers.retrieve(transfer.id);
    expectTransferShape(again);
    expect(again.id).toBe(transfer.id);
    const listed = await stripe.transfers.list({ transfer_group: "contract-payout", limit: 1 } satisfies Stripe.TransferListParams);
    expect(listed.object).toBe("list");
    expect(listed.data.map((t) => t.id)).toEqual([transfer.id]);

    // Refusals arrive as the SDK's own error classes, with Stripe's codes.
    await refuseNextTransfer(true, "balance_insufficient");
    const refused = await stripe.transfers.create({ ...transferParams, transfer_group: "contract-refused" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(refused).toMatchObject({ code: "balance_insufficient", statusCode: 400, type: "StripeInvalidRequestError" });
    expect(isStripeRefusal(refused)).toBe(true);
    const missing = await stripe.transfers.retrieve("tr_doesnotexist").catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: "resource_missing", statusCode: 404 });
    const crossBorderFull = await stripe.accounts.create({ ...accountParams, tos_acceptance: undefined }).catch((e: unknown) => e);
    expect(crossBorderFull).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  });

  it("keeps fixtures typed by Stripe's own types", () => {
    const account = {
      id: "acct_fixture",
      object: "account",
      type: "express",
      email: null,
      country: "GB",
      default_currency: "gbp",
      created: 1,
      details_submitted: false,
      charges_enabled: false,
      payouts_enabled: false,
      capabilities: { transfers: "inactive" },
      tos_acceptance: { service_agreement: "full" },
      requirements: { currently_due: ["external_account"], eventually_due: [], past_due: [], disabled_reason: "requirements.past_due" },
      metadata: {},
      livemode: false,
    } satisfies StandInAccount;
    const transfer = {
      id: "tr_fixture",
      object: "transfer",
      amount: 100,
      amount_reversed: 0,
      currency: "usd",
      created: 1,
      description: null,
      destination: "acct_fixture",
      transfer_group: null,
      metadata: {},
      reversed: false,
      livemode: false,
    } satisfies StandInTransfer;
    expect(accountStatusOf(account)).toEqual({ status: "needs_information", reason: expect.any(String) });
    expect(transfer.amount - transfer.amount_reversed).toBe(100);
  });
});
