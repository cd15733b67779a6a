import type { Stripe } from "stripe";
import { outboundFetch } from "./stand-in.server";
import { env } from "./env.server";
import { recordFailure, recordSuccess } from "./service-status.server";

// Stripe, behind one path for development and production (docs/decisions/0224-payouts-through-stripe-connect.md).
// The official `stripe` package (23.x) on Workers: its fetch HTTP client and SubtleCrypto for
// webhook signatures, loaded on first use (it is server-only and stays out of every request that
// does not pay or verify). The API base is a setting like Google's endpoints: api.stripe.com in
// production; locally /dev/stripe, the built-in stand-in (app/dev/dev-stripe.server.ts), which is
// called in-process exactly as the real API is called over the network.
//
// Secrets: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (one signing secret, or several separated by
// commas: a Connect platform listens on two endpoints, its own events and its accounts' events).
// Without them nothing that needs Stripe starts (stripeConfig() is null): payouts say so to the admin.

export type StripeConfig = { secretKey: string; webhookSecrets: string[]; apiBase: URL };

export const STRIPE_API_DEFAULT = "https://api.stripe.com";

/**
 * The Stripe API version every request is made with (docs/decisions/0307): the version the installed
 * `stripe` package (23.1.0) is typed for and pins itself (its ApiVersion), passed explicitly so that a
 * change of it is a change of this line: `satisfies` fails the typecheck when an SDK upgrade moves
 * its version, and the two webhook endpoints must then be recreated with the new version
 * (docs/providers.md, "Stripe"): Stripe renders an event's object in the endpoint's API version
 * (https://docs.stripe.com/webhooks/versioning).
 */
export const STRIPE_API_VERSION = "2026-10-28.endive" satisfies Stripe.LatestApiVersion;

/**
 * The country of the platform's Stripe account (STRIPE_PLATFORM_COUNTRY, two letters; US when unset):
 * which countries people can be paid in follows from it (payout-countries.ts, docs/decisions/0306).
 */
export function stripePlatformCountry(): string {
  return (env.STRIPE_PLATFORM_COUNTRY || "US").trim().toUpperCase();
}
/** Seconds a signed webhook stays acceptable (Stripe's own default): an older replay is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The origin relative settings resolve against (APP_ORIGIN; http://localhost when unset). */
function appBase(): string {
  try {
    return new URL(env.APP_ORIGIN).origin;
  } catch {
    return "http://localhost";
  }
}

/**
 * The settings, or null without the secrets. `origin` resolves a relative API base (the local
 * stand-in's /dev/stripe) against the request's own origin, as the Google endpoints are; without a
 * request (the daily job) APP_ORIGIN is used.
 */
export function stripeConfig(origin?: string): StripeConfig | null {
  const secretKey = (env.STRIPE_SECRET_KEY ?? "").trim();
  const webhookSecrets = (env.STRIPE_WEBHOOK_SECRET ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!secretKey || webhookSecrets.length === 0) return null;
  let apiBase: URL;
  try {
    apiBase = new URL(env.STRIPE_API_BASE || STRIPE_API_DEFAULT, origin ?? appBase());
  } catch {
    return null;
  }
  return { secretKey, webhookSecrets, apiBase };
}

/** What the payout rail is: live or test mode of Stripe, the local stand-in, or off (no secrets). */
export function stripeMode(): "live" | "test" | "stand-in" | "off" {
  const config = stripeConfig();
  if (!config) return "off";
  if (config.apiBase.pathname.startsWith("/dev/stripe")) return "stand-in";
  return config.secretKey.startsWith("sk_live_") || config.secretKey.startsWith("rk_live_") ? "live" : "test";
}

export class StripeNotConfigured extends Error {
  constructor() {
    super("Stripe is not configured: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.");
  }
}

/**
 * fetch for the Stripe API: the SDK's path (/v1/…) under the configured base. The local stand-in
 * (/dev/stripe, DEV_TOOLS only) is answered in-process: a Worker calling its own origin would leave
 * and re-enter through the Origin check, and tests have no network. Everything else is fetch.
 */
function stripeFetch(base: URL): typeof fetch {
  const prefix = base.pathname.replace(/\/$/, "");
  return async (input, init) => {
    const asked = new URL(input instanceof Request ? input.url : String(input));
    const target = new URL(`${prefix}${asked.pathname}${asked.search}`, base);
    let res: Response;
    try {
      res = await outboundFetch(new Request(target, init));
    } catch (error) {
      await recordFailure("stripe", "network", `Stripe could not be reached: ${(error as Error).message}`);
      throw error;
    }
    await recordStripeAnswer(res);
    return res;
  };
}

/** The last time this isolate wrote Stripe's success to the status page: a payout day's thousands of calls write it once a minute. */
let successWrittenAt = 0;

/**
 * The System status row for Stripe (docs/decisions/0312, 0326), from the one place its answers are
 * read. A 5xx, a 429 and a refusal of our own key (401/403) are the service's or our settings'
 * problem; any other 4xx is about one request (a card, an account, an idempotency replay) and is
 * the caller's to handle (https://docs.stripe.com/error-codes).
 */
async function recordStripeAnswer(res: Response): Promise<void> {
  if (res.ok) {
    if (Date.now() - successWrittenAt < 60_000) return;
    successWrittenAt = Date.now();
    await recordSuccess("stripe");
    return;
  }
  if (res.status >= 500 || res.status === 429 || res.status === 401 || res.status === 403) {
    successWrittenAt = 0;
    const body = (await res
      .clone()
      .json()
      .catch(() => null)) as { error?: { code?: unknown; message?: unknown } } | null;
    const code = typeof body?.error?.code === "string" ? body.error.code : `HTTP ${res.status}`;
    const message = typeof body?.error?.message === "string" ? body.error.message : `Stripe answered HTTP ${res.status}.`;
    await recordFailure("stripe", code, message);
  }
}

let cached: { key: string; client: Stripe } | null = null;

/** The Stripe client (a new one when the settings change). Throws StripeNotConfigured without the secrets. */
export async function stripeClient(origin?: string): Promise<Stripe> {
  const config = stripeConfig(origin);
  if (!config) throw new StripeNotConfigured();
  const key = `${config.secretKey}\u0000${config.apiBase.href}`;
  if (cached?.key === key) return cached.client;
  const { default: StripeClass } = await import("stripe");
  const client = new StripeClass(config.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    httpClient: StripeClass.createFetchHttpClient(stripeFetch(config.apiBase)),
    host: config.apiBase.hostname,
    port: config.apiBase.port || (config.apiBase.protocol === "http:" ? "80" : "443"),
    protocol: config.apiBase.protocol === "http:" ? "http" : "https",
    // One retry of a dropped connection (with the same idempotency key); the payout job retries the rest.
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: env.APP_NAME || "Shortbeat" },
  });
  cached = { key, client };
  return client;
}

/**
 * A webhook's body, verified: Stripe-Signature is `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "t.rawBody" with the endpoint's signing secret>`, checked in constant time against each secret,
 * and refused when older than five minutes (https://docs.stripe.com/webhooks#verify-events).
 * "signature" when no secret verifies it; "json" when a verified body is not JSON. The parsed body
 * is only JSON: its shape is the caller's to check (docs/decisions/0295), since a signed body is
 * not yet an event.
 */
export async function verifyStripeWebhook(
  rawBody: string,
  signature: string,
): Promise<{ ok: true; body: unknown } | { ok: false; reason: "signature" | "json" }> {
  const config = stripeConfig();
  if (!config) throw new StripeNotConfigured();
  const { default: StripeClass } = await import("stripe");
  const crypto = StripeClass.createSubtleCryptoProvider();
  const check = StripeClass.webhooks.signature;
  if (!check) throw new Error("The stripe package has no webhook signature helper");
  for (const secret of config.webhookSecrets) {
    let verified = false;
    try {
      verified = await check.verifyHeaderAsync(rawBody, signature, secret, WEBHOOK_TOLERANCE_SECONDS, crypto);
    } catch {
      // the next secret, if any
    }
    if (!verified) continue;
    try {
      return { ok: true, body: JSON.parse(rawBody) as unknown };
    } catch {
      return { ok: false, reason: "json" };
    }
  }
  return { ok: false, reason: "signature" };
}

/** Whether an error is Stripe's definite refusal (a 4xx answer other than 409/429): retrying the same request cannot succeed. */
export function isStripeRefusal(error: unknown): error is { message: string; statusCode?: number; code?: string; type?: string } {
  const e = error as { type?: string; statusCode?: number } | null;
  if (!e || typeof e !== "object" || typeof e.type !== "string" || !e.type.startsWith("Stripe")) return false;
  const status = e.statusCode ?? 0;
  return status >= 400 && status < 500 && status !== 409 && status !== 429;
}
