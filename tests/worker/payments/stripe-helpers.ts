import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { handleDevStripeApi, setAccountState, signPayload } from "~/dev/dev-stripe.server";
import type { TestUser } from "../../factories/users";
import { fetchApp, ORIGIN, postForm, redirectTarget, withCookie } from "../helpers";

// Shared by the Stripe worker suites: a signed webhook as Stripe sends one, and the onboarding as a person does it.

export const onPayments = (user: TestUser, fields: Record<string, string>) => postForm("/payments", fields, withCookie(user.cookie));

export const accountOf = (userId: string) =>
  env.DB.prepare("SELECT method, stripe_account_id, status, status_reason FROM payout_accounts WHERE user_id = ?")
    .bind(userId)
    .first<{ method: string; stripe_account_id: string | null; status: string | null; status_reason: string | null }>();

/** A raw body, signed with the endpoint's secret as Stripe signs it. */
export async function signedWebhook(payload: string): Promise<Response> {
  const headers = new Headers({ "Content-Type": "application/json", "Stripe-Signature": await signPayload(payload, env.STRIPE_WEBHOOK_SECRET) });
  return fetchApp("/api/stripe/webhook", { method: "POST", headers, body: payload });
}

/** An event as Stripe sends it, signed. */
export function webhookEvent(event: Record<string, unknown>): Promise<Response> {
  return signedWebhook(
    JSON.stringify({ object: "event", api_version: "2026-10-28.endive", livemode: false, pending_webhooks: 1, request: { id: null }, ...event }),
  );
}

/** The whole onboarding: Set up payouts → Stripe's page → the outcome chosen there → back to /payments. */
export async function onboard(user: TestUser, outcomeAtStripe = "complete"): Promise<string> {
  const link = await redirectTarget(await onPayments(user, { intent: "connect_payouts", country: "US" }));
  expect(link).toMatch(/^\/dev\/stripe\/onboarding\/link_/);
  expect(await redirectTarget(await postForm(link ?? "", { outcome: outcomeAtStripe }))).toBe("/payments/payout-account/return");
  expect(await redirectTarget(await fetchApp("/payments/payout-account/return", withCookie(user.cookie)))).toBe("/payments");
  return (await accountOf(user.id))?.stripe_account_id ?? "";
}

/** An Express account made at the stand-in for `user` and onboarded to the end (no page visits): its id. */
export async function enabledExpressAccount(user: TestUser): Promise<string> {
  const made = await handleDevStripeApi(
    new Request(`${ORIGIN}/dev/stripe/v1/accounts`, {
      method: "POST",
      headers: { Authorization: `Bearer ${env.STRIPE_SECRET_KEY}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ type: "express", country: "US", email: user.email }),
    }),
  );
  const accountId = ((await made.json()) as { id: string }).id;
  await setAccountState(accountId, "complete", new Request(`${ORIGIN}/dev/stripe`));
  return accountId;
}
