// The dashboard's money card (issue 42 §1, docs/decisions/0328): the demo creator's /dashboard shows
// their balance, next payout and its date, this month's estimate and what waits on them, with the
// numbers /payments shows; the spec's own cards stay as they were. A clipper, a music partner and a
// pending person get no card, and the card costs no extra D1 round trip.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS, seedDemoData } from "~/dev/seed.server";
import { hashPassword } from "~/modules/accounts/accounts.server";
import { formatPayoutDay, monthLabel, nextPayoutDate } from "~/modules/payments/calendar";
import { formatCents } from "~/modules/payments/money";
import { createUser, signInAs } from "../../factories/users";
import { pageRoundTrips } from "../d1-calls";
import { fetchApp, okText, redirectTarget, withCookie } from "../helpers";

const idOf = (kind: string) => DEMO_ACCOUNTS.find((a) => a.kind === kind)?.id ?? "";

/** The text of the money card's region (aria-labelledby="money-heading"), tags stripped; "" when there is none. */
function moneyCard(html: string): string {
  const m = /<section aria-labelledby="money-heading"[\s\S]*?<\/section>/.exec(html);
  return m
    ? m[0]
        .replace(/<!--.*?-->/g, "")
        .replace(/<[^>]+>/g, " ")
        .replace(/&#x27;|&#39;/g, "'")
        .replace(/\s+/g, " ")
    : "";
}

async function sums(userId: string) {
  const q = (where: string) =>
    env.DB.prepare(`SELECT coalesce(sum(amount_cents), 0) AS n FROM ledger_entries WHERE user_id = ? AND ${where}`)
      .bind(userId)
      .first<{ n: number }>()
      .then((r) => r?.n ?? 0);
  const latest = (await env.DB.prepare("SELECT max(month) AS m FROM ledger_entries WHERE user_id = ?").bind(userId).first<{ m: string }>())?.m ?? "";
  return {
    estimated: await q("status = 'estimated'"),
    finalized: await q("status = 'finalized'"),
    payable: await q("status = 'finalized' AND payout_id IS NULL"),
    latest,
    latestCents: await q(`month = '${latest}'`),
  };
}

describe("/dashboard: the money card", () => {
  beforeAll(async () => {
    await seedDemoData({ db: env.DB, media: env.MEDIA, hashPassword });
  });

  it("the demo creator sees balance, next payout and its date, this month's estimate and what waits on them, linking to /payments", async () => {
    const { cookie } = await signInAs(idOf("creator"));
    const html = await okText(fetchApp("/dashboard", withCookie(cookie)));
    const card = moneyCard(html);
    const s = await sums(idOf("creator"));
    // The demo creator's seed: a finalized month for the next payout and an estimated one after it.
    expect(s.payable).toBeGreaterThan(0);
    expect(s.estimated).toBeGreaterThan(0);
    expect(card).toContain("Your money");
    expect(card).toContain(`Balance ${formatCents(s.estimated + s.finalized)}`);
    expect(card).toContain(`${formatCents(s.finalized)} finalized, ${formatCents(s.estimated)} estimated`);
    // The payout minimum is $50 by default and the finalized month is above it: the next payout holds it, on the payout day.
    expect(card).toContain(`Next payout ${formatCents(s.payable)} On ${formatPayoutDay(nextPayoutDate(new Date(), 18))}`);
    expect(card).toContain(`This month's estimate ${formatCents(s.latestCents)} ${monthLabel(s.latest)} revenue, estimated`);
    expect(card).toContain("Waiting on you");
    expect(card).toContain("Connect your payout account");
    expect(card).toContain(`Your ${formatCents(s.payable)} is ready: it is paid once your payout account is enabled.`);
    expect(html).toMatch(/<a[^>]*href="\/payments"[^>]*>Open Payments<\/a>/);
    expect(html).toContain('href="/payments#payout-method-heading"');
    // The same next payout as /payments says.
    const payments = await okText(fetchApp("/payments", withCookie(cookie)));
    expect(payments).toContain(formatPayoutDay(nextPayoutDate(new Date(), 18)));
    expect(payments).toContain(`Expected ${formatCents(s.payable)}`);
    // The spec's own dashboard texts are unchanged.
    expect(html).toContain("Your creator journey starts here.");
    expect(html).toMatch(/Link Channel<\/p><p[^>]*>Coming Soon<\/p>/);
  });

  it("an enabled payout account and no offer: nothing waits on the creator; a revised-share offer does", async () => {
    const me = await createUser("creator");
    await env.DB.prepare("INSERT INTO payout_accounts (user_id, method, stripe_account_id, status) VALUES (?, 'stripe', ?, 'enabled')")
      .bind(me.id, `acct_${crypto.randomUUID().replace(/-/g, "").slice(0, 16)}`)
      .run();
    const card = moneyCard(await okText(fetchApp("/dashboard", withCookie(me.cookie))));
    expect(card).toContain("Balance $0.00");
    expect(card).toContain("Nothing imported yet");
    expect(card).toContain("Nothing: your payouts need nothing from you.");
    expect(card).not.toContain("Connect your payout account");
    // A revised share offered by an admin waits for the creator's answer.
    await env.DB.prepare("INSERT INTO share_offers (id, user_id, share_bp, status) VALUES (?, ?, 7500, 'offered')").bind(crypto.randomUUID(), me.id).run();
    const offered = moneyCard(await okText(fetchApp("/dashboard", withCookie(me.cookie))));
    expect(offered).toContain("Answer your revised share offer We offer you 75% of net revenue.");
    expect(offered).not.toContain("Nothing: your payouts need nothing from you.");
  });

  it("the demo clipper and a music partner get no card; a pending person is sent to /pending-approval", async () => {
    for (const kind of ["clipper", "partner"]) {
      const { cookie } = await signInAs(idOf(kind));
      const html = await okText(fetchApp("/dashboard", withCookie(cookie)));
      expect(html).toContain("Welcome back");
      expect(moneyCard(html)).toBe("");
      expect(html).not.toContain("Your money");
    }
    const pending = await signInAs(idOf("pending"));
    const res = await fetchApp("/dashboard", withCookie(pending.cookie));
    expect(await redirectTarget(res)).toBe("/pending-approval");
  });

  it("one round trip for everyone: the creator's card and the clipper's page each read the session, the counts and the card's statement in one batch", async () => {
    for (const kind of ["creator", "clipper"]) {
      const { cookie } = await signInAs(idOf(kind));
      const { html, ...seen } = await pageRoundTrips("/dashboard", cookie);
      expect(seen).toEqual({ calls: 1, statements: 3 });
      expect(moneyCard(html) !== "").toBe(kind === "creator");
    }
  });
});
