// A payout run's figures kept as its payouts change (issue 45 §3, docs/decisions/0353): at 100,000
// creators /admin/payments counted the newest three runs from payouts_batch_figures_idx on every
// load (0333: 300,000 index entries). payout_run_totals holds them, written by triggers on payouts in
// the same statement as each change. These tests change payouts the ways the app does, at once where
// it can happen at once (two queue consumers with the same messages, a message delivered again, two
// admins marking the same payout and the same run paid, a refusal that holds, a reversal), then
// compare the kept totals with a full recount; and check that the page reads the kept rows only.
import { env } from "cloudflare:workers";
import { createExecutionContext, createMessageBatch, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { refuseNextTransfer, reverseTransfer } from "~/dev/dev-stripe.server";
import { newestRunsFiguresQuery, payoutRunFiguresQuery } from "~/modules/payments/payout-day.server";
import { consumePayoutQueue, gatherChunk, type PayoutQueueMessage, payoutRunPlanFor } from "~/modules/payments/payments.server";
import { createUser, type TestUser } from "../../factories/users";
import { enabledExpressAccount } from "./stripe-helpers";
import { queryPlan } from "../d1-calls";
import { fetchApp, ORIGIN, outcome, postForm, withCookie } from "../helpers";

beforeAll(async () => {
  // The first request compiles the app inside workerd.
  await createUser("creator");
}, 180_000);

/** A creator with a finalized, unpaid balance for `month`: paid through an enabled Express account at the stand-in, or outside Stripe. */
async function payable(month: string, how: "stripe" | "manual", cents: number): Promise<TestUser> {
  const user = await createUser("creator");
  let account: D1PreparedStatement;
  if (how === "stripe") {
    const accountId = await enabledExpressAccount(user);
    account = env.DB.prepare("INSERT INTO payout_accounts (user_id, method, stripe_account_id, status) VALUES (?, 'stripe', ?, 'enabled')").bind(
      user.id,
      accountId,
    );
  } else {
    account = env.DB.prepare("INSERT INTO payout_accounts (user_id, method, manual_reason) VALUES (?, 'manual', 'Bank transfer')").bind(user.id);
  }
  await env.DB.batch([
    account,
    env.DB.prepare(
      "INSERT INTO ledger_entries (id, user_id, month, source_kind, source_id, net_cents, share_bp, amount_cents, status) VALUES (?, ?, ?, 'adjustment', '', ?, 10000, ?, 'finalized')",
    ).bind(crypto.randomUUID(), user.id, month, cents, cents),
  ]);
  return user;
}

type Figures = { batch: string; method: string; status: string; n: number; cents: number; held: number };
const byGroup = (rows: Figures[]) => [...rows].sort((a, b) => `${a.method}/${a.status}`.localeCompare(`${b.method}/${b.status}`));

/** The kept totals of a run (groups with payouts) and the full recount from payouts, in one shape. */
async function keptAndRecounted(batch: string): Promise<{ kept: Figures[]; recount: Figures[] }> {
  const kept = await env.DB.prepare("SELECT batch, method, status, payouts AS n, cents, held FROM payout_run_totals WHERE batch = ? AND payouts > 0")
    .bind(batch)
    .all<Figures>();
  const recount = await payoutRunFiguresQuery([batch]).all();
  return { kept: byGroup(kept.results), recount: byGroup(recount) };
}

const payoutsOf = (batch: string) =>
  env.DB.prepare("SELECT id, user_id, method, status, held_at, stripe_transfer_id FROM payouts WHERE batch = ?")
    .bind(batch)
    .all<{ id: string; user_id: string; method: string; status: string; held_at: string | null; stripe_transfer_id: string | null }>()
    .then((r) => r.results);

/** One consumer batch of the payout queue: a message per id (ids may repeat). */
async function consume(tag: string, ids: string[]) {
  const batch = createMessageBatch<PayoutQueueMessage>(
    "shortbeat-payouts",
    ids.map((payoutId, i) => ({ id: `${tag}${i}`, timestamp: new Date(), attempts: 1, body: { type: "payout", payoutId } })),
  );
  const ctx = createExecutionContext();
  const result = await consumePayoutQueue(batch, 0);
  await waitOnExecutionContext(ctx);
  return result;
}

// The tests share one database, in this order: the manual run is all paid before the Stripe run gathers.
describe("payout_run_totals: a run's figures kept as its payouts change", () => {
  it("equal a full recount after two admins mark the same payout paid at once and two mark the whole run paid at once", async () => {
    const batch = "2036-05";
    const payees = await Promise.all([2100, 2200, 2300, 2400].map((cents) => payable("2036-03", "manual", cents)));
    expect((await gatherChunk(await payoutRunPlanFor(batch), `payout-day-${batch}`, "")).gathered).toBe(4);
    const admins = await Promise.all([createUser("admin"), createUser("admin")]);
    const post = (a: TestUser, fields: Record<string, string>) => postForm("/admin/payments", fields, withCookie(a.cookie));
    const [first] = (await payoutsOf(batch)).filter((p) => p.user_id === payees[0]?.id);
    const single = await Promise.all(admins.map((a, i) => post(a, { intent: "mark_paid", payoutId: first?.id ?? "", reference: `ONE-${i}` })));
    expect((await Promise.all(single.map(outcome))).sort()).toEqual(["409", "→/admin/payments"]);
    let { kept, recount } = await keptAndRecounted(batch);
    expect(kept).toEqual(recount);
    expect(kept.map((g) => [g.status, g.n])).toEqual([
      ["paid", 1],
      ["pending", 3],
    ]);
    const whole = await Promise.all(admins.map((a, i) => post(a, { intent: "mark_batch_paid", batch, reference: `RUN-${i}` })));
    expect((await Promise.all(whole.map(outcome))).sort()).toEqual(["409", "→/admin/payments"]);
    ({ kept, recount } = await keptAndRecounted(batch));
    expect(kept).toEqual(recount);
    expect(kept).toEqual([{ batch, method: "manual", status: "paid", n: 4, cents: 2100 + 2200 + 2300 + 2400, held: 0 }]);
    // The page shows the run from the kept rows: 4 of 4 paid, $90.00.
    const page = (await (await fetchApp("/admin/payments", withCookie(admins[0]?.cookie ?? ""))).text()).replaceAll("<!-- -->", "");
    expect(page).toContain("Progress of the May 2036 run");
    expect(page).toContain("$90.00");
  });

  it("equal a full recount after two consumers send the same messages at once, a message comes again, a refusal holds one and a reversal fails one", async () => {
    const batch = "2036-03";
    const who = await Promise.all([1100, 1200, 1300, 1400, 1500].map((cents) => payable("2036-01", "stripe", cents)));
    expect((await gatherChunk(await payoutRunPlanFor(batch), `payout-day-${batch}`, "")).gathered).toBe(5);
    let { kept, recount } = await keptAndRecounted(batch);
    expect(kept).toEqual([{ batch, method: "stripe", status: "pending", n: 5, cents: 6500, held: 0 }]);
    expect(kept).toEqual(recount);

    const ids = (await payoutsOf(batch)).map((p) => p.id);
    const [heldId, ...rest] = ids;
    // The first transfer asked for is refused for the platform's balance: that payout is held (pending, held_at).
    await refuseNextTransfer(true, "balance_insufficient");
    await consume("h", [heldId ?? ""]);
    await refuseNextTransfer(false);
    // Two consumers with the same four messages at once (Queues deliver at least once), each twice in its batch.
    await Promise.all([consume("a", [...rest, ...rest]), consume("b", [...rest, ...rest])]);
    await vi.waitFor(async () => expect((await payoutsOf(batch)).filter((p) => p.status === "paid").length).toBe(4), { timeout: 30_000, interval: 200 });
    // The same messages again later (a retried message): nothing moves.
    await consume("c", rest);
    // A paid transfer reversed in Stripe: its payout fails by webhook (paid → failed).
    const reversed = (await payoutsOf(batch)).find((p) => p.status === "paid");
    await reverseTransfer(String(reversed?.stripe_transfer_id), new Request(ORIGIN));
    await vi.waitFor(async () => expect((await payoutsOf(batch)).filter((p) => p.status === "failed").length).toBe(1), { timeout: 30_000, interval: 200 });

    ({ kept, recount } = await keptAndRecounted(batch));
    expect(kept).toEqual(recount);
    expect(kept.map((g) => [g.status, g.n, g.held])).toEqual([
      ["failed", 1, 0],
      ["paid", 3, 0],
      ["pending", 1, 1],
    ]);
    expect(kept.reduce((s, g) => s + g.cents, 0)).toBe(6500);
    void who;
  });

  it("the page's figures are a search of the kept rows: no payout and no index entry of a run is read", async () => {
    const plan = await queryPlan(newestRunsFiguresQuery());
    expect(plan).toContain("payout_run_totals");
    expect(plan).not.toContain("payouts_batch_figures_idx");
    expect(plan).not.toMatch(/SCAN payout_run_totals/);
    const { sql, params } = newestRunsFiguresQuery().toSQL();
    const { meta } = await env.DB.prepare(sql)
      .bind(...params)
      .run();
    // Three runs' kept groups and the three newest runs' index seeks, not the runs' payouts.
    expect(meta.rows_read).toBeLessThan(30);
  });
});
