import { readText } from "~/platform/body.server";
import { env } from "~/platform/env.server";
import { CURRENCY, payable } from "./dev-stripe-countries";
import { REFUSALS, REFUSE_NEXT, refuseNextTransfer, type TransferRefusal } from "./dev-stripe-dashboard.server";
import {
  accountKey,
  DAY,
  get,
  id,
  kv,
  type LinkRecord,
  linkKey,
  now,
  put,
  type StandInAccount,
  type StandInTransfer,
  transferKey,
} from "./dev-stripe-store.server";
import { emit } from "./dev-stripe-webhooks.server";

// The local stand-in for Stripe (DEV_TOOLS only; docs/decisions/0226-stripe-stand-in.md). It answers
// the API calls the payments module makes, in Stripe's shapes, through the same `stripe` package:
//   POST /v1/accounts                    an Express account (needs information until onboarded)
//   GET  /v1/accounts/:id
//   POST /v1/account_links               a one-time onboarding link to /dev/stripe/onboarding/:id
//   POST /v1/accounts/:id/login_links    the Express dashboard (a stand-in page)
//   POST /v1/transfers                   a transfer to a connected account (Idempotency-Key honoured)
//   GET  /v1/transfers?transfer_group=   the transfers of a payout (how a lost answer is found again)
//   GET  /v1/transfers/:id               one transfer (how a payout whose webhook never came is settled)
// Its answers are typed against the `stripe` package's own types (Stripe.Account, Stripe.Transfer…;
// tests/worker/payments/stripe-contract.test.ts reads them back through the real SDK client). Like
// Stripe, it opens an account only in a country the platform (its STRIPE_PLATFORM_COUNTRY: the
// platform account's country at Stripe) can pay, and a cross-border one only under the recipient
// service agreement (https://docs.stripe.com/connect/cross-border-payouts,
// https://docs.stripe.com/connect/service-agreement-types). Its own reading of those pages, not the
// app's table (payout-countries.ts), so that a mistake in the app's is refused here as Stripe would.
// and, like Stripe, it sends SIGNED webhooks back to the app (POST /api/stripe/webhook, Stripe-Signature
// t=…,v1=HMAC-SHA256 of "t.payload" with STRIPE_WEBHOOK_SECRET): account.updated when onboarding
// changes an account, transfer.created after a transfer, transfer.reversed when one is reversed from
// the stand-in's dashboard (/dev/stripe). State lives in KV under devstripe:*.

// The stand-in is four files: this one answers the API; dev-stripe-store.server.ts holds the stored
// objects' types and KV, dev-stripe-webhooks.server.ts the events, dev-stripe-dashboard.server.ts what
// the dashboard and onboarding pages do. Everything the pages and tests use is re-exported here.
export {
  type AccountOutcome,
  onboardingLink,
  refuseNextTransfer,
  refusingNextTransfer,
  reverseTransfer,
  setAccountState,
  standInState,
  type TransferRefusal,
  useOnboardingLink,
} from "./dev-stripe-dashboard.server";
export { accountKey, type StandInAccount, type StandInEvent, type StandInTransfer, transferKey } from "./dev-stripe-store.server";
export { deliver, pauseWebhooks, signPayload } from "./dev-stripe-webhooks.server";

function json(body: unknown, status = 200) {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store", "Request-Id": id("req") } });
}
function stripeError(status: number, type: string, message: string, code?: string, param?: string) {
  return json({ error: { type, message, ...(code ? { code } : {}), ...(param ? { param } : {}) } }, status);
}

/** Stripe's form encoding ("metadata[payout_id]=…", "capabilities[transfers][requested]=true") as a flat map. */
function formOf(body: string): Map<string, string> {
  return new Map(new URLSearchParams(body).entries());
}
function nested(form: Map<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of form) {
    const key = new RegExp(`^${prefix}\\[([^\\]]+)\\]$`).exec(k)?.[1];
    if (key !== undefined) out[key] = v;
  }
  return out;
}

// ---- Accounts ------------------------------------------------------------------------------------

const platformCountry = () => (env.STRIPE_PLATFORM_COUNTRY || "US").trim().toUpperCase();

const ONBOARDING_FIELDS = ["business_profile.url", "external_account", "individual.dob.day", "individual.first_name", "tos_acceptance.date"];

function newAccount(email: string | null, metadata: Record<string, string>, country: string, agreement: "full" | "recipient"): StandInAccount {
  return {
    id: id("acct"),
    object: "account",
    type: "express",
    email,
    country,
    default_currency: CURRENCY[country] ?? "eur",
    created: now(),
    details_submitted: false,
    charges_enabled: false,
    payouts_enabled: false,
    capabilities: { transfers: "inactive" },
    tos_acceptance: { service_agreement: agreement },
    requirements: { currently_due: [...ONBOARDING_FIELDS], eventually_due: [...ONBOARDING_FIELDS], past_due: [], disabled_reason: "requirements.past_due" },
    metadata,
    livemode: false,
  };
}

// ---- The API -------------------------------------------------------------------------------------

/** The stand-in's API (/dev/stripe/v1/*), answered in Stripe's shapes. */
export async function handleDevStripeApi(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.replace(/^\/dev\/stripe/, "");
  const key = /^Bearer (.+)$/.exec(request.headers.get("Authorization") ?? "")?.[1];
  if (!key || key !== env.STRIPE_SECRET_KEY) return stripeError(401, "invalid_request_error", "Invalid API Key provided.");
  const body = request.method === "POST" ? await readText(request, 64 * 1024) : "";
  const idempotencyKey = request.headers.get("Idempotency-Key");
  if (request.method === "POST" && idempotencyKey) {
    const seen = await get<{ status: number; body: unknown; path: string }>(`devstripe:idem:${idempotencyKey}`);
    if (seen) {
      if (seen.path !== path)
        return stripeError(400, "idempotency_error", "Keys for idempotent requests can only be used for the same endpoint they were first used for.");
      return json(seen.body, seen.status);
    }
  }
  // As Stripe, a second request with a key still in flight is refused (409) rather than run twice.
  const lock = idempotencyKey ? `devstripe:idem-lock:${idempotencyKey}` : null;
  if (request.method === "POST" && lock) {
    if (await kv().get(lock)) return stripeError(409, "idempotency_error", "There is currently another in-progress request using this idempotency key.");
    await kv().put(lock, "1", { expirationTtl: 60 });
  }
  try {
    const answer = await route(request, path, formOf(body), url);
    if (request.method === "POST" && idempotencyKey && answer.status < 500) {
      await put(`devstripe:idem:${idempotencyKey}`, { status: answer.status, body: await answer.clone().json(), path }, DAY);
    }
    return answer;
  } finally {
    if (request.method === "POST" && lock) await kv().delete(lock);
  }
}

async function route(request: Request, path: string, form: Map<string, string>, url: URL): Promise<Response> {
  let m: RegExpExecArray | null = null;
  if (path === "/v1/accounts" && request.method === "POST") {
    if (form.get("type") !== "express" && !form.has("controller[stripe_dashboard][type]")) {
      return stripeError(400, "invalid_request_error", "The stand-in makes Express accounts only.", undefined, "type");
    }
    const platform = platformCountry();
    const country = form.get("country") || platform;
    const agreement = form.get("tos_acceptance[service_agreement]") === "recipient" ? "recipient" : "full";
    if (!payable(platform, country)) {
      return stripeError(
        400,
        "invalid_request_error",
        `Connected accounts in ${country} cannot receive payouts from a platform in ${platform}.`,
        "country_unsupported",
        "country",
      );
    }
    if (country !== platform && agreement !== "recipient") {
      return stripeError(
        400,
        "invalid_request_error",
        `An account in ${country} paid by a platform in ${platform} must be created with tos_acceptance[service_agreement]=recipient.`,
        "parameter_invalid_empty",
        "tos_acceptance[service_agreement]",
      );
    }
    const account = newAccount(form.get("email") ?? null, nested(form, "metadata"), country, agreement);
    await put(accountKey(account.id), account);
    return json(account);
  }
  m = /^\/v1\/accounts\/(acct_[A-Za-z0-9]+)$/.exec(path);
  if (m?.[1] && request.method === "GET") {
    const id = m[1];
    const account = await get<StandInAccount>(accountKey(id));
    return account ? json(account) : stripeError(404, "invalid_request_error", `No such account: '${id}'`, "resource_missing", "account");
  }
  m = /^\/v1\/accounts\/(acct_[A-Za-z0-9]+)\/login_links$/.exec(path);
  if (m?.[1] && request.method === "POST") {
    const id = m[1];
    const account = await get<StandInAccount>(accountKey(id));
    if (!account) return stripeError(404, "invalid_request_error", `No such account: '${id}'`, "resource_missing", "account");
    return json({ object: "login_link", created: now(), url: new URL(`/dev/stripe?account=${account.id}`, url).toString() });
  }
  if (path === "/v1/account_links" && request.method === "POST") {
    const account = await get<StandInAccount>(accountKey(form.get("account") ?? ""));
    if (!account) return stripeError(400, "invalid_request_error", `No such account: '${form.get("account")}'`, "resource_missing", "account");
    const refreshUrl = form.get("refresh_url") ?? "";
    const returnUrl = form.get("return_url") ?? "";
    if (!/^https?:\/\//.test(refreshUrl) || !/^https?:\/\//.test(returnUrl)) {
      return stripeError(400, "invalid_request_error", "refresh_url and return_url must be absolute URLs.", "url_invalid", "return_url");
    }
    const link: LinkRecord = { id: id("link"), account: account.id, refreshUrl, returnUrl, expiresAt: now() + 300, used: false };
    await put(linkKey(link.id), link, DAY);
    return json({ object: "account_link", created: now(), expires_at: link.expiresAt, url: new URL(`/dev/stripe/onboarding/${link.id}`, url).toString() });
  }
  if (path === "/v1/transfers" && request.method === "POST") {
    const amount = Number(form.get("amount"));
    const destination = form.get("destination") ?? "";
    if (!Number.isSafeInteger(amount) || amount <= 0)
      return stripeError(400, "invalid_request_error", "Invalid positive integer", "parameter_invalid_integer", "amount");
    if ((form.get("currency") ?? "").toLowerCase() !== "usd")
      return stripeError(400, "invalid_request_error", "The stand-in's platform balance is in usd.", undefined, "currency");
    const account = await get<StandInAccount>(accountKey(destination));
    if (!account) return stripeError(400, "invalid_request_error", `No such destination: '${destination}'`, "resource_missing", "destination");
    if (account.capabilities.transfers !== "active") {
      return stripeError(
        400,
        "invalid_request_error",
        "Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments",
        "insufficient_capabilities_for_transfer",
        "destination",
      );
    }
    const refusal = (await kv().get(REFUSE_NEXT)) as TransferRefusal | null;
    if (refusal) {
      await refuseNextTransfer(false);
      return stripeError(400, "invalid_request_error", REFUSALS[refusal] ?? REFUSALS.balance_insufficient, refusal);
    }
    const transfer: StandInTransfer = {
      id: id("tr"),
      object: "transfer",
      amount,
      amount_reversed: 0,
      currency: "usd",
      created: now(),
      description: form.get("description") ?? null,
      destination,
      transfer_group: form.get("transfer_group") ?? null,
      metadata: nested(form, "metadata"),
      reversed: false,
      livemode: false,
    };
    await put(transferKey(transfer.id), transfer);
    if (transfer.transfer_group) await put(`devstripe:group:${transfer.transfer_group}`, transfer.id);
    await emit("transfer.created", transfer, request, null);
    return json(transfer);
  }
  m = /^\/v1\/transfers\/(tr_[A-Za-z0-9]+)$/.exec(path);
  if (m?.[1] && request.method === "GET") {
    const id = m[1];
    const transfer = await get<StandInTransfer>(transferKey(id));
    return transfer ? json(transfer) : stripeError(404, "invalid_request_error", `No such transfer: '${id}'`, "resource_missing", "id");
  }
  if (path === "/v1/transfers" && request.method === "GET") {
    const group = url.searchParams.get("transfer_group");
    // Stored as JSON by put(), so read back with get() (a raw read kept the quotes and found nothing).
    const found = group ? await get<string>(`devstripe:group:${group}`) : null;
    const transfer = found ? await get<StandInTransfer>(transferKey(found)) : null;
    return json({ object: "list", data: transfer ? [transfer] : [], has_more: false, url: "/v1/transfers" });
  }
  return stripeError(404, "invalid_request_error", `Unrecognized request URL (${request.method}: ${path}). The stand-in answers only what Shortbeat calls.`);
}
