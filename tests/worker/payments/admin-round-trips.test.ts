// /admin/payments' D1 cost (issue 45 §3, docs/decisions/0352): at 100,000 creators the page read
// 7.4–8.4 ms of Worker CPU p50 (goal ≤ 5 ms), D1's client about 12 % of it for about ten round
// trips. Every statement of the page now rides in the session lookup's batch (alongsideSession,
// 0083, as /clipping does since 0347): the months and imports, the payouts to act on and their
// counts, the runs' figures (the newest three runs chosen inside the statement), the Stripe payouts
// waiting, the people paid outside Stripe, the agreements and offers, the adjustments, the admin's
// latest revenue report (with its import's status and the report it duplicates), and the people
// each list names (a statement per list, over the list's own subquery). Before: fifteen D1 calls
// for this data (each section its own batch, each list's people a second call, the runs' batches
// a call before their figures, the report's import and original one each). Counted with ../d1-calls.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser } from "../../factories/users";
import { pageRoundTrips } from "../d1-calls";
import { fetchApp, withCookie } from "../helpers";

describe("/admin/payments: the page's rows in the session's batch", () => {
  it("every section with rows: one D1 round trip, every part on the page", async () => {
    const admin = await createUser("admin");
    const manual = await createUser("creator", { fullName: "Manual Mona" });
    const refused = await createUser("creator", { fullName: "Refused Rita" });
    const held = await createUser("creator", { fullName: "Held Hugo" });
    const adjusted = await createUser("creator", { fullName: "Adjusted Ada" });
    const now = new Date().toISOString();
    const original = crypto.randomUUID();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO payout_accounts (user_id, method, manual_reason) VALUES (?, 'manual', 'Round-trip bank')").bind(manual.id),
      // The newest run (2099-12): one payout to mark paid by hand, one Stripe refused, one paid.
      env.DB.prepare("INSERT INTO payouts (id, user_id, batch, amount_cents, status, method) VALUES (?, ?, '2099-12', 4321, 'pending', 'manual')").bind(
        crypto.randomUUID(),
        manual.id,
      ),
      env.DB.prepare(
        "INSERT INTO payouts (id, user_id, batch, amount_cents, status, method, stripe_account_id, failed_at, failure_reason) VALUES (?, ?, '2099-12', 1200, 'failed', 'stripe', 'acct_rt', ?, 'Round-trip refusal')",
      ).bind(crypto.randomUUID(), refused.id, now),
      env.DB.prepare(
        "INSERT INTO payouts (id, user_id, batch, amount_cents, status, method, stripe_account_id, reference, paid_at) VALUES (?, ?, '2099-12', 800, 'paid', 'stripe', 'acct_rt', 'tr_rt', ?)",
      ).bind(crypto.randomUUID(), held.id, now),
      env.DB.prepare("INSERT INTO payment_agreements (user_id, status, held_at, held_by, hold_reason) VALUES (?, 'active', ?, ?, 'Round-trip hold')").bind(
        held.id,
        now,
        admin.id,
      ),
      env.DB.prepare(
        "INSERT INTO ledger_entries (id, user_id, month, source_kind, source_id, net_cents, share_bp, amount_cents, status, note) VALUES (?, ?, '2024-05', 'adjustment', '', 555, 10000, 555, 'finalized', 'Round-trip adjustment')",
      ).bind(crypto.randomUUID(), adjusted.id),
      // The admin's latest report, a duplicate of an earlier one (named on the page).
      env.DB.prepare(
        "INSERT INTO revenue_reports (id, month, file_name, object_key, size_bytes, part_bytes, part_count, status, created_by, created_at) VALUES (?, '2024-03', 'first-march.csv', 'k1', 10, 10, 1, 'staged', ?, '2024-04-02T10:00:00.000Z')",
      ).bind(original, admin.id),
      env.DB.prepare(
        "INSERT INTO revenue_reports (id, month, file_name, object_key, size_bytes, part_bytes, part_count, status, rows_read, duplicate_of, created_by, created_at) VALUES (?, '2024-03', 'again-march.csv', 'k2', 10, 10, 1, 'duplicate', 4242, ?, ?, ?)",
      ).bind(crypto.randomUUID(), original, admin.id, now),
    ]);

    const { html: raw, ...seen } = await pageRoundTrips("/admin/payments", admin.cookie);
    const html = raw.replaceAll("<!-- -->", "");
    expect(html).toContain("Progress of the December 2099 run");
    expect(html).toContain("Manual Mona"); // a payout to mark paid, and a person paid outside Stripe
    expect(html).toContain("Round-trip bank");
    expect(html).toContain("Refused Rita");
    expect(html).toContain("Round-trip refusal");
    expect(html).toContain("Held Hugo");
    expect(html).toContain("On hold: Round-trip hold");
    expect(html).toContain("Adjusted Ada");
    expect(html).toContain("Round-trip adjustment");
    expect(html).toContain("again-march.csv");
    expect(html).toContain("first-march.csv for March 2024, 2024-04-02");
    // The session and every statement of the page: one round trip.
    expect(seen.calls).toBe(1);
    expect(seen.statements).toBeGreaterThanOrEqual(15);
  });

  it("is still the admin's alone: a creator is turned away and sees none of it", async () => {
    const creator = await createUser("creator");
    const res = await fetchApp("/admin/payments", withCookie(creator.cookie));
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dashboard");
    expect(await res.text()).not.toContain("Payout");
  });
});
