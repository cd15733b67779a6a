// The payout day as a Workflow and a Queue (issue 45 §2, docs/decisions/0331), on the real local
// bindings: the Workflow gathers a chunk of people per step and queues the run's Stripe payouts; the
// queue consumer sends each transfer through the stand-in with the same guarded claim and key as
// before; the stand-in's signed webhook marks each paid. A run killed half-way and started again, a
// message delivered twice and a cron that starts the day twice each pay every person exactly once.
import { env } from "cloudflare:workers";
import {
  createExecutionContext,
  createMessageBatch,
  getQueueResult,
  introspectWorkflow,
  introspectWorkflowInstance,
  waitOnExecutionContext,
} from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { pauseWebhooks, standInState } from "~/dev/dev-stripe.server";
import { consumePayoutQueue, gatherChunk, type PayoutQueueMessage, payoutRunPlanFor, startPayoutDay } from "~/modules/payments/payments.server";
import { createUser, type TestUser } from "../../factories/users";
import { enabledExpressAccount } from "./stripe-helpers";
import { d1Calls } from "../d1-calls";
import { fetchApp, outcome, postForm, withCookie } from "../helpers";

type Person = TestUser & { accountId: string };

beforeAll(async () => {
  // The first request compiles the app inside workerd.
  await createUser("creator");
}, 180_000);

/** A creator with an enabled Express account at the stand-in and a finalized, unpaid balance. */
async function payablePerson(cents = 2500): Promise<Person> {
  const user = await createUser("creator");
  const accountId = await enabledExpressAccount(user);
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO payout_accounts (user_id, method, stripe_account_id, status) VALUES (?, 'stripe', ?, 'enabled') ON CONFLICT (user_id) DO UPDATE SET stripe_account_id = excluded.stripe_account_id, status = 'enabled'",
    ).bind(user.id, accountId),
    env.DB.prepare(
      "INSERT INTO ledger_entries (id, user_id, month, source_kind, source_id, net_cents, share_bp, amount_cents, status) VALUES (?, ?, '2030-12', 'adjustment', '', ?, 10000, ?, 'finalized')",
    ).bind(crypto.randomUUID(), user.id, cents, cents),
  ]);
  return { ...user, accountId };
}

const people = (n: number) => Promise.all(Array.from({ length: n }, () => payablePerson()));

async function transfersTo(accountId: string): Promise<number> {
  return (await standInState()).transfers.filter((t) => t.destination === accountId).length;
}

const payoutsOf = (batch: string) =>
  env.DB.prepare("SELECT id, user_id, status, amount_cents FROM payouts WHERE batch = ? ORDER BY user_id")
    .bind(batch)
    .all<{ id: string; user_id: string; status: string; amount_cents: number }>()
    .then((r) => r.results);

/** Every person: one payout of the run, paid, and one transfer at the stand-in. */
async function expectPaidOnce(batch: string, who: Person[]) {
  await vi.waitFor(
    async () => {
      const rows = await payoutsOf(batch);
      for (const p of who) expect(rows.filter((r) => r.user_id === p.id).map((r) => r.status)).toEqual(["paid"]);
    },
    { timeout: 60_000, interval: 250 },
  );
  for (const p of who) expect(await transfersTo(p.accountId)).toBe(1);
  const unpaid = await env.DB.prepare(`SELECT count(*) AS n FROM ledger_entries WHERE user_id IN (${who.map(() => "?").join(",")}) AND status <> 'paid'`)
    .bind(...who.map((p) => p.id))
    .first<{ n: number }>();
  expect(unpaid?.n).toBe(0);
}

describe("the payout day as a Workflow", () => {
  it("gathers a chunk of people per step, queues the Stripe payouts, and pays everyone once", async () => {
    const who = await people(7);
    const id = "payout-day-2031-01";
    await using instance = await introspectWorkflowInstance(env.PAYOUT_DAY, id);
    await env.PAYOUT_DAY.create({ id, params: { batch: "2031-01", gather: true, peoplePerChunk: 3, payoutsPerEnqueue: 4 } });
    await instance.waitForStatus("complete");
    // Three gather steps (3 + 3 + 1 people), each returning a cursor and counts, not ids.
    const first = await instance.waitForStepResult({ name: "gather after start" });
    expect(first).toEqual({ next: expect.any(String), people: 3, gathered: 3, waitingForStripe: 0 });
    expect(await instance.getOutput()).toMatchObject({ batch: "2031-01", people: 7, gathered: 7, enqueued: 7, payouts: 7, totalCents: 7 * 2500 });
    await expectPaidOnce("2031-01", who);
  });

  it("killed half-way through gathering, then run again by a fresh instance: each person paid exactly once, nobody forgotten", async () => {
    const who = await people(7);
    const sorted = who.map((p) => p.id).sort();
    const killed = "payout-day-2031-02";
    await using dying = await introspectWorkflowInstance(env.PAYOUT_DAY, killed);
    // The second gather step fails on every attempt: the instance stops after the first chunk.
    await dying.modify(async (m) => {
      await m.disableRetryDelays();
      await m.mockStepError({ name: `gather after ${sorted[2]}` }, new Error("killed"));
    });
    await env.PAYOUT_DAY.create({ id: killed, params: { batch: "2031-02", gather: true, peoplePerChunk: 3 } });
    await dying.waitForStatus("errored");
    const half = await payoutsOf("2031-02");
    expect(half.map((r) => r.user_id)).toEqual(sorted.slice(0, 3));
    expect(half.every((r) => r.status === "pending")).toBe(true);
    for (const p of who) expect(await transfersTo(p.accountId)).toBe(0);

    // A fresh instance of the same run (another id, another token) finishes it.
    const rerun = "payout-day-2031-02-rerun";
    await using again = await introspectWorkflowInstance(env.PAYOUT_DAY, rerun);
    await env.PAYOUT_DAY.create({ id: rerun, params: { batch: "2031-02", gather: true, peoplePerChunk: 3 } });
    await again.waitForStatus("complete");
    expect(await again.getOutput()).toMatchObject({ gathered: 4, enqueued: 7 });
    await expectPaidOnce("2031-02", who);
    expect((await payoutsOf("2031-02")).length).toBe(7);
  });

  it("a message delivered twice, in one batch or again later, sends one transfer", async () => {
    const who = await people(3);
    const plan = await payoutRunPlanFor("2031-04");
    // Gathered by a step whose messages are then delivered twice each (Queues deliver at least once).
    expect((await gatherChunk(plan, "payout-day-2031-04", "")).gathered).toBe(3);
    const ids = (await payoutsOf("2031-04")).map((r) => r.id);
    const deliver = async (tag: string) => {
      const batch = createMessageBatch<PayoutQueueMessage>(
        "shortbeat-payouts",
        [...ids, ...ids].map((payoutId, i) => ({ id: `${tag}${i}`, timestamp: new Date(), attempts: 1, body: { type: "payout", payoutId } })),
      );
      const ctx = createExecutionContext();
      const result = await consumePayoutQueue(batch, 0);
      await waitOnExecutionContext(ctx);
      return { result, acks: (await getQueueResult(batch, ctx)).explicitAcks.length };
    };
    const first = await deliver("a");
    expect(first.result).toMatchObject({ sent: 3, skipped: 3, failed: 0, unknown: 0 });
    expect(first.acks).toBe(6);
    const second = await deliver("b");
    expect(second.result).toMatchObject({ sent: 0, skipped: 6 });
    await expectPaidOnce("2031-04", who);
  });

  it("the cron starting the payout day twice (a retried cron, a second day) starts one run, which pays each person once", async () => {
    const who = await people(3);
    await using workflows = await introspectWorkflow(env.PAYOUT_DAY);
    // 2031-03-18 is a Tuesday: the 19th and 20th are on and after the payout date.
    const first = await startPayoutDay(new Date("2031-03-19T03:17:00Z"));
    expect(first).toMatchObject({ batch: "2031-03", started: true });
    const again = await Promise.all([startPayoutDay(new Date("2031-03-19T03:18:00Z")), startPayoutDay(new Date("2031-03-20T03:17:00Z"))]);
    expect(again.map((s) => [s.batch, s.started])).toEqual([
      ["2031-03", false],
      ["2031-03", false],
    ]);
    const instances = await workflows.get();
    expect(instances.length).toBe(1);
    await instances[0]?.waitForStatus("complete");
    await expectPaidOnce("2031-03", who);
  });

  it("the admin sees a run's progress, and two admins retrying at once start one retry that pays each once", async () => {
    const who = await people(3);
    // A run stopped after gathering (its payouts never reached the queue).
    expect((await gatherChunk(await payoutRunPlanFor("2031-05"), "payout-day-2031-05", "")).gathered).toBe(3);
    const [a, b] = await Promise.all([createUser("admin"), createUser("admin")]);
    const page = (await (await fetchApp("/admin/payments", withCookie(a.cookie))).text()).replaceAll("<!-- -->", "");
    expect(page).toContain("Progress of the May 2031 run");
    expect(page).toContain("Retry waiting and unconfirmed payouts");

    await using workflows = await introspectWorkflow(env.PAYOUT_DAY);
    const retry = (admin: TestUser) => postForm("/admin/payments", { intent: "retry_payouts", batch: "2031-05" }, withCookie(admin.cookie));
    const answers = await Promise.all([retry(a), retry(b)]);
    expect((await Promise.all(answers.map(outcome))).sort()).toEqual(["409", "→/admin/payments"]);
    const instances = await workflows.get();
    expect(instances.length).toBe(1);
    await instances[0]?.waitForStatus("complete");
    await expectPaidOnce("2031-05", who);
    const audited = await env.DB.prepare("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'payout_run_retried'").first<{ n: number }>();
    expect(audited?.n).toBe(1);
    // Nothing is left to retry: the button is gone and a further retry is refused.
    expect(await (await fetchApp("/admin/payments", withCookie(a.cookie))).text()).not.toContain("Retry waiting and unconfirmed payouts");
    expect(await outcome(await retry(a))).toBe("409");
  });

  it("a month's run that ended errored is restarted by the next cron, once even when two crons run at once, and pays each person once", async () => {
    const who = await people(3);
    const id = "payout-day-2031-06";
    await using dying = await introspectWorkflowInstance(env.PAYOUT_DAY, id);
    // A real failure, not a mocked step (a mock would fail the restarted instance too): while the
    // payout accounts' table is away, the first gather step fails on every attempt and the instance
    // ends "errored" with nobody gathered (its retries exhausted; no delays between them here).
    await dying.modify(async (m) => {
      await m.disableRetryDelays();
    });
    await env.DB.exec("ALTER TABLE payout_accounts RENAME TO payout_accounts_away");
    // 2031-06-18 is a Wednesday: the cron of the 18th creates the month's instance.
    expect(await startPayoutDay(new Date("2031-06-18T03:17:00Z"))).toMatchObject({ batch: "2031-06", started: true });
    try {
      await dying.waitForStatus("errored");
    } finally {
      await env.DB.exec("ALTER TABLE payout_accounts_away RENAME TO payout_accounts");
    }
    expect(await payoutsOf("2031-06")).toEqual([]);

    // The 19th's cron, twice at once (a retried cron): the errored instance is restarted once.
    const next = await Promise.all([startPayoutDay(new Date("2031-06-19T03:17:00Z")), startPayoutDay(new Date("2031-06-19T03:17:01Z"))]);
    await vi.waitFor(async () => expect((await (await env.PAYOUT_DAY.get(id)).status()).status).toBe("complete"), { timeout: 30_000, interval: 250 });
    expect(next.map((s) => [s.started, s.restarted]).sort()).toEqual([
      [false, false],
      [false, true],
    ]);
    await expectPaidOnce("2031-06", who);
    const audited = await env.DB.prepare("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'payout_run_restarted'").first<{ n: number }>();
    expect(audited?.n).toBe(1);
    // Complete, nothing left: the 20th's cron neither starts nor restarts anything.
    expect(await startPayoutDay(new Date("2031-06-20T03:17:00Z"))).toMatchObject({ started: false, restarted: false });
  });

  it('the admin\'s "Send waiting transfers now" puts the waiting payouts on the paced queue instead of sending them from the request', async () => {
    const who = await people(4);
    expect((await gatherChunk(await payoutRunPlanFor("2031-08"), "payout-day-2031-08", "")).gathered).toBe(4);
    const admin = await createUser("admin");
    const answer = await postForm("/admin/payments", { intent: "send_transfers" }, withCookie(admin.cookie));
    expect(await outcome(answer)).toBe("→/admin/payments");
    // The request sent nothing itself (it used to send up to 400 transfers, 6 at a time, outside the
    // queue's pace): every payout is still waiting, no transfer exists yet.
    expect((await payoutsOf("2031-08")).map((r) => r.status)).toEqual(["pending", "pending", "pending", "pending"]);
    for (const p of who) expect(await transfersTo(p.accountId)).toBe(0);
    // The queue's consumer (paced by PAYOUT_TRANSFERS_PER_SECOND) sends each once.
    await expectPaidOnce("2031-08", who);
    const audited = await env.DB.prepare("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'payout_transfers_queued'").first<{ n: number }>();
    expect(audited?.n).toBe(1);
  });

  it("paces a batch by PAYOUT_TRANSFERS_PER_SECOND (n × 2 consumers / pace), and a bad value falls back to 16 a second and says so", async () => {
    const batchOf = (n: number, tag: string) =>
      createMessageBatch<PayoutQueueMessage>(
        "shortbeat-payouts",
        Array.from({ length: n }, (_, i) => ({ id: `${tag}${i}`, timestamp: new Date(), attempts: 1, body: { type: "payout", payoutId: `none-${tag}${i}` } })),
      );
    const timed = async (n: number, tag: string) => {
      const began = Date.now();
      const result = await consumePayoutQueue(batchOf(n, tag));
      return { ms: Date.now() - began, result };
    };
    // wrangler.toml's 16 a second: 4 messages × 2 consumers / 16 = 500 ms (nothing to send: every message skipped).
    expect(env.PAYOUT_TRANSFERS_PER_SECOND).toBe("16");
    const base = await timed(4, "p");
    expect(base.result).toMatchObject({ sent: 0, skipped: 4 });
    expect(base.ms).toBeGreaterThanOrEqual(500);
    const original = env.PAYOUT_TRANSFERS_PER_SECOND;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      // A raised account's 80 a second: 4 × 2 / 80 = 100 ms.
      env.PAYOUT_TRANSFERS_PER_SECOND = "80";
      const fast = await timed(4, "f");
      expect(fast.ms).toBeGreaterThanOrEqual(100);
      expect(fast.ms).toBeLessThan(450);
      // A typo: the default pace again (500 ms), and the log says why, once.
      env.PAYOUT_TRANSFERS_PER_SECOND = "16 per second";
      const bad = await timed(4, "b");
      await timed(1, "c");
      expect(bad.ms).toBeGreaterThanOrEqual(500);
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
        'PAYOUT_TRANSFERS_PER_SECOND="16 per second" is not a number from 1 to 1000: paying at the default 16 per second',
      ]);
    } finally {
      env.PAYOUT_TRANSFERS_PER_SECOND = original;
      warn.mockRestore();
    }
  });

  // Last: it leaves a payout claimed elsewhere (processing), which the admin test's page would offer to retry.
  it("a batch's waiting payouts are claimed in one statement and sent side by side: each once, twins and payouts claimed elsewhere skipped", async () => {
    // In user id order, as payoutsOf lists the payouts.
    const who = (await people(6)).sort((x, y) => (x.id < y.id ? -1 : 1));
    const plan = await payoutRunPlanFor("2031-07");
    expect((await gatherChunk(plan, "payout-day-2031-07", "")).gathered).toBe(6);
    const ids = (await payoutsOf("2031-07")).map((r) => r.id);
    // Another consumer (or run) claimed the last one a moment ago: this batch must not send it.
    const elsewhere = ids[5] as string;
    await env.DB.prepare("UPDATE payouts SET status = 'processing', sent_at = ? WHERE id = ?").bind(new Date().toISOString(), elsewhere).run();
    // Ten messages: every payout once, and the first two twice (Queues deliver at least once).
    const names = [...ids, ids[0], ids[1], ids[0], ids[1]] as string[];
    const batch = createMessageBatch<PayoutQueueMessage>(
      "shortbeat-payouts",
      names.map((payoutId, i) => ({ id: `c${i}`, timestamp: new Date(), attempts: 1, body: { type: "payout", payoutId } })),
    );
    const ctx = createExecutionContext();
    const result = await consumePayoutQueue(batch, 0);
    await waitOnExecutionContext(ctx);
    expect(result).toMatchObject({ sent: 5, skipped: 5, failed: 0, unknown: 0 });
    expect((await getQueueResult(batch, ctx)).explicitAcks.length).toBe(10);
    // All five claimed by the one statement: the same sent_at; each transfer under its own key.
    const rows = await env.DB.prepare("SELECT id, sent_at FROM payouts WHERE batch = '2031-07' AND id <> ?")
      .bind(elsewhere)
      .all<{ id: string; sent_at: string }>();
    expect(new Set(rows.results.map((r) => r.sent_at)).size).toBe(1);
    for (const id of ids.slice(0, 5)) expect(await env.RATE_LIMITS.get(`devstripe:idem:payout-${id}`)).not.toBeNull();
    await expectPaidOnce("2031-07", who.slice(0, 5));
    expect(await transfersTo((who[5] as Person).accountId)).toBe(0);
    expect((await payoutsOf("2031-07")).find((r) => r.id === elsewhere)?.status).toBe("processing");
  });
  it("a batch's sent transfers are recorded in one D1 batch: three D1 calls for a batch of six (eight before, one write per transfer), each id on its payout", async () => {
    const who = await people(7);
    expect((await gatherChunk(await payoutRunPlanFor("2031-09"), "payout-day-2031-09", "")).gathered).toBe(7);
    const all = (await payoutsOf("2031-09")).map((r) => r.id);
    const ids = all.slice(0, 6);
    const messages = (names: string[], tag: string) =>
      createMessageBatch<PayoutQueueMessage>(
        "shortbeat-payouts",
        names.map((payoutId, i) => ({ id: `${tag}${i}`, timestamp: new Date(), attempts: 1, body: { type: "payout", payoutId } })),
      );
    const batch = messages(ids, "r");
    // The webhooks held back, so that only the consumer's own D1 calls are counted; the seventh
    // payout sent first, so that what an isolate does once (the Stripe client, the stand-in's
    // first request) is done before the count.
    await pauseWebhooks(true);
    try {
      expect(await consumePayoutQueue(messages(all.slice(6), "w"), 0)).toMatchObject({ sent: 1 });
      let result: Awaited<ReturnType<typeof consumePayoutQueue>> | undefined;
      const seen = await d1Calls(async () => {
        result = await consumePayoutQueue(batch, 0);
      });
      expect(result).toMatchObject({ sent: 6, skipped: 0, failed: 0, unknown: 0 });
      // The rows, the claim, the transfer ids in one batch: 3 (was 2 + one write per transfer = 8).
      expect(seen.calls).toBe(3);
      const rows = await env.DB.prepare("SELECT id, status, stripe_transfer_id FROM payouts WHERE batch = '2031-09' AND id <> ?").bind(all[6]).all<{
        id: string;
        status: string;
        stripe_transfer_id: string | null;
      }>();
      const transfers = (await standInState()).transfers;
      for (const r of rows.results) {
        expect(r.status).toBe("processing");
        expect(transfers.filter((t) => t.transfer_group === r.id).map((t) => t.id)).toEqual([r.stripe_transfer_id]);
      }
      expect(rows.results.length).toBe(6);
      for (const p of who) expect(await transfersTo(p.accountId)).toBe(1);
    } finally {
      await pauseWebhooks(false);
    }
  });
});
