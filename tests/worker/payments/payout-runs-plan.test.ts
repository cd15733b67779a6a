import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { payoutRunFiguresQuery } from "~/modules/payments/payout-day.server";
import { payoutListQueries } from "~/modules/payments/payouts.server";
import { db } from "~/platform/db.server";
import { payouts } from "~/db/schema";
import { and, eq, sql } from "drizzle-orm";
import { createUser } from "../../factories/users";
import { fetchApp, withCookie } from "../helpers";
import { queryPlan } from "../d1-calls";

// Decision 0333 (issue 45 §3, found by npm run bench:scale at 100,000 creators): /admin/payments listed
// the newest 500 payouts, sorted over every payout (a million at that size) and rendered as a 560 KB
// page, and its runs' progress read each run's payouts from the table. Now the page lists the payouts
// that need the admin (to mark paid, refused), 25 of each, read through indexes (every payout is in
// its run's CSV), and a run's figures are counted from one covering index, never the table.

const insertPayout = (userId: string, batch: string, cents: number, method: "manual" | "stripe", status = "pending") =>
  env.DB.prepare(
    "INSERT INTO payouts (id, user_id, batch, amount_cents, status, method, stripe_account_id, reference, paid_at, failed_at, failure_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  ).bind(
    crypto.randomUUID(),
    userId,
    batch,
    cents,
    status,
    method,
    method === "stripe" ? "acct_test" : null,
    status === "paid" ? "ref" : null,
    status === "paid" ? "2032-02-18T10:00:00.000Z" : null,
    status === "failed" ? "2032-02-18T10:00:00.000Z" : null,
    status === "failed" ? "Refused" : null,
  );

describe("the payout runs on /admin/payments at scale", () => {
  it("renders a run of many payouts as its figures and 25 payouts to act on, the rest in the CSV", async () => {
    const admin = await createUser("admin");
    const people = await Promise.all(Array.from({ length: 32 }, () => createUser("creator")));
    await env.DB.batch(people.map((p, i) => insertPayout(p.id, "2033-05", 1000 + i, i < 30 ? "manual" : "stripe", i < 30 ? "pending" : "paid")));
    const page = (await (await fetchApp("/admin/payments", withCookie(admin.cookie))).text()).replaceAll("<!-- -->", "");
    expect(page).toContain("Progress of the May 2033 run");
    expect(page.match(/name="intent" value="mark_paid"/g)?.length).toBe(25);
    expect(page).toContain("25 of 30 shown");
    expect(page).toContain("Mark all paid");
    const csv = await (await fetchApp("/admin/payments/batches/2033-05.csv", withCookie(admin.cookie))).text();
    expect(csv.trim().split("\n").length).toBe(1 + 32);
  });

  it("reads the payouts to act on through indexes, not by sorting every payout", async () => {
    const people = await Promise.all(Array.from({ length: 20 }, () => createUser("creator")));
    for (const batch of ["2034-01", "2034-02", "2034-03", "2034-04"])
      await env.DB.batch(people.map((p, i) => insertPayout(p.id, batch, 500 + i, "stripe", i === 0 ? "failed" : "paid")));
    await env.DB.exec("ANALYZE");
    const q = payoutListQueries();
    const toMarkPaid = await queryPlan(q.toMarkPaid);
    expect(toMarkPaid).toContain("payouts_method_status_idx");
    const failed = await queryPlan(q.failed);
    expect(failed).toContain("SEARCH payouts USING INDEX payouts_batch_idx (batch=? AND status=?)");
    // No scan of the table, and no sort of it: the newest runs come off payouts_batch_idx's order (a
    // skip-ahead DISTINCT over the index: three entries at 100,000 creators, 0.6 ms).
    for (const plan of [toMarkPaid, failed, await queryPlan(q.counts)]) {
      expect(plan).not.toMatch(/SCAN payouts$/m);
      expect(plan.replace("SCAN payouts USING COVERING INDEX payouts_batch_idx", "")).not.toMatch(/SCAN payouts/);
    }
    // The runs' figures: the covering index alone, in its order (no table rows, no sort).
    const figures = await queryPlan(payoutRunFiguresQuery(["2034-04", "2034-03", "2034-02"]));
    expect(figures).toContain("USING COVERING INDEX payouts_batch_figures_idx (batch=?)");
    expect(figures).not.toContain("TEMP B-TREE");
    const rows = await payoutRunFiguresQuery(["2034-04"]).all();
    expect(rows).toEqual([
      { batch: "2034-04", method: "stripe", status: "failed", held: 0, n: 1, cents: 500 },
      { batch: "2034-04", method: "stripe", status: "paid", held: 0, n: 19, cents: 19 * 500 + (19 * 20) / 2 },
    ]);
    // The payout day's queue paging still reads its run in rowid order through payouts_batch_idx (0331).
    const paging = db()
      .select({ id: payouts.id })
      .from(payouts)
      .where(and(eq(payouts.batch, "2034-04"), eq(payouts.status, "pending"), sql`rowid > ${0}`))
      .orderBy(sql`rowid`)
      .limit(10);
    expect(await queryPlan(paging)).toContain("payouts_batch_idx (batch=? AND status=? AND rowid>?)");
    const { sql: text, params } = q.failed.toSQL();
    const { meta } = await env.DB.prepare(text)
      .bind(...params)
      .run();
    // The three newest runs' failed payouts (3) and the runs' totals, not the 80 payouts.
    expect(meta.rows_read).toBeLessThan(20);
  });
});
