import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { manualPayeesQuery } from "~/modules/payments/payout-accounts.server";
import { createUser } from "../../factories/users";
import { fetchApp, withCookie } from "../helpers";
import { queryPlan } from "../d1-calls";

// Decision 0349 (issue 45 §3, npm run bench:scale at 100,000 creators): /admin/payments lists the
// people paid outside Stripe (payout-accounts.server manualPayeesQuery: `payout_accounts where method =
// 'manual'`, a few people) and read every payout account for it: SCAN payout_accounts, 100,000
// rows and 42 ms in SQLite on every load. payout_accounts_method_idx (migration 0039) finds them.

describe("the people paid outside Stripe on /admin/payments", () => {
  it("are read through payout_accounts_method_idx, not by reading every payout account", async () => {
    const admin = await createUser("admin");
    const stripe = await Promise.all(Array.from({ length: 150 }, () => createUser("creator")));
    const manual = await Promise.all(Array.from({ length: 2 }, () => createUser("creator", { fullName: "Paid By Hand" })));
    await env.DB.batch([
      ...stripe.map((p, i) =>
        env.DB.prepare("INSERT INTO payout_accounts (user_id, method, stripe_account_id, status) VALUES (?, 'stripe', ?, 'enabled')").bind(
          p.id,
          `acct_plan${i}`,
        ),
      ),
      ...manual.map((p) => env.DB.prepare("INSERT INTO payout_accounts (user_id, method, manual_reason) VALUES (?, 'manual', 'Bank transfer')").bind(p.id)),
    ]);
    await env.DB.exec("ANALYZE");

    // The manual payees' statement (startManualPayees builds it once from this).
    const query = manualPayeesQuery();
    const plan = await queryPlan(query);
    const { sql: text, params } = query.toSQL();
    expect(plan).toContain("USING INDEX payout_accounts_method_idx (method=?)");
    const { results, meta } = await env.DB.prepare(text)
      .bind(...params)
      .run();
    expect(results.length).toBeGreaterThanOrEqual(2);
    // The manual accounts (and any other test's), not the 150 paid through Stripe.
    expect(meta.rows_read).toBeLessThan(50);

    // The page still lists them.
    const page = await (await fetchApp("/admin/payments", withCookie(admin.cookie))).text();
    for (const p of manual) expect(page).toContain(p.email);
  });
});
