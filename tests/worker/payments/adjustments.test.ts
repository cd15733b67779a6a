// Adjustments (issue 29, decision 0223): an admin's credit or debit for a person and month with a
// reason; audited, e-mailed, on the statement and its CSV, paid with the next payout, added once
// however often the form is sent; and a person's whole payments records for the privacy export.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { paymentRecordsOf, runPayoutDay } from "~/modules/payments/payments.server";
import { actorFor } from "../../factories/actors";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, outcome, postForm, withCookie } from "../helpers";

let admin: TestUser;
let creator: TestUser;

beforeAll(async () => {
  admin = await createUser("admin");
  creator = await createUser("creator", { fullName: "Ada Adjusted" });
  // Paid outside Stripe, so the payout day gathers them without a Stripe account.
  await env.DB.prepare("INSERT INTO payout_accounts (user_id, method, manual_reason) VALUES (?, 'manual', 'test')").bind(creator.id).run();
  await fetchApp("/auth");
}, 180_000);

const adjust = (fields: Record<string, string>) =>
  postForm(
    "/admin/payments",
    { intent: "adjust", token: crypto.randomUUID(), person: creator.email, month: "2025-02", direction: "credit", reason: "Late claim", ...fields },
    withCookie(admin.cookie),
  );

describe("adjustments", () => {
  it("adds a credit once for two clicks; audited, e-mailed, on the statement and CSV, paid with the next payout", async () => {
    const token = crypto.randomUUID();
    const both = await Promise.all([adjust({ token, amount: "12.5" }), adjust({ token, amount: "12.5" })]);
    expect((await Promise.all(both.map(outcome))).sort()).toEqual(["409", "→/admin/payments"]);
    const entry = await env.DB.prepare("SELECT source_kind, amount_cents, net_cents, share_bp, status, note, month FROM ledger_entries WHERE id = ?")
      .bind(token)
      .first();
    expect(entry).toEqual({
      source_kind: "adjustment",
      amount_cents: 1250,
      net_cents: 1250,
      share_bp: 10000,
      status: "finalized",
      note: "Late claim",
      month: "2025-02",
    });
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'payment_adjustment_added' AND instr(details, ?) > 0", token)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'payment_adjustment'", creator.email)).toBe(1);
    const page = await (await fetchApp("/payments?month=2025-02", withCookie(creator.cookie))).text();
    expect(page).toContain("Adjustment: Late claim");
    expect(page).toContain("$12.50");
    expect(await (await fetchApp("/payments/statement.csv", withCookie(creator.cookie))).text()).toContain(
      "2025-02,Adjustment: Late claim,,12.50,100.00,12.50,USD,finalized",
    );
    expect(await (await fetchApp("/admin/payments", withCookie(admin.cookie))).text()).toContain("Late claim");

    await runPayoutDay(new Date("2025-03-18T04:00:00Z"));
    const payout = await env.DB.prepare("SELECT amount_cents, method FROM payouts WHERE user_id = ?").bind(creator.id).first();
    expect(payout).toEqual({ amount_cents: 1250, method: "manual" });
  });

  it("refuses bad amounts, a future month, an unknown person and non-admins, writing nothing", async () => {
    const before = await count("SELECT count(*) AS n FROM ledger_entries");
    for (const [fields, message] of [
      [{ amount: "12.345" }, "Amount must be in dollars and cents"],
      [{ amount: "0" }, "Amount must be between $0.01 and $1,000,000."],
      [{ amount: "-5" }, "Amount must be in dollars and cents"],
      [{ amount: "5", month: "2999-01" }, "An adjustment is for this month or an earlier one."],
      [{ amount: "5", person: "nobody-here@example.com" }, "No account has that e-mail or creator ID."],
      [{ amount: "5", reason: " " }, "Reason is required."],
    ] as const) {
      const res = await adjust(fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(await res.text()).toContain(message);
    }
    expect(
      await outcome(
        await postForm(
          "/admin/payments",
          { intent: "adjust", token: crypto.randomUUID(), person: creator.email, month: "2025-02", direction: "credit", amount: "5", reason: "x" },
          withCookie(creator.cookie),
        ),
      ),
    ).toBe("→/dashboard");
    expect(await count("SELECT count(*) AS n FROM ledger_entries")).toBe(before);
  });

  it("a debit larger than the balance says it carries over, and the balance is never paid below zero", async () => {
    const res = await adjust({ amount: "30", direction: "debit", month: "2025-04", reason: "Reversed claim" });
    expect(await outcome(res)).toBe("→/admin/payments");
    await runPayoutDay(new Date("2025-05-19T04:00:00Z"));
    expect(await count("SELECT count(*) AS n FROM payouts WHERE user_id = ? AND batch = '2025-05'", creator.id)).toBe(0);
    // Later earnings pay the debit off first: +$50 − $30 = $20.
    await adjust({ amount: "50", month: "2025-05", reason: "Bonus" });
    await runPayoutDay(new Date("2025-06-18T04:00:00Z"));
    expect(await env.DB.prepare("SELECT amount_cents FROM payouts WHERE user_id = ? AND batch = '2025-06'").bind(creator.id).first()).toEqual({
      amount_cents: 2000,
    });
  });
});

describe("a person's payments records (the privacy export)", () => {
  it("returns one's own lines, payouts and payout account; another person's only to an admin", async () => {
    const records = await paymentRecordsOf(actorFor(creator), creator.id);
    expect(records.ledgerEntries.map((e) => e.note)).toEqual(expect.arrayContaining(["Late claim", "Reversed claim", "Bonus"]));
    expect(records.payouts.length).toBe(2);
    expect(records.payoutAccount).toMatchObject({ method: "manual" });
    const other = await createUser("creator");
    await expect(paymentRecordsOf(actorFor(other), creator.id)).rejects.toThrow();
    expect((await paymentRecordsOf(actorFor(admin, { isAdmin: true }), creator.id)).payouts.length).toBe(2);
  });
});
