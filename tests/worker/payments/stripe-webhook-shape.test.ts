// Signed Stripe webhooks of the wrong shape (issue 40 §7; docs/decisions/0295): the signature is
// right but the body is not an event we can read. Each is a 400 with the reason, and nothing is
// stored (a 500 would have Stripe retry it for three days). Every method but POST is a 405 with
// Allow: POST.
import { beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../../factories/users";
import { count, fetchApp, ORIGIN } from "../helpers";
import { onboard, signedWebhook, webhookEvent } from "./stripe-helpers";

let accountId = "";

beforeAll(async () => {
  await fetchApp("/auth");
  accountId = await onboard(await createUser("creator"));
}, 180_000);

const now = () => Math.floor(Date.now() / 1000);
const evt = () => `evt_${crypto.randomUUID().replace(/-/g, "")}`;

/** Everything a webhook could have written. */
const written = async () =>
  [
    await count("SELECT count(*) AS n FROM stripe_events"),
    await count("SELECT count(*) AS n FROM security_audit_log"),
    await count("SELECT count(*) AS n FROM payouts"),
  ].join(",");

describe("a signed body that is not an event we can read", () => {
  const cases: [string, () => Promise<Response>, RegExp][] = [
    ["a JSON array", () => signedWebhook("[]"), /Not a Stripe event/],
    ["an array of events", () => signedWebhook(JSON.stringify([{ id: evt(), object: "event" }])), /Not a Stripe event/],
    ["null", () => signedWebhook("null"), /Not a Stripe event/],
    ["a string", () => signedWebhook('"evt_1"'), /Not a Stripe event/],
    ["not JSON", () => signedWebhook("{not json"), /not JSON/],
    ["an event without data", () => webhookEvent({ id: evt(), type: "account.updated", created: now(), account: accountId }), /data/],
    ["data.object null", () => webhookEvent({ id: evt(), type: "account.updated", created: now(), data: { object: null } }), /data\.object/],
    ["data.object a string", () => webhookEvent({ id: evt(), type: "account.updated", created: now(), data: { object: accountId } }), /data\.object/],
    ["an account without its id", () => webhookEvent({ id: evt(), type: "account.updated", created: now(), data: { object: {} } }), /data\.object\.id/],
    ["a transfer that is a string", () => webhookEvent({ id: evt(), type: "transfer.created", created: now(), data: { object: "tr_1" } }), /data\.object/],
    [
      "a transfer without its amount",
      () => webhookEvent({ id: evt(), type: "transfer.reversed", created: now(), data: { object: { id: "tr_1", currency: "usd" } } }),
      /amount/,
    ],
    ["data null (another type)", () => webhookEvent({ id: evt(), type: "charge.succeeded", created: now(), data: null }), /data/],
    ["an event without an id", () => webhookEvent({ type: "charge.succeeded", created: now(), data: { object: {} } }), /id/],
    ["an id that is a number", () => webhookEvent({ id: 5, type: "charge.succeeded", created: now(), data: { object: {} } }), /id/],
    ["created that is text", () => webhookEvent({ id: evt(), type: "charge.succeeded", created: "yesterday", data: { object: {} } }), /created/],
  ];
  for (const [name, send, reason] of cases) {
    it(`${name}: 400 with the reason, nothing stored`, async () => {
      const before = await written();
      const res = await send();
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(reason);
      expect(await written()).toBe(before);
    });
  }

  it("a well-formed event of a type we do not act on is still stored and acknowledged", async () => {
    const id = evt();
    const res = await webhookEvent({ id, type: "charge.succeeded", created: now(), data: { object: { id: "ch_1", object: "charge" } } });
    expect(res.status).toBe(200);
    expect(await count("SELECT count(*) AS n FROM stripe_events WHERE id = ? AND object_id = 'ch_1'", id)).toBe(1);
  });
});

describe("methods other than POST", () => {
  for (const [method, init] of [
    ["GET", {}],
    ["GET (HTML)", { headers: { Accept: "text/html" } }],
    ["HEAD", { method: "HEAD" }],
    ["PUT", { method: "PUT", body: "{}", headers: { Origin: ORIGIN } }],
    ["DELETE", { method: "DELETE", headers: { Origin: ORIGIN } }],
  ] as [string, RequestInit][]) {
    it(`${method}: 405 with Allow: POST`, async () => {
      const res = await fetchApp("/api/stripe/webhook", init);
      expect(res.status).toBe(405);
      expect(res.headers.get("Allow")).toBe("POST");
    });
  }
});
