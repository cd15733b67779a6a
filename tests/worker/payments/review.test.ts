// Money, review fixes: the resource routes answer like their neighbours (401/403/404 JSON), the admin
// action caps its body before reading it, /payments picks its statement month in one batch, the
// payout day comes from the setting, and a negative amount keeps its sign in the CSV.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clearSettingsCache } from "~/platform/settings.server";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, ORIGIN, withCookie } from "../helpers";

let admin: TestUser;
let creator: TestUser;
let pending: TestUser;

const entry = (userId: string, month: string, amountCents: number, note: string) =>
  env.DB.prepare(
    "INSERT INTO ledger_entries (id, user_id, month, source_kind, source_id, net_cents, share_bp, amount_cents, status, note) VALUES (?, ?, ?, 'adjustment', '', ?, 10000, ?, 'finalized', ?)",
  ).bind(crypto.randomUUID(), userId, month, amountCents, amountCents, note);

beforeAll(async () => {
  [admin, creator, pending] = await Promise.all([createUser("admin"), createUser("creator"), createUser("pending")]);
  await env.DB.batch([entry(creator.id, "2032-01", 1234, "January bonus"), entry(creator.id, "2032-03", -500, "March correction")]);
}, 180_000);

afterAll(async () => {
  await env.DB.prepare("DELETE FROM app_settings WHERE key = 'payout_day_of_month'").run();
  clearSettingsCache();
});

describe("the CSV resource routes", () => {
  it("answer 401/403 JSON to others and a JSON 404 for a run that does not exist", async () => {
    const anon = await fetchApp("/admin/payments/batches/2031-01.csv");
    expect(anon.status).toBe(401);
    expect((await fetchApp("/payments/statement.csv")).status).toBe(401);
    expect((await fetchApp("/payments/statement.csv", withCookie(pending.cookie))).status).toBe(403);
    for (const batch of ["nope.csv", "2099-01.csv"]) {
      const res = await fetchApp(`/admin/payments/batches/${batch}`, withCookie(admin.cookie));
      expect(res.status).toBe(404);
      expect(res.headers.get("Content-Type")).toContain("application/json");
      expect(await res.json()).toMatchObject({ ok: false, code: "not_found", error: "Payout run not found." });
    }
  });

  it("keeps a negative amount's sign in the statement CSV (a number, not a formula)", async () => {
    const res = await fetchApp("/payments/statement.csv", withCookie(creator.cookie));
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain("2032-03,Adjustment: March correction,,-5.00,100.00,-5.00,USD,finalized");
    expect(text).not.toContain("'-5.00");
  });
});

describe("the admin action's body cap", () => {
  it("refuses a body larger than the biggest revenue file before reading it, and stages nothing", async () => {
    const form = new FormData();
    form.set("intent", "preview");
    form.set("month", "2025-06");
    form.set("padding", "x".repeat(11 * 1024 * 1024));
    form.set(
      "file",
      new File([`month,channel_id,creator_id,video_id,net_revenue,currency\n2025-06,,${creator.creatorId},,1.00,USD\n`], "r.csv", { type: "text/csv" }),
    );
    const res = await fetchApp("/admin/payments", { method: "POST", headers: { Origin: ORIGIN, Cookie: admin.cookie }, body: form });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("The file is larger than 10 MB");
    expect(await count("SELECT count(*) AS n FROM revenue_imports WHERE month = '2025-06'")).toBe(0);
  });
});

describe("/payments", () => {
  it("shows the asked month when the person has lines in it, else the latest", async () => {
    const latest = await (await fetchApp("/payments?month=2031-12", withCookie(creator.cookie))).text();
    expect(latest).toContain("Statement: March 2032");
    expect(latest).toContain("Adjustment: March correction");
    // The payable balance, 12.34 - 5.00, is under the $10.00 minimum payout: it carries over.
    expect(latest).toContain("$7.34 carries over: payouts start at $10.00");
    expect(latest).not.toContain("January bonus");
    const older = await (await fetchApp("/payments?month=2032-01", withCookie(creator.cookie))).text();
    expect(older).toContain("Statement: January 2032");
    expect(older).toContain("Adjustment: January bonus");
    expect(older).not.toContain("March correction");
  });

  it("words the payout day from the setting", async () => {
    expect(await (await fetchApp("/payments", withCookie(creator.cookie))).text()).toContain("on or around the 18th of each month");
    await env.DB.prepare("INSERT OR REPLACE INTO app_settings (key, value) VALUES ('payout_day_of_month', '22')").run();
    clearSettingsCache();
    expect(await (await fetchApp("/payments", withCookie(creator.cookie))).text()).toContain("on or around the 22nd of each month");
  });
});
