import type { Stripe } from "stripe";
import { randomToken } from "~/platform/crypto.server";
import { env } from "~/platform/env.server";

// The Stripe stand-in's stored objects (app/dev/dev-stripe.server.ts): their types, the KV they live in
// under devstripe:*, and the ids and times it gives them.

// The stand-in's objects are Stripe's own types (the SDK is the machine-readable contract, issue 41
// §5): the fields it answers with, picked from Stripe.Account and Stripe.Transfer, so a field it gets
// wrong (a name, a type, an enum value) fails the typecheck.
export type StandInAccount = Pick<
  Stripe.Account,
  "id" | "object" | "email" | "country" | "default_currency" | "created" | "details_submitted" | "charges_enabled" | "payouts_enabled" | "metadata"
> & {
  type: "express";
  capabilities: Required<Pick<Stripe.Account.Capabilities, "transfers">>;
  tos_acceptance: { service_agreement: "full" | "recipient" } & Stripe.Account.TosAcceptance;
  requirements: Pick<Stripe.Account.Requirements, "disabled_reason"> & { currently_due: string[]; eventually_due: string[]; past_due: string[] };
  metadata: Record<string, string>;
  livemode: false;
};

export type StandInTransfer = Pick<
  Stripe.Transfer,
  "id" | "object" | "amount" | "amount_reversed" | "currency" | "created" | "description" | "transfer_group" | "reversed" | "metadata"
> & {
  destination: string;
  livemode: false;
};

export type LinkRecord = { id: string; account: string; refreshUrl: string; returnUrl: string; expiresAt: number; used: boolean };
export type StandInEvent = { id: string; type: string; created: number; account: string | null; object: unknown; delivered: string | null };

export const kv = () => env.RATE_LIMITS;
export const DAY = 60 * 60 * 24;
export const now = () => Math.floor(Date.now() / 1000);
export const id = (prefix: string) =>
  `${prefix}_${randomToken(12)
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, 16)}`;

export async function get<T>(key: string): Promise<T | null> {
  const raw = await kv().get(key);
  return raw ? (JSON.parse(raw) as T) : null;
}
export const put = (key: string, value: unknown, ttl = 30 * DAY) => kv().put(key, JSON.stringify(value), { expirationTtl: ttl });

export const accountKey = (acct: string) => `devstripe:account:${acct}`;
export const transferKey = (tr: string) => `devstripe:transfer:${tr}`;
export const linkKey = (link: string) => `devstripe:link:${link}`;
