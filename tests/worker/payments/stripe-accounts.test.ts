// Connected accounts (issue 40): one Express account per person however many "Set up payouts" run at
// once (docs/decisions/0296), and the stored status is the account's state read back from Stripe,
// whatever order its account.updated events arrive in (0297).
import { beforeAll, describe, expect, it, vi } from "vitest";
import { setAccountState } from "~/dev/dev-stripe.server";
import { createUser } from "../../factories/users";
import { count, fetchApp, ORIGIN } from "../helpers";
import { accountOf, onboard, webhookEvent } from "./stripe-helpers";

beforeAll(async () => {
  await fetchApp("/auth");
}, 180_000);

const evt = () => `evt_${crypto.randomUUID().replace(/-/g, "")}`;
const ENABLED = { details_submitted: true, payouts_enabled: true, capabilities: { transfers: "active" }, requirements: { currently_due: [], past_due: [] } };
const RESTRICTED = {
  details_submitted: true,
  payouts_enabled: false,
  capabilities: { transfers: "inactive" },
  requirements: { currently_due: ["individual.id_number"], past_due: ["individual.id_number"], disabled_reason: "requirements.past_due" },
};

describe("account.updated events out of order", () => {
  it("stores the account as Stripe has it, not what the last delivered event says", async () => {
    const c = await createUser("creator");
    const accountId = await onboard(c);
    expect((await accountOf(c.id))?.status).toBe("enabled");
    await vi.waitFor(async () => expect(await count("SELECT count(*) AS n FROM stripe_events WHERE account = ?", accountId)).toBeGreaterThan(0), {
      timeout: 10_000,
    });

    // At Stripe the account becomes restricted; its event (the newer one) is delivered first…
    await setAccountState(accountId, "restricted", new Request(ORIGIN));
    await vi.waitFor(async () => expect((await accountOf(c.id))?.status).toBe("restricted"), { timeout: 10_000 });
    const second = Math.floor(Date.now() / 1000);
    const newer = await webhookEvent({
      id: evt(),
      type: "account.updated",
      created: second,
      account: accountId,
      data: { object: { id: accountId, object: "account", ...RESTRICTED } },
    });
    expect(newer.status).toBe(200);
    // …and the older one (same second, still "enabled") arrives after it.
    const older = await webhookEvent({
      id: evt(),
      type: "account.updated",
      created: second,
      account: accountId,
      data: { object: { id: accountId, object: "account", ...ENABLED } },
    });
    expect(older.status).toBe(200);
    expect(await accountOf(c.id)).toMatchObject({ status: "restricted", status_reason: "Stripe needs more information before it can pay you." });

    // The other way round: Stripe has it enabled again, a stale "restricted" event arrives last.
    await setAccountState(accountId, "complete", new Request(ORIGIN));
    await vi.waitFor(async () => expect((await accountOf(c.id))?.status).toBe("enabled"), { timeout: 10_000 });
    const stale = await webhookEvent({
      id: evt(),
      type: "account.updated",
      created: Math.floor(Date.now() / 1000) + 60,
      account: accountId,
      data: { object: { id: accountId, object: "account", ...RESTRICTED } },
    });
    expect(stale.status).toBe(200);
    expect((await accountOf(c.id))?.status).toBe("enabled");
  });
});
