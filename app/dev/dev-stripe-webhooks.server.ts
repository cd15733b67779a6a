import { exports as loopback, waitUntil } from "cloudflare:workers";
import { hmacSha256Hex } from "~/platform/crypto.server";
import { env } from "~/platform/env.server";
import { DAY, get, id, kv, now, put, type StandInEvent } from "./dev-stripe-store.server";

// The Stripe stand-in's webhooks (app/dev/dev-stripe.server.ts): events recorded and sent back to the
// app signed as Stripe signs them, and the switch that stops delivering them.

const WEBHOOKS_OFF = "devstripe:webhooks-off";

/** Stops (or resumes) delivering events, as when the webhook endpoint is down: events are still recorded. */
export async function pauseWebhooks(on: boolean): Promise<void> {
  if (on) await kv().put(WEBHOOKS_OFF, "1", { expirationTtl: DAY });
  else await kv().delete(WEBHOOKS_OFF);
}

const eventKey = (evt: string) => `devstripe:event:${evt}`;

/** Signs a payload as Stripe does: t=<seconds>,v1=<hex HMAC-SHA256 of "t.payload">. */
export async function signPayload(payload: string, secret: string, t = now()): Promise<string> {
  return `t=${t},v1=${await hmacSha256Hex(secret, `${t}.${payload}`)}`;
}

function eventPayload(e: StandInEvent): string {
  return JSON.stringify({
    id: e.id,
    object: "event",
    api_version: "2026-10-28.endive",
    created: e.created,
    data: { object: e.object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: e.type,
    ...(e.account ? { account: e.account } : {}),
  });
}

/** Sends one event to the app's webhook, signed, as Stripe would; records how it was answered. */
export async function deliver(eventId: string, origin: string): Promise<number> {
  const event = await get<StandInEvent>(eventKey(eventId));
  if (!event) return 404;
  const payload = eventPayload(event);
  const secret = (env.STRIPE_WEBHOOK_SECRET ?? "").split(",")[0]?.trim() ?? "";
  const request = new Request(new URL("/api/stripe/webhook", origin), {
    method: "POST",
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Stripe-Signature": await signPayload(payload, secret),
      "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
    },
    body: payload,
  });
  let status = 0;
  try {
    // Through the Worker's own entry (Origin check, router, route) when the runtime offers it.
    const self = (loopback as unknown as { default?: { fetch(r: Request): Promise<Response> } } | undefined)?.default;
    if (self) status = (await self.fetch(request)).status;
    else {
      const { receiveStripeWebhook } = await import("~/modules/payments/payments.server");
      status = (await receiveStripeWebhook(request)).status;
    }
  } catch (error) {
    console.error("stand-in webhook delivery failed", error);
  }
  await put(eventKey(eventId), { ...event, delivered: `${status} at ${new Date().toISOString()}` });
  return status;
}

/** Records an event and delivers it after the current answer has gone (Stripe sends webhooks on its own time). */
export async function emit(type: string, object: unknown, request: Request, account: string | null): Promise<void> {
  const event: StandInEvent = { id: id("evt"), type, created: now(), account, object, delivered: null };
  await put(eventKey(event.id), event);
  if (await kv().get(WEBHOOKS_OFF)) return;
  const origin = new URL(request.url).origin;
  const later = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => deliver(event.id, origin)).then(() => undefined);
  try {
    waitUntil(later);
  } catch {
    // outside a request (a test's own code): the promise runs on regardless
  }
}
