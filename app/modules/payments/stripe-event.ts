import { z } from "zod";

// The shape of a signed Stripe event before anything reads it (docs/decisions/0295). A valid
// signature proves who sent the body, not that it is an event we can read: a JSON array, an event
// without `data`, a null or string `data.object` used to reach the code as if it were one and
// answer 500, which Stripe retries for three days (https://docs.stripe.com/webhooks#retries).
// What does not parse is a 400 with the reason, and nothing is stored.
//
// The event object: https://docs.stripe.com/api/events/object (id, object "event", type, created,
// data.object, and `account` on a connected account's event). The objects we act on:
//   account.updated     an Account (https://docs.stripe.com/api/accounts/object): its id; its
//                       state is read back from Stripe, not from the event (0297)
//   transfer.created    a Transfer (https://docs.stripe.com/api/transfers/object)
//   transfer.reversed
// Other types are stored and acknowledged: only their object's id, when it has one, is read.

/** Longest id we accept from Stripe (its ids are far shorter; this only keeps a stored row small). */
const ID_MAX = 255;

const stripeId = z.string().min(1).max(ID_MAX);

/** A JSON object: not null, not an array, not a string. */
const jsonObject = z.looseObject({});

const envelope = z.object({
  id: stripeId,
  object: z.literal("event"),
  type: z.string().min(1).max(100),
  created: z.number().int().nonnegative(),
  account: stripeId.nullish(),
  data: z.object({ object: jsonObject }),
});

const accountObject = z.looseObject({ id: stripeId, object: z.literal("account").optional() });

const transferObject = z.looseObject({
  id: stripeId,
  amount: z.number().int().nonnegative(),
  amount_reversed: z.number().int().nonnegative().default(0),
  currency: z.string().max(10),
  destination: z.union([stripeId, z.looseObject({ id: stripeId })]).nullish(),
  transfer_group: z.string().max(ID_MAX).nullish(),
  metadata: z.record(z.string(), z.string().max(500)).nullish(),
});

const otherObject = z.looseObject({ id: z.string().max(ID_MAX).optional() });

type Envelope = { id: string; type: string; created: number; account: string | null };

export type StripeEvent =
  | (Envelope & { kind: "account"; object: z.infer<typeof accountObject> })
  | (Envelope & { kind: "transfer"; object: z.infer<typeof transferObject> })
  | (Envelope & { kind: "other"; object: z.infer<typeof otherObject> });

function reasonOf(error: z.ZodError, prefix: string[] = []): string {
  const issue = error.issues[0];
  const path = [...prefix, ...(issue?.path ?? []).map(String)].join(".");
  return `Not a Stripe event we can read: ${path ? `${path}: ` : ""}${issue?.message ?? "invalid"}.`;
}

/** The event, or the reason it cannot be read (for the 400). */
export function parseStripeEvent(body: unknown): { ok: true; event: StripeEvent } | { ok: false; reason: string } {
  const e = envelope.safeParse(body);
  if (!e.success) return { ok: false, reason: reasonOf(e.error) };
  const base: Envelope = { id: e.data.id, type: e.data.type, created: e.data.created, account: e.data.account ?? null };
  const at = ["data", "object"];
  if (base.type === "account.updated") {
    const o = accountObject.safeParse(e.data.data.object);
    return o.success ? { ok: true, event: { ...base, kind: "account", object: o.data } } : { ok: false, reason: reasonOf(o.error, at) };
  }
  if (base.type === "transfer.created" || base.type === "transfer.reversed") {
    const o = transferObject.safeParse(e.data.data.object);
    return o.success ? { ok: true, event: { ...base, kind: "transfer", object: o.data } } : { ok: false, reason: reasonOf(o.error, at) };
  }
  const o = otherObject.safeParse(e.data.data.object);
  return o.success ? { ok: true, event: { ...base, kind: "other", object: o.data } } : { ok: false, reason: reasonOf(o.error, at) };
}
