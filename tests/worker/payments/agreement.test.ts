// Money, phase 2 (issue 14): the Creator Agreement on /payments (share, term, renewal, notice and
// its withdrawal), an admin's revised-share offer (express acceptance, new term, share from its
// effective month; declining keeps the share), termination for cause (nothing earned after the end
// date; the month that holds it pro rata), holds on payouts, payout dates, the daily cleanup of
// abandoned staged imports, earnings on /analytics and the agency roster. Every transition is also
// tried by parallel requests: it happens once, logged and e-mailed once, the loser is told.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { addMonths, dayOf, formatPayoutDay, monthLabel, monthOf, noticeEndsOn } from "~/modules/payments/calendar";
import { creatorShareBpAt, discardAbandonedImports, runPayoutDay } from "~/modules/payments/payments.server";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, ORIGIN, outcome, postForm, withCookie } from "../helpers";

let admin: TestUser;
const HEADER = "month,channel_id,creator_id,video_id,net_revenue,currency";
const today = new Date();
const thisMonth = monthOf(today);

beforeAll(async () => {
  admin = await createUser("admin");
  await fetchApp("/auth");
}, 180_000);

/** A creator with one linked channel and a term that started on `termStart`. */
async function creatorWithChannel(termStart: string | null = "2025-10-07T10:00:00.000Z"): Promise<TestUser & { channelId: string }> {
  const user = await createUser("creator");
  const channelId = `UCagr${crypto.randomUUID().slice(0, 8)}`;
  await env.DB.batch([
    env.DB.prepare("INSERT INTO youtube_channels (id, user_id, channel_id, channel_title) VALUES (?, ?, ?, 'Agreement Channel')").bind(
      crypto.randomUUID(),
      user.id,
      channelId,
    ),
    env.DB.prepare("UPDATE profiles SET term_started_at = ? WHERE user_id = ?").bind(termStart, user.id),
  ]);
  return { ...user, channelId };
}

const asCreator = (u: TestUser, fields: Record<string, string>) => postForm("/payments", fields, withCookie(u.cookie));
const asAdmin = (fields: Record<string, string>) => postForm("/admin/payments", fields, withCookie(admin.cookie));
/** The page's HTML with React's text separators removed, so "Share: 75.5%" reads as one string. */
const page = async (u: TestUser, path = "/payments") => (await (await fetchApp(path, withCookie(u.cookie))).text()).replaceAll("<!-- -->", "");
const audits = (type: string, target: string) =>
  count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = ? AND target_user_id = ?", type, target);
const mails = (kind: string, to: string) => count("SELECT count(*) AS n FROM email_outbox WHERE kind = ? AND to_email = ?", kind, to);
const agreement = (userId: string) => env.DB.prepare("SELECT * FROM payment_agreements WHERE user_id = ?").bind(userId).first<Record<string, string | null>>();

function upload(month: string, csv: string) {
  const form = new FormData();
  form.set("intent", "preview");
  form.set("month", month);
  form.set("file", new File([csv], "revenue.csv", { type: "text/csv" }));
  return fetchApp("/admin/payments", { method: "POST", headers: { Origin: ORIGIN, Cookie: admin.cookie }, body: form });
}

/** Preview, commit, (optionally) funds received and finalize one month. */
async function importMonth(month: string, csv: string, finalize = false): Promise<void> {
  expect((await upload(month, csv)).status).toBe(200);
  const staged = await env.DB.prepare("SELECT id FROM revenue_imports WHERE month = ? AND status = 'staged' ORDER BY created_at DESC LIMIT 1")
    .bind(month)
    .first<{ id: string }>();
  expect(staged).not.toBeNull();
  const live = await env.DB.prepare("SELECT live_import_id FROM revenue_months WHERE month = ?").bind(month).first<{ live_import_id: string | null }>();
  expect(await outcome(await asAdmin({ intent: "commit", importId: staged?.id ?? "", replaces: live?.live_import_id ?? "" }))).toBe("→/admin/payments");
  if (finalize) {
    expect(await outcome(await asAdmin({ intent: "funds_received", month }))).toBe("→/admin/payments");
    expect(await outcome(await asAdmin({ intent: "finalize", month }))).toBe("→/admin/payments");
  }
}

const entry = (userId: string, month: string) =>
  env.DB.prepare(
    "SELECT e.net_cents, e.share_bp, e.amount_cents, e.note FROM ledger_entries e JOIN revenue_months m ON m.live_import_id = e.import_id WHERE e.user_id = ? AND e.month = ?",
  )
    .bind(userId, month)
    .first<{ net_cents: number; share_bp: number; amount_cents: number; note: string | null }>();

describe("the agreement on /payments", () => {
  it("shows the share, the term start (first channel link) and the renewal date", async () => {
    const c = await creatorWithChannel("2025-10-07T10:00:00.000Z");
    const html = await page(c);
    expect(html).toContain("Agreement");
    expect(html).toContain("70%");
    expect(html).toContain(formatPayoutDay("2025-10-07"));
    // Renews every 12 months from 7 Oct 2025: the next anniversary after today.
    let renewal = "2026-10-07";
    while (renewal <= dayOf(today)) renewal = `${Number(renewal.slice(0, 4)) + 1}${renewal.slice(4)}`;
    expect(html).toContain(formatPayoutDay(renewal));
    // A notice given today would take effect at the end of the first term ending ≥ 90 days from now.
    expect(html).toContain(formatPayoutDay(noticeEndsOn("2025-10-07", dayOf(today))));
  });

  it("notice: needs the box ticked; two clicks give it once; withdrawn before it takes effect; each step logged and e-mailed", async () => {
    const c = await creatorWithChannel();
    const refused = await asCreator(c, { intent: "give_notice" });
    expect(refused.status).toBe(400);
    expect(await agreement(c.id)).toBeNull();

    const results = await Promise.all([asCreator(c, { intent: "give_notice", confirm: "yes" }), asCreator(c, { intent: "give_notice", confirm: "yes" })]);
    expect((await Promise.all(results.map(outcome))).sort()).toEqual(["409", "→/payments"]);
    const endsOn = noticeEndsOn("2025-10-07", dayOf(today));
    expect(await agreement(c.id)).toMatchObject({ status: "notice", ends_on: endsOn });
    expect(await audits("agreement_notice_given", c.id)).toBe(1);
    expect(await mails("agreement_notice", c.email)).toBe(1);
    expect(await mails("agreement_notice", admin.email)).toBe(1);
    const html = await page(c);
    expect(html).toContain("You gave notice to end the agreement");
    expect(html).toContain(formatPayoutDay(endsOn));

    const withdrawn = await Promise.all([asCreator(c, { intent: "withdraw_notice" }), asCreator(c, { intent: "withdraw_notice" })]);
    expect((await Promise.all(withdrawn.map(outcome))).sort()).toEqual(["409", "→/payments"]);
    expect(await agreement(c.id)).toMatchObject({ status: "active", ends_on: null });
    expect(await audits("agreement_notice_withdrawn", c.id)).toBe(1);
    expect(await mails("agreement_notice_withdrawn", c.email)).toBe(1);
  });

  it("a notice whose date has passed cannot be withdrawn, and the account earns nothing after it", async () => {
    const c = await creatorWithChannel();
    await env.DB.prepare(
      "INSERT INTO payment_agreements (user_id, status, notice_given_at, ends_on) VALUES (?, 'notice', '2020-01-01T00:00:00Z', '2020-04-30')",
    )
      .bind(c.id)
      .run();
    const late = await asCreator(c, { intent: "withdraw_notice" });
    expect(late.status).toBe(409);
    expect(await late.text()).toContain("Your notice has already taken effect");
    expect(await page(c)).toContain("Your notice took effect");
  });
});

describe("revised-share offers", () => {
  it("the admin offers, the creator sees it and must accept expressly; acceptance (once under parallel clicks) starts a new term and the share applies from next month", async () => {
    const c = await creatorWithChannel();
    const bad = await asAdmin({ intent: "offer_share", person: c.email, sharePercent: "75.123" });
    expect(bad.status).toBe(400);
    expect(await count("SELECT count(*) AS n FROM share_offers WHERE user_id = ?", c.id)).toBe(0);
    const unknown = await asAdmin({ intent: "offer_share", person: "nobody@example.com", sharePercent: "75" });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("No account has that e-mail or creator ID.");

    const made = await Promise.all([
      asAdmin({ intent: "offer_share", person: c.creatorId, sharePercent: "75.5", note: "Top creator" }),
      asAdmin({ intent: "offer_share", person: c.email, sharePercent: "75.5" }),
    ]);
    expect((await Promise.all(made.map(outcome))).sort()).toEqual(["409", "→/admin/payments"]);
    expect(await count("SELECT count(*) AS n FROM share_offers WHERE user_id = ? AND status = 'offered'", c.id)).toBe(1);
    expect(await audits("share_offer_made", c.id)).toBe(1);
    expect(await mails("share_offer_made", c.email)).toBe(1);
    const offer = await env.DB.prepare("SELECT id FROM share_offers WHERE user_id = ?").bind(c.id).first<{ id: string }>();

    const html = await page(c);
    expect(html).toContain("Revised share offered: 75.5%");
    expect(html).toContain("Accept revised share");

    const noBox = await asCreator(c, { intent: "accept_offer", offerId: offer?.id ?? "" });
    expect(noBox.status).toBe(400);
    expect(await noBox.text()).toContain("Tick the box to accept the revised share");

    // Someone else's offer id is not found for this creator.
    const stranger = await createUser("creator");
    expect((await asCreator(stranger, { intent: "accept_offer", offerId: offer?.id ?? "", confirm: "yes" })).status).toBe(404);

    const accepted = await Promise.all([
      asCreator(c, { intent: "accept_offer", offerId: offer?.id ?? "", confirm: "yes" }),
      asCreator(c, { intent: "accept_offer", offerId: offer?.id ?? "", confirm: "yes" }),
      asCreator(c, { intent: "decline_offer", offerId: offer?.id ?? "" }),
    ]);
    const outcomes = (await Promise.all(accepted.map(outcome))).sort();
    expect(outcomes.filter((o) => o === "→/payments")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "409")).toHaveLength(2);
    const row = await env.DB.prepare("SELECT status, effective_month, term_start FROM share_offers WHERE id = ?")
      .bind(offer?.id)
      .first<Record<string, string>>();
    if (row?.status === "declined") {
      // The decline won the race: the share stays.
      expect(await creatorShareBpAt(addMonths(thisMonth, 1), c.id)).toBe(7000);
      return;
    }
    expect(row).toMatchObject({ status: "accepted", effective_month: addMonths(thisMonth, 1), term_start: dayOf(today) });
    expect(await agreement(c.id)).toMatchObject({ term_start: dayOf(today), status: "active" });
    expect(await audits("share_offer_accepted", c.id)).toBe(1);
    expect(await mails("share_offer_accepted", c.email)).toBe(1);
    expect(await mails("share_offer_accepted", admin.email)).toBeGreaterThanOrEqual(1);
    // The share at a month: standard this month, the revised share from its effective month on.
    expect(await creatorShareBpAt(thisMonth, c.id)).toBe(7000);
    expect(await creatorShareBpAt(addMonths(thisMonth, 1), c.id)).toBe(7550);
    expect(await creatorShareBpAt(addMonths(thisMonth, 5), c.id)).toBe(7550);
    expect(await creatorShareBpAt(addMonths(thisMonth, 1))).toBe(7000);
    // The import uses the share in force at its month. Only a month that is over can be imported, so
    // the accepted share's first month is moved back to one: $100.00 at 75.5%.
    const next = addMonths(thisMonth, 1);
    await env.DB.prepare("UPDATE share_offers SET effective_month = '2015-01' WHERE id = ?").bind(offer?.id).run();
    await importMonth("2015-01", `${HEADER}\n2015-01,${c.channelId},,,100.00,USD\n`);
    expect(await entry(c.id, "2015-01")).toMatchObject({ net_cents: 10000, share_bp: 7550, amount_cents: 7550 });
    await env.DB.prepare("UPDATE share_offers SET effective_month = ? WHERE id = ?").bind(next, offer?.id).run();
    // The new term is shown: started today, renews in 12 months.
    const after = await page(c);
    expect(after).toContain(formatPayoutDay(dayOf(today)));
    expect(after).toContain(`From ${monthLabel(next)}: 75.5% (accepted revised share)`);
  });

  it("declining keeps the current share; an offer cannot be accepted while notice runs", async () => {
    const c = await creatorWithChannel();
    expect(await outcome(await asAdmin({ intent: "offer_share", person: c.email, sharePercent: "80" }))).toBe("→/admin/payments");
    const offer = await env.DB.prepare("SELECT id FROM share_offers WHERE user_id = ?").bind(c.id).first<{ id: string }>();
    expect(await outcome(await asCreator(c, { intent: "give_notice", confirm: "yes" }))).toBe("→/payments");
    const blocked = await asCreator(c, { intent: "accept_offer", offerId: offer?.id ?? "", confirm: "yes" });
    expect(blocked.status).toBe(409);
    expect(await blocked.text()).toContain("Withdraw your notice before accepting a revised share");
    expect(await outcome(await asCreator(c, { intent: "decline_offer", offerId: offer?.id ?? "" }))).toBe("→/payments");
    expect(await creatorShareBpAt(addMonths(thisMonth, 1), c.id)).toBe(7000);
    expect(await audits("share_offer_declined", c.id)).toBe(1);
    expect(await mails("share_offer_declined", c.email)).toBe(1);
  });
});

describe("termination for cause", () => {
  it("needs a reason; happens once under parallel clicks; logged, e-mailed to both sides, shown to the creator", async () => {
    const c = await creatorWithChannel();
    const noReason = await asAdmin({ intent: "terminate", person: c.email, reason: " " });
    expect(noReason.status).toBe(400);
    expect(await agreement(c.id)).toBeNull();

    const results = await Promise.all([
      asAdmin({ intent: "terminate", person: c.email, reason: "Fraudulent views" }),
      asAdmin({ intent: "terminate", person: c.creatorId, reason: "Fraudulent views" }),
    ]);
    expect((await Promise.all(results.map(outcome))).sort()).toEqual(["409", "→/admin/payments"]);
    expect(await agreement(c.id)).toMatchObject({ status: "terminated", ends_on: dayOf(today), termination_reason: "Fraudulent views" });
    expect(await audits("agreement_terminated_for_cause", c.id)).toBe(1);
    expect(await mails("agreement_terminated", c.email)).toBe(1);
    expect(await mails("agreement_terminated", admin.email)).toBeGreaterThanOrEqual(1);
    const html = await page(c);
    expect(html).toContain("terminated for cause");
    expect(html).toContain("Fraudulent views");
    // The creator cannot give notice any more.
    expect((await asCreator(c, { intent: "give_notice", confirm: "yes" })).status).toBe(409);
  });

  it("the import credits months before the end in full, the end month for the days up to the end date, later months nothing", async () => {
    const c = await creatorWithChannel();
    const other = await creatorWithChannel();
    // Ended on the 15th of a (future, so no other test's months) 30-day month.
    await env.DB.prepare(
      "INSERT INTO payment_agreements (user_id, status, ends_on, terminated_at, termination_reason) VALUES (?, 'terminated', '2012-06-15', '2012-06-15T12:00:00Z', 'test')",
    )
      .bind(c.id)
      .run();
    const rows = (m: string) => `${HEADER}\n${m},${c.channelId},,,300.00,USD\n${m},${other.channelId},,,300.00,USD\n`;
    await importMonth("2012-05", rows("2012-05"));
    await importMonth("2012-06", rows("2012-06"));
    const july = await (await upload("2012-07", rows("2012-07"))).text();
    expect(july).toContain("1 matched person");
    expect(july).toContain("had ended before the month: nothing is credited to them.");
    await importMonth("2012-07", rows("2012-07"));
    expect(await entry(c.id, "2012-05")).toMatchObject({ net_cents: 30000, amount_cents: 21000 });
    // 15 of 30 days: $150.00 net, 70% = $105.00; the rest stays with the platform.
    expect(await entry(c.id, "2012-06")).toMatchObject({ net_cents: 15000, amount_cents: 10500, note: "15 of 30 days, to the agreement's end on 2012-06-15" });
    expect(await entry(c.id, "2012-07")).toBeNull();
    expect(await entry(other.id, "2012-07")).toMatchObject({ net_cents: 30000, amount_cents: 21000 });
  });
});

describe("holds and the payout day", () => {
  it("the payout-day job skips a held person (balances finalized before a termination are still paid unless held); released, they are paid next run", async () => {
    const held = await creatorWithChannel();
    const terminated = await creatorWithChannel();
    const month = "2013-01";
    // Both paid outside Stripe (decision 0224), and above the $10 minimum payout.
    await env.DB.batch(
      [held, terminated].map((p) =>
        env.DB.prepare("INSERT INTO payout_accounts (user_id, method, manual_reason) VALUES (?, 'manual', 'Bank transfer')").bind(p.id),
      ),
    );
    await importMonth(month, `${HEADER}\n${month},${held.channelId},,,20.00,USD\n${month},${terminated.channelId},,,40.00,USD\n`, true);
    // Terminated after the month was finalized: still paid. Held: not.
    expect(await outcome(await asAdmin({ intent: "terminate", person: terminated.email, reason: "Breach" }))).toBe("→/admin/payments");
    const holds = await Promise.all([
      asAdmin({ intent: "hold", person: held.email, reason: "Disputed claim" }),
      asAdmin({ intent: "hold", person: held.email, reason: "Disputed claim" }),
    ]);
    expect((await Promise.all(holds.map(outcome))).sort()).toEqual(["409", "→/admin/payments"]);
    expect(await audits("payouts_held", held.id)).toBe(1);
    expect(await mails("payouts_held", held.email)).toBe(1);
    expect(await page(held)).toContain("Disputed claim");

    await runPayoutDay(new Date("2013-02-18T04:00:00Z"));
    expect(await count("SELECT count(*) AS n FROM payouts WHERE user_id = ?", held.id)).toBe(0);
    const paid = await env.DB.prepare("SELECT amount_cents, payout_date FROM payouts WHERE user_id = ?")
      .bind(terminated.id)
      .first<{ amount_cents: number; payout_date: string }>();
    expect(paid).toEqual({ amount_cents: 2800, payout_date: "2013-02-18" });
    // The payout date shows in the history.
    expect(await page(terminated)).toContain(formatPayoutDay("2013-02-18"));

    const released = await Promise.all([asAdmin({ intent: "release_hold", person: held.email }), asAdmin({ intent: "release_hold", person: held.email })]);
    expect((await Promise.all(released.map(outcome))).sort()).toEqual(["409", "→/admin/payments"]);
    await runPayoutDay(new Date("2013-03-18T04:00:00Z"));
    expect(await env.DB.prepare("SELECT amount_cents, payout_date FROM payouts WHERE user_id = ?").bind(held.id).first()).toEqual({
      amount_cents: 1400,
      payout_date: "2013-03-18",
    });
  });
});

describe("abandoned staged imports", () => {
  it("the daily job discards staged imports older than 24 hours with their entries, and leaves fresh ones and live ones", async () => {
    const c = await creatorWithChannel();
    const month = "2014-01";
    expect((await upload(month, `${HEADER}\n${month},${c.channelId},,,10.00,USD\n`)).status).toBe(200);
    const old = await env.DB.prepare("SELECT id FROM revenue_imports WHERE month = ? AND status = 'staged'").bind(month).first<{ id: string }>();
    await env.DB.prepare("UPDATE revenue_imports SET created_at = '2000-01-01T00:00:00.000Z' WHERE id = ?").bind(old?.id).run();
    const fresh = "2014-02";
    expect((await upload(fresh, `${HEADER}\n${fresh},${c.channelId},,,10.00,USD\n`)).status).toBe(200);
    await importMonth("2014-03", `${HEADER}\n2014-03,${c.channelId},,,10.00,USD\n`);
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE import_id = ?", old?.id)).toBe(1);

    const [a, b] = await Promise.all([discardAbandonedImports(), discardAbandonedImports()]);
    expect(a.imports + b.imports).toBe(1);
    expect(await count("SELECT count(*) AS n FROM revenue_imports WHERE id = ? AND status = 'discarded'", old?.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE import_id = ?", old?.id)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM revenue_imports WHERE month = ? AND status = 'staged'", fresh)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM ledger_entries WHERE user_id = ? AND month = '2014-03'", c.id)).toBe(1);
    // Committing the discarded import is refused, nothing changes.
    const late = await asAdmin({ intent: "commit", importId: old?.id ?? "", replaces: "" });
    expect(late.status).toBe(409);
    expect(await count("SELECT count(*) AS n FROM revenue_months WHERE month = ? AND live_import_id IS NOT NULL", month)).toBe(0);
  });
});

describe("earnings elsewhere", () => {
  it("/analytics shows the person's earnings by month from the ledger, and only theirs", async () => {
    const c = await creatorWithChannel();
    const other = await creatorWithChannel();
    const month = addMonths(thisMonth, -1);
    await importMonth(month, `${HEADER}\n${month},${c.channelId},,,12.34,USD\n${month},${other.channelId},,,99.99,USD\n`);
    const html = await page(c, "/analytics");
    expect(html).toContain("Earnings by month");
    expect(html).toContain("$8.63"); // 70% of $12.34, rounded toward zero
    expect(html).not.toContain("$69.99");
  });

  it("the agency roster shows each member's earnings this month and in total, to its own managers only", async () => {
    const manager = await createUser("agency");
    const member = await creatorWithChannel();
    await env.DB.prepare("UPDATE profiles SET agency_id = ? WHERE user_id = ?").bind(manager.agencyId, member.id).run();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO ledger_entries (id, user_id, month, source_kind, source_id, net_cents, share_bp, amount_cents, status, note) VALUES (?, ?, ?, 'adjustment', '', 0, 0, 4321, 'estimated', 'test')",
      ).bind(crypto.randomUUID(), member.id, thisMonth),
      env.DB.prepare(
        "INSERT INTO ledger_entries (id, user_id, month, source_kind, source_id, net_cents, share_bp, amount_cents, status, note) VALUES (?, ?, '2020-01', 'adjustment', '', 0, 0, 1000, 'estimated', 'test')",
      ).bind(crypto.randomUUID(), member.id),
    ]);
    const html = await page(manager, "/agency-dashboard");
    expect(html).toContain("Earned this month");
    expect(html).toContain("$43.21");
    expect(html).toContain("$53.21");
    const stranger = await createUser("agency");
    expect(await page(stranger, "/agency-dashboard")).not.toContain("$53.21");
  });
});
