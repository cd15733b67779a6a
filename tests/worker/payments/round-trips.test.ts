// /payments' D1 cost (issue 32 §3): the statement's rows, the revised share in force and the
// payout account come in a few batches. The share in force rides in the statement's batch and in
// the agreement's (with the term's start), instead of a call of its own each. Counted with
// ../d1-calls; the page must still say the share in force and the term.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser } from "../../factories/users";
import { pageRoundTrips } from "../d1-calls";

describe("/payments: the share in force rides in the page's batches", () => {
  it("a creator with lines, a revised share and a term: five D1 calls (seven before), every part on the page", async () => {
    const creator = await createUser("creator");
    const offer = (shareBp: number, effectiveMonth: string, respondedAt: string) =>
      env.DB.prepare(
        "INSERT INTO share_offers (id, user_id, share_bp, status, responded_at, effective_month, term_start) VALUES (?, ?, ?, 'accepted', ?, ?, ?)",
      ).bind(crypto.randomUUID(), creator.id, shareBp, respondedAt, effectiveMonth, `${effectiveMonth}-01`);
    await env.DB.batch([
      env.DB.prepare("UPDATE profiles SET term_started_at = '2024-03-05T10:00:00.000Z' WHERE user_id = ?").bind(creator.id),
      env.DB.prepare(
        "INSERT INTO ledger_entries (id, user_id, month, source_kind, source_id, net_cents, share_bp, amount_cents, status, note) VALUES (?, ?, '2024-04', 'adjustment', '', 0, 0, 1234, 'finalized', 'Round-trip test line')",
      ).bind(crypto.randomUUID(), creator.id),
      // 75% from 2001, then 85% from 2002 (in force now); 95% from 2999 (not yet).
      offer(7500, "2001-01", "2000-12-15T00:00:00.000Z"),
      offer(8500, "2002-01", "2001-12-15T00:00:00.000Z"),
      offer(9500, "2999-01", "2998-12-15T00:00:00.000Z"),
    ]);
    const { html, ...seen } = await pageRoundTrips("/payments", creator.cookie);
    expect(html).toContain("Your share is 85% of net revenue");
    expect(html).toContain("Round-trip test line");
    expect(html).toContain("2024-03-05");
    // Session; the statement's batch (with the share in force); the agreement's batch (with the share and the term); the payout account;
    // the campaigns domain's earnings not yet settled (issue 42 §1, decision 0321), asked at the same time as the other three.
    expect(seen.calls).toBe(5);
  });
});
