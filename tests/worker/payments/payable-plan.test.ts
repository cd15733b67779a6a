import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { amountSum, payableWhere } from "~/modules/payments/balances.server";
import { gatherQueries, nextBalancesQuery } from "~/modules/payments/payout-run.server";
import { db } from "~/platform/db.server";
import { createUser } from "../../factories/users";
import { queryPlan } from "../d1-calls";

// Decision 0338 (issue 45 §3, found by npm run bench:scale at 100,000 creators): a person's payable
// balance (the dashboard's money card, /payments) reads that person's entries, not every unpaid
// entry of everyone. `payout_id is null` holds for all of those, and once SQLite has statistics for
// the table (ANALYZE: D1 databases get them, as PRAGMA optimize gives them) it chose the payout_id
// index for it: 200,018 rows read per page at 100,000 creators.

/** As at scale: each person's year is ten paid months (each in its own payout) and two finalized months unpaid; `n` others and `me`. */
async function aYearEach(n: number, me: string): Promise<string[]> {
  const others = await Promise.all(Array.from({ length: n }, () => createUser("creator")));
  const statements: D1PreparedStatement[] = [];
  for (const person of [...others.map((o) => o.id), me]) {
    for (let k = 0; k < 12; k++) {
      const month = `2029-${String(k + 1).padStart(2, "0")}`;
      const payout = k < 10 ? crypto.randomUUID() : null;
      if (payout)
        statements.push(
          env.DB.prepare(
            "INSERT INTO payouts (id, user_id, batch, amount_cents, status, reference, paid_at) VALUES (?, ?, ?, 700, 'paid', 'bank', '2030-01-18T10:00:00.000Z')",
          ).bind(payout, person, month),
        );
      statements.push(
        env.DB.prepare(
          "INSERT INTO ledger_entries (id, user_id, month, source_kind, source_id, net_cents, share_bp, amount_cents, status, payout_id) VALUES (?, ?, ?, 'adjustment', ?, 1000, 7000, 700, ?, ?)",
        ).bind(crypto.randomUUID(), person, month, `src-${k}`, payout ? "paid" : "finalized", payout),
      );
    }
  }
  await env.DB.batch(statements);
  // The table's statistics, as a D1 database has them once optimized.
  await env.DB.exec("ANALYZE");
  return others.map((o) => o.id);
}

describe("the payable balance reads one person's entries", () => {
  it("uses the person's (user_id, month) index and reads their rows only, however many unpaid entries others have", async () => {
    const me = await createUser("creator");
    await aYearEach(40, me.id);

    const query = db()
      .select({ payable: amountSum(payableWhere(me.id)) })
      .from(sql`(select 1)`);
    const { sql: text, params } = query.toSQL();
    const plan = await queryPlan(query);
    expect(plan).toContain("ledger_entries_user_month_idx");
    expect(plan).not.toContain("ledger_entries_payout_idx");

    const result = await env.DB.prepare(text)
      .bind(...params)
      .raw();
    expect(result[0]?.[0]).toBe(1400);
    const { meta } = await env.DB.prepare(text)
      .bind(...params)
      .run();
    // My dozen entries (and the live-import lookup), not the 80 unpaid ones of the others.
    expect(meta.rows_read).toBeLessThan(40);
  });

  // The payout day's gather (issue 45, 100,000 creators): each of a chunk's statements read every
  // unpaid entry of everyone through ledger_entries_payout_idx (545 ms each at 100,000; ~13 min to
  // gather). Each now reads the chunk's people's rows through (user_id, month).
  it("the payout day's gather reads the chunk's people's entries through (user_id, month), not every unpaid entry", async () => {
    const me = await createUser("creator");
    const others = await aYearEach(40, me.id);
    const plan = { batch: "2029-14", payoutDate: "2030-02-18", minimumCents: 1000 };
    const statements = gatherQueries(others.slice(0, 5), "manual", "payout-day-plan-test", plan, 1000) as unknown as {
      toSQL(): { sql: string; params: unknown[] };
    }[];
    expect(statements.length).toBe(2);
    for (const q of [nextBalancesQuery("", 1000, 10), ...statements]) {
      // The first line is how the statement reads ledger_entries (the INSERT's second line is a
      // lookup of the new payout's id in the payout_id index, one row).
      const first = (await queryPlan(q)).split("\n")[0];
      expect(first).toContain("ledger_entries_user_month_idx");
      expect(first).not.toContain("ledger_entries_payout_idx");
    }
  });
});
