// Connected accounts (issue 40): one Express account per person however many "Set up payouts" run at
// once (docs/decisions/0296), and the stored status is the account's state read back from Stripe,
// whatever order its account.updated events arrive in (0297).
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { setAccountState, standInState } from "~/dev/dev-stripe.server";
import { createUser } from "../../factories/users";
import { count, fetchApp, ORIGIN, redirectTarget } from "../helpers";
import { accountOf, onboard, onPayments, webhookEvent } from "./stripe-helpers";
import { present } from "../../helpers/present";

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

describe("one connected account per person", () => {
  it("four parallel 'Set up payouts' with four countries create exactly one Express account; every request gets its onboarding", async () => {
    const c = await createUser("creator");
    const answers = await Promise.all(["US", "GB", "CA", "DE"].map((country) => onPayments(c, { intent: "connect_payouts", country })));
    const accounts = (await standInState()).accounts.filter((a) => a.metadata.user_id === c.id);
    expect(accounts).toHaveLength(1);
    const row = await accountOf(c.id);
    expect(row).toMatchObject({ method: "stripe", stripe_account_id: present(accounts[0], "the stand-in account").id, status: "needs_information" });
    // Each request either continues to Stripe's onboarding of that one account or is told why not (never a second account).
    for (const res of answers) {
      const target = await redirectTarget(res);
      if (target) expect(target).toMatch(/^\/dev\/stripe\/onboarding\/link_/);
      else expect(await res.text()).toContain("Your payout account is being set up by another request");
    }
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'payout_account_created' AND target_user_id = ?", c.id)).toBe(1);
    // Later clicks (any country) continue with the same account.
    expect(await redirectTarget(await onPayments(c, { intent: "connect_payouts", country: "FR" }))).toMatch(/^\/dev\/stripe\/onboarding\/link_/);
    expect((await standInState()).accounts.filter((a) => a.metadata.user_id === c.id)).toHaveLength(1);
    expect(await env.DB.prepare("SELECT account_claim FROM payout_accounts WHERE user_id = ?").bind(c.id).first()).toEqual({ account_claim: null });
  });
});
