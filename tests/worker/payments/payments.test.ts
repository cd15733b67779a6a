// Money, phase 1 (issue 14): the admin's revenue import (preview, all-or-nothing commit, re-import,
// refusals), funds received and finalize, the payout-day job, 'mark paid', and /payments. Each
// transition is also tried by parallel requests: one wins, the others are told, side effects once.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { runPayoutDay } from "~/modules/payments/payments.server";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, ORIGIN, outcome, postForm, withCookie } from "../helpers";
import { present } from "../../helpers/present";

let admins: [TestUser, TestUser];
let creator: TestUser;
let other: TestUser;
let channelId: string;

beforeAll(async () => {
  admins = await Promise.all([createUser("admin"), createUser("admin")]);
  creator = await createUser("creator");
  other = await createUser("creator");
  channelId = `UCpay${crypto.randomUUID().slice(0, 8)}`;
  await env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Pay Channel')")
    .bind(crypto.randomUUID(), creator.id, channelId)
    .run();
  await fetchApp("/auth");
}, 180_000);

const HEADER = "month,channel_id,creator_id,video_id,net_revenue,currency";

function upload(admin: TestUser, month: string, csv: string, name = "revenue.csv") {
  const form = new FormData();
  form.set("intent", "preview");
  form.set("month", month);
  form.set("file", new File([csv], name, { type: "text/csv" }));
  return fetchApp("/admin/payments", { method: "POST", headers: { Origin: ORIGIN, Cookie: admin.cookie }, body: form });
}

const post = (admin: TestUser, fields: Record<string, string>) => postForm("/admin/payments", fields, withCookie(admin.cookie));

async function stagedImport(month: string) {
  return env.DB.prepare("SELECT id FROM revenue_imports WHERE month = ? AND status = 'staged' ORDER BY created_at DESC LIMIT 1")
    .bind(month)
    .first<{ id: string }>();
}

const liveOf = (month: string) => env.DB.prepare("SELECT * FROM revenue_months WHERE month = ?").bind(month).first<Record<string, string | null>>();
const entriesOf = (month: string) =>
  env.DB.prepare(
    "SELECT e.user_id, e.source_id, e.net_cents, e.share_bp, e.amount_cents, e.status FROM ledger_entries e JOIN revenue_months m ON m.live_import_id = e.import_id WHERE e.month = ? ORDER BY e.user_id, e.source_id",
  )
    .bind(month)
    .all<{ user_id: string; source_id: string; net_cents: number; share_bp: number; amount_cents: number; status: string }>();

/** The admin marks a person paid outside Stripe (their payouts are then marked paid by hand). */
async function paidOutsideStripe(user: TestUser) {
  expect(await outcome(await post(admins[0], { intent: "pay_outside", person: user.email, reason: "Bank transfer" }))).toBe("→/admin/payments");
}

/** Preview then commit a clean file; returns the import id. */
async function importMonth(month: string, csv: string, admin = admins[0]): Promise<string> {
  const res = await upload(admin, month, csv);
  expect(res.status).toBe(200);
  const staged = await stagedImport(month);
  expect(staged).not.toBeNull();
  const live = await liveOf(month);
  const done = await post(admin, { intent: "commit", importId: staged?.id ?? "", replaces: live?.live_import_id ?? "" });
  expect(await outcome(done)).toBe("→/admin/payments");
  return staged?.id ?? "";
}

describe("revenue import", () => {
  it("previews matched rows and totals, stages them invisibly, and commits them live at the standard 70%", async () => {
    const month = "2025-01";
    const csv = `${HEADER}\n${month},${channelId},,,100.01,USD\n${month},${channelId},,vid2,0.99,USD\n${month},,${other.creatorId},,10.00,USD\n`;
    const html = await (await upload(admins[0], month, csv)).text();
    expect(html).toContain("Commit import");
    expect(html).toContain("$111.00"); // net total
    const staged = await stagedImport(month);
    // Staged: nothing shows on /payments yet.
    expect(await (await fetchApp(`/payments?month=${month}`, withCookie(creator.cookie))).text()).not.toContain("Pay Channel");
    expect((await entriesOf(month)).results).toEqual([]);

    const res = await post(admins[0], { intent: "commit", importId: staged?.id ?? "", replaces: "" });
    expect(await outcome(res)).toBe("→/admin/payments");
    const rows = (await entriesOf(month)).results;
    const mine = rows.find((r) => r.user_id === creator.id);
    expect(mine).toMatchObject({ source_id: channelId, net_cents: 10100, share_bp: 7000, amount_cents: 7070, status: "estimated" });
    expect(rows.find((r) => r.user_id === other.id)).toMatchObject({ source_id: "", net_cents: 1000, amount_cents: 700 });
    expect(
      await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'revenue_import_committed' AND details LIKE ?", `%${staged?.id}%`),
    ).toBe(1);

    const page = await (await fetchApp(`/payments?month=${month}`, withCookie(creator.cookie))).text();
    expect(page).toContain("Music on your channel Pay Channel");
    expect(page).toContain("$101.00");
    expect(page).toContain("$70.70");
  });

  it("reports negative, malformed, wrong-currency, duplicate and unknown rows by line and writes nothing", async () => {
    const month = "2025-02";
    const csv = [
      HEADER,
      `${month},${channelId},,,-1.00,USD`,
      `${month},${channelId},,v1,1.5.0,USD`,
      `${month},${channelId},,v2,1.00,EUR`,
      `${month},${channelId},,v3,1.00,USD`,
      `${month},${channelId},,v3,1.00,USD`,
      `${month},UCnobody,,,1.00,USD`,
      `${month},,NOSUCHID,,1.00,USD`,
      `${month},${channelId},${other.creatorId},v9,1.00,USD`,
    ].join("\n");
    const before = await count("SELECT count(*) AS n FROM ledger_entries");
    const imports = await count("SELECT count(*) AS n FROM revenue_imports");
    const html = await (await upload(admins[0], month, csv)).text();
    for (const text of [
      "Line 2: Net revenue is negative",
      "Line 3: Net revenue must be a number, such as 12.34",
      "Line 4: Currency must be USD (found EUR)",
      "Line 6: Duplicate of line 5.",
      "Line 7: Unknown channel id UCnobody.",
      "Line 8: Unknown creator id NOSUCHID.",
      `Line 9: Channel ${channelId} does not belong to creator ${other.creatorId}.`,
      "Nothing was imported",
    ]) {
      expect(html).toContain(text);
    }
    expect(html).not.toContain("Commit import");
    expect(await count("SELECT count(*) AS n FROM ledger_entries")).toBe(before);
    expect(await count("SELECT count(*) AS n FROM revenue_imports")).toBe(imports);
  });

  it("refuses a body that is not a form, and a file that is not CSV, with nothing written", async () => {
    const json = await fetchApp("/admin/payments", {
      method: "POST",
      headers: { Origin: ORIGIN, Cookie: admins[0].cookie, "Content-Type": "application/json" },
      body: JSON.stringify({ intent: "preview" }),
    });
    expect(json.status).toBe(415);
    const form = new FormData();
    form.set("intent", "preview");
    form.set("month", "2025-03");
    form.set("file", new File([new Uint8Array([0, 1, 2, 3])], "x.bin", { type: "application/octet-stream" }));
    const bin = await fetchApp("/admin/payments", { method: "POST", headers: { Origin: ORIGIN, Cookie: admins[0].cookie }, body: form });
    expect(bin.status).toBe(400);
    expect(await count("SELECT count(*) AS n FROM revenue_imports WHERE month = '2025-03'")).toBe(0);
  });

  it("chunks a large import under D1's bound-parameter limit (1,000 people)", async () => {
    const month = "2025-04";
    // Creator-level rows for 1,000 made-up people would not match; use one channel per row instead.
    const ids: string[] = [];
    const stmts: D1PreparedStatement[] = [];
    for (let i = 0; i < 1000; i++) {
      const uid = crypto.randomUUID();
      ids.push(`UCbulk${i}x${uid.slice(0, 6)}`);
      stmts.push(env.DB.prepare("INSERT INTO users (id, email) VALUES (?, ?)").bind(uid, `bulk-${uid}@example.com`));
      stmts.push(env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Bulk')").bind(uid, uid, ids[i]));
    }
    await env.DB.batch(stmts);
    const csv = `${HEADER}\n${ids.map((id, i) => `${month},${id},,,${i + 1}.00,USD`).join("\n")}\n`;
    await importMonth(month, csv);
    const rows = (await entriesOf(month)).results;
    expect(rows).toHaveLength(1000);
    expect(rows.reduce((s, r) => s + r.net_cents, 0)).toBe((1000 * 1001 * 100) / 2);
  }, 60_000);

  it("re-importing an estimated month replaces it; two commits at once: one wins, the other is told", async () => {
    const month = "2025-05";
    const first = await importMonth(month, `${HEADER}\n${month},${channelId},,,10.00,USD\n`);
    // Two admins preview corrected files against the same live import, then commit at the same time.
    await upload(admins[0], month, `${HEADER}\n${month},${channelId},,,20.00,USD\n`);
    const a = await stagedImport(month);
    await upload(admins[1], month, `${HEADER}\n${month},${channelId},,,30.00,USD\n`);
    const b = await stagedImport(month);
    expect(a?.id).not.toBe(b?.id);
    const results = await Promise.all([
      post(admins[0], { intent: "commit", importId: a?.id ?? "", replaces: first }),
      post(admins[1], { intent: "commit", importId: b?.id ?? "", replaces: first }),
    ]);
    const outcomes = await Promise.all(results.map(outcome));
    expect(outcomes.sort()).toEqual(["409", "→/admin/payments"]);
    const winner = results[0].status === 409 ? b : a;
    const rows = (await entriesOf(month)).results;
    expect(rows).toHaveLength(1);
    expect([2000, 3000]).toContain(present(rows[0], "the ledger entry").net_cents);
    expect(await count("SELECT count(*) AS n FROM revenue_imports WHERE month = ? AND status = 'live'", month)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM revenue_imports WHERE id = ? AND status = 'replaced'", first)).toBe(1);
    // The replaced and the losing imports left no entries behind.
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE month = ?", month)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM revenue_imports WHERE id = ? AND status = 'live'", winner?.id)).toBe(1);

    // A preview made before another import went live is told so when committed, and changes nothing.
    await upload(admins[0], month, `${HEADER}\n${month},${channelId},,,40.00,USD\n`);
    const stale = await stagedImport(month);
    const late = await post(admins[0], { intent: "commit", importId: stale?.id ?? "", replaces: first });
    expect(late.status).toBe(409);
    expect(await late.text()).toContain("went live while this one was waiting. Nothing was changed");
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE month = ?", month)).toBe(1);
  });

  it("finalize needs funds received first; a finalized month refuses a re-import; each step once under parallel clicks", async () => {
    const month = "2025-06";
    await importMonth(month, `${HEADER}\n${month},${channelId},,,50.00,USD\n`);
    const early = await post(admins[0], { intent: "finalize", month });
    expect(early.status).toBe(409);
    expect(await early.text()).toContain("Mark the funds for June 2025 as received before finalizing it.");

    const funds = await Promise.all(admins.map((a) => post(a, { intent: "funds_received", month })));
    expect((await Promise.all(funds.map(outcome))).sort()).toEqual(["409", "→/admin/payments"]);
    const fin = await Promise.all(admins.map((a) => post(a, { intent: "finalize", month })));
    expect((await Promise.all(fin.map(outcome))).sort()).toEqual(["409", "→/admin/payments"]);
    expect((await entriesOf(month)).results.map((r) => r.status)).toEqual(["finalized"]);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'revenue_month_finalized' AND details LIKE ?", `%${month}%`)).toBe(1);

    const again = await upload(admins[0], month, `${HEADER}\n${month},${channelId},,,60.00,USD\n`);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("June 2025 is finalized: its revenue can no longer be replaced.");
    expect((await liveOf(month))?.finalized_at).toBeTruthy();
    expect((await entriesOf(month)).results[0]?.net_cents).toBe(5000);
  });

  it("is for admins only", async () => {
    expect(await outcome(await fetchApp("/admin/payments", withCookie(creator.cookie)))).toBe("→/dashboard");
    expect(await outcome(await post(creator, { intent: "funds_received", month: "2025-01" }))).toBe("→/dashboard");
    expect((await fetchApp("/admin/payments/batches/2025-01.csv", withCookie(creator.cookie))).status).toBe(403);
  });
});

describe("payouts", () => {
  it("the payout-day job gathers finalized balances once, even run twice at once; marking paid twice pays once", async () => {
    // A name that a ';'-separated spreadsheet would split into a formula (issue 27, item 4).
    const payee = await createUser("creator", { fullName: "Bob;=cmd|' /C calc'!A0" });
    const ch = `UCpayee${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Payee Channel')")
      .bind(crypto.randomUUID(), payee.id, ch)
      .run();
    const month = "2025-07";
    // Paid outside Stripe (decision 0224): an admin marks the payout paid with the bank's reference.
    await paidOutsideStripe(payee);
    await importMonth(month, `${HEADER}\n${month},${ch},,,33.33,USD\n`);
    await post(admins[0], { intent: "funds_received", month });
    await post(admins[0], { intent: "finalize", month });

    // Before the payout day nothing happens; 2025-08-18 is a Monday.
    expect((await runPayoutDay(new Date("2025-08-17T03:17:00Z"))).batch).toBeNull();
    const [r1, r2] = await Promise.all([runPayoutDay(new Date("2025-08-18T03:17:00Z")), runPayoutDay(new Date("2025-08-18T03:17:00Z"))]);
    const third = await runPayoutDay(new Date("2025-08-19T03:17:00Z"));
    expect(r1.batch).toBe("2025-08");
    expect(third.payouts).toBe(0);
    const payouts = await env.DB.prepare("SELECT id, amount_cents, status FROM payouts WHERE user_id = ?")
      .bind(payee.id)
      .all<{ id: string; amount_cents: number; status: string }>();
    expect(payouts.results).toHaveLength(1);
    expect(payouts.results[0]).toMatchObject({ amount_cents: 2333, status: "pending" }); // floor(3333 × 0.7)
    expect(r1.payouts + r2.payouts).toBeGreaterThanOrEqual(1);
    expect(
      await count("SELECT count(*) AS n FROM ledger_entries WHERE user_id = ? AND payout_id = ?", payee.id, present(payouts.results[0], "the payout").id),
    ).toBe(1);

    const page = await (await fetchApp("/payments", withCookie(payee.cookie))).text();
    expect(page).toContain("Payout history");
    expect(page).toContain("$23.33");

    const csv = await fetchApp("/admin/payments/batches/2025-08.csv", withCookie(admins[0].cookie));
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    const csvText = await csv.text();
    expect(csvText).toContain(`${payee.email},${payee.creatorId},23.33,USD,outside_stripe,pending`);
    // The name goes out quoted, its formula defused: one text cell in a ',' or ';' locale.
    expect(csvText).toContain(`,"Bob;'=cmd|' /C calc'!A0",${payee.email},`);
    expect(csvText).not.toMatch(/(^|[,;])=cmd/m);

    const id = present(payouts.results[0], "the payout").id;
    const paid = await Promise.all(admins.map((a, i) => post(a, { intent: "mark_paid", payoutId: id, reference: `BANK-${i}` })));
    expect((await Promise.all(paid.map(outcome))).sort()).toEqual(["409", "→/admin/payments"]);
    const row = await env.DB.prepare("SELECT status, reference FROM payouts WHERE id = ?").bind(id).first<{ status: string; reference: string }>();
    expect(row?.status).toBe("paid");
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE payout_id = ? AND status = 'paid'", id)).toBe(1);
    expect(
      await count(
        "SELECT count(*) AS n FROM user_notifications u JOIN notifications n ON n.id = u.notification_id WHERE u.user_id = ? AND n.kind = 'payout_paid'",
        payee.id,
      ),
    ).toBe(1);
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'payout_paid'", payee.email)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'payout_marked_paid' AND instr(details, ?) > 0", id)).toBe(1);
    const after = await (await fetchApp("/payments", withCookie(payee.cookie))).text();
    expect(after).toContain(row?.reference ?? "");

    const mine = await fetchApp("/payments/statement.csv", withCookie(payee.cookie));
    expect(await mine.text()).toContain("2025-07,Music on your channel Payee Channel,,33.33,70.00,23.33,USD,paid");
    const refused = await post(admins[0], { intent: "mark_paid", payoutId: id, reference: "" });
    expect(refused.status).toBe(400);
  });
});

describe("marking a whole payout run paid", () => {
  it("pays every pending payout once with one reference, skips those already paid, and parallel requests pay once", async () => {
    const payees = await Promise.all([createUser("creator"), createUser("creator"), createUser("creator")]);
    const channels = payees.map(() => `UCrun${crypto.randomUUID().slice(0, 8)}`);
    await env.DB.batch(
      payees.map((p, i) =>
        env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Run Channel')").bind(
          crypto.randomUUID(),
          p.id,
          channels[i],
        ),
      ),
    );
    const month = "2025-09";
    for (const p of payees) await paidOutsideStripe(p);
    // $14, $28, $42: above the $10 minimum payout.
    await importMonth(month, `${HEADER}\n${channels.map((c, i) => `${month},${c},,,${(i + 1) * 20}.00,USD`).join("\n")}\n`);
    await post(admins[0], { intent: "funds_received", month });
    await post(admins[0], { intent: "finalize", month });
    const run = await runPayoutDay(new Date("2025-10-20T03:17:00Z"));
    expect(run.batch).toBe("2025-10");
    const idOf = async (userId: string) =>
      (await env.DB.prepare("SELECT id FROM payouts WHERE user_id = ? AND batch = '2025-10'").bind(userId).first<{ id: string }>())?.id ?? "";
    const ids = await Promise.all([idOf(payees[0].id), idOf(payees[1].id), idOf(payees[2].id)]);

    // One payout was already marked paid on its own.
    expect(await outcome(await post(admins[0], { intent: "mark_paid", payoutId: ids[0], reference: "SINGLE-1" }))).toBe("→/admin/payments");

    const results = await Promise.all(admins.map((a, i) => post(a, { intent: "mark_batch_paid", batch: "2025-10", reference: `RUN-${i}` })));
    expect((await Promise.all(results.map(outcome))).sort()).toEqual(["409", "→/admin/payments"]);
    const rows = (
      await env.DB.prepare(`SELECT id, status, reference FROM payouts WHERE id IN (?, ?, ?)`)
        .bind(...ids)
        .all<{ id: string; status: string; reference: string }>()
    ).results;
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(ids[0])?.reference).toBe("SINGLE-1");
    const runRef = byId.get(ids[1])?.reference;
    expect(runRef).toMatch(/^RUN-[01]$/);
    expect(byId.get(ids[2])?.reference).toBe(runRef);
    expect(rows.every((r) => r.status === "paid")).toBe(true);
    expect(await count("SELECT count(*) AS n FROM payouts WHERE batch = '2025-10' AND status = 'pending'")).toBe(0);

    for (const [i, p] of payees.entries()) {
      expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE user_id = ? AND month = ? AND status = 'paid'", p.id, month)).toBe(1);
      expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'payout_paid'", p.email)).toBe(1);
      expect(
        await count(
          "SELECT count(*) AS n FROM user_notifications u JOIN notifications n ON n.id = u.notification_id WHERE u.user_id = ? AND n.kind = 'payout_paid'",
          p.id,
        ),
      ).toBe(1);
      expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'payout_marked_paid' AND instr(details, ?) > 0", ids[i])).toBe(1);
    }
    const mail = await env.DB.prepare("SELECT body_text FROM email_outbox WHERE to_email = ? AND kind = 'payout_paid'")
      .bind(payees[2].email)
      .first<{ body_text: string }>();
    expect(mail?.body_text).toContain(`We have sent your payout of $42.00 (reference ${runRef}).`);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'payout_batch_marked_paid' AND instr(details, '2025-10') > 0")).toBe(1);

    // Again: everything is paid already; a run with no payouts and a missing reference are refused.
    const again = await post(admins[0], { intent: "mark_batch_paid", batch: "2025-10", reference: "RUN-X" });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("Every payout of the October 2025 run is already marked paid.");
    expect((await post(admins[0], { intent: "mark_batch_paid", batch: "2040-01", reference: "RUN-X" })).status).toBe(404);
    expect((await post(admins[0], { intent: "mark_batch_paid", batch: "2025-10", reference: " " })).status).toBe(400);
    expect(await count("SELECT count(*) AS n FROM payouts WHERE reference = 'RUN-X'")).toBe(0);
    expect(await outcome(await post(payees[0], { intent: "mark_batch_paid", batch: "2025-10", reference: "RUN-Y" }))).toBe("→/dashboard");
  }, 60_000);
});
