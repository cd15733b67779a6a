import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { deliverDue, type EmailBinding } from "~/platform/email-delivery.server";
import { NO_HTTPS_ORIGIN, SENDER_PAUSE_MS, quotaResetAfter } from "~/platform/email-failures.server";
import { emailQuery } from "~/platform/email.server";
import { recordSuccess } from "~/platform/service-status.server";
import errors from "../../fixtures/providers/cloudflare-email-errors.json";
import { count } from "../helpers";
import { present } from "../../helpers/present";

// Issue 41 §4: the Email Service's account-level refusals (docs/decisions/0309). The binding throws
// Error objects with a `code` (tests/fixtures/providers/cloudflare-email-errors.json, from Cloudflare's
// Workers API page); Miniflare's binding cannot run out of quota or lose a sender, so these tests
// send through a binding that throws exactly the documented shape, and then through the real one.

/** A binding that refuses every message with one of the documented errors. */
function refusing(code: string): EmailBinding {
  const documented = errors.errors.find((e) => e.code === code);
  if (!documented) throw new Error(`${code} is not in the fixture`);
  return {
    send: async () => {
      throw Object.assign(new Error(documented.description), { code });
    },
  };
}

type Row = { id: string; status: string; attempts: number; next_attempt_at: string; last_error: string | null };
const rowOf = (id: string) => env.DB.prepare("SELECT id, status, attempts, next_attempt_at, last_error FROM email_outbox WHERE id = ?").bind(id).first<Row>();
const idsTo = async (to: string) =>
  (await env.DB.prepare("SELECT id FROM email_outbox WHERE to_email = ?").bind(to).all<{ id: string }>()).results.map((r) => r.id);

async function queue(to: string, kind: string, n = 1): Promise<string[]> {
  for (let i = 0; i < n; i++) await db().batch([emailQuery({ to, kind, subject: `Mail ${i}`, text: `Hello ${i}.\n\nhttps://shortbeat.test/dashboard` })]);
  return idsTo(to);
}

const alerts = (code: string) =>
  count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'outside_service_alert' AND details LIKE ?", `%${code}%`);

describe("Email Service refusals that are the account's, not the message's", () => {
  beforeEach(async () => {
    // Each test starts with sending open (a success ends any pause a previous test left).
    await recordSuccess("email");
  });

  it("the fixture is the documented table: the codes this sender acts on are in it", () => {
    const codes = errors.errors.map((e) => e.code);
    expect(codes).toEqual(expect.arrayContaining(["E_DAILY_LIMIT_EXCEEDED", "E_SENDER_NOT_VERIFIED", "E_SENDER_DOMAIN_NOT_AVAILABLE"]));
    expect(errors.source).toBe("https://developers.cloudflare.com/email-service/api/send-emails/workers-api/");
  });

  it("E_DAILY_LIMIT_EXCEEDED: the verification mail waits for the quota's reset without spending attempts, then goes out", async () => {
    const to = `quota-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const id = present((await queue(to, "email_verification"))[0], `the verification mail to ${to}`);
    // Noon UTC tomorrow: the quota resets at 00:01 UTC, so "an hour later" must not cross it whatever
    // the hour the suite runs at (CI started this test at 23:17 once, and the hour crossed midnight).
    const today = new Date();
    const start = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1, 12, 0);
    const first = await deliverDue({ ids: [id], via: refusing("E_DAILY_LIMIT_EXCEEDED"), now: start });
    expect(first.waiting).toEqual([id]);
    const waiting = await rowOf(id);
    expect(waiting).toMatchObject({ status: "pending", attempts: 0, next_attempt_at: quotaResetAfter(start) });
    expect(waiting?.last_error).toContain("E_DAILY_LIMIT_EXCEEDED");

    // Before the reset nothing is claimed, however often the sweep runs: no attempt is spent.
    for (const later of [start + 60_000, start + 3_600_000]) {
      expect((await deliverDue({ ids: [id], now: later })).claimed).toBe(0);
    }
    expect((await rowOf(id))?.attempts).toBe(0);

    // After the reset it leaves through the real binding on its first counted attempt.
    const after = await deliverDue({ ids: [id], now: Date.parse(quotaResetAfter(start)) + 1000 });
    expect(after.sent).toEqual([id]);
    expect(await rowOf(id)).toMatchObject({ status: "sent", attempts: 1, last_error: null });
  });

  it("E_SENDER_NOT_VERIFIED: the admins get one alert, not one per mail, and the mail waits", async () => {
    const to = `sender-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const ids = await queue(to, "payout_paid", 3);
    const before = await alerts("E_SENDER_NOT_VERIFIED");
    const start = Date.now();
    const first = await deliverDue({ ids, via: refusing("E_SENDER_NOT_VERIFIED"), now: start });
    expect(first.waiting.sort()).toEqual([...ids].sort());
    // Paused: the next sweep claims nothing; after the pause the same refusal raises no second alert.
    expect((await deliverDue({ ids, via: refusing("E_SENDER_NOT_VERIFIED"), now: start + 60_000 })).claimed).toBe(0);
    const again = await deliverDue({ ids, via: refusing("E_SENDER_NOT_VERIFIED"), now: start + SENDER_PAUSE_MS + 60_000 });
    expect(again.claimed).toBeGreaterThan(0);
    expect(await alerts("E_SENDER_NOT_VERIFIED")).toBe(before + 1);
    for (const id of ids) expect(await rowOf(id)).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("E_SENDER_DOMAIN_NOT_AVAILABLE alerts once too", async () => {
    const to = `domain-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const ids = await queue(to, "payout_paid", 2);
    const before = await alerts("E_SENDER_DOMAIN_NOT_AVAILABLE");
    await deliverDue({ ids, via: refusing("E_SENDER_DOMAIN_NOT_AVAILABLE") });
    expect(await alerts("E_SENDER_DOMAIN_NOT_AVAILABLE")).toBe(before + 1);
  });
});

describe("optional mail needs an https APP_ORIGIN (List-Unsubscribe)", () => {
  it("is not sent over an http origin, says why, and alerts once; account mail still goes", async () => {
    await recordSuccess("email");
    const configured = env.APP_ORIGIN;
    (env as { APP_ORIGIN: string }).APP_ORIGIN = "http://shortbeat.test";
    try {
      const to = `news-${crypto.randomUUID().slice(0, 8)}@example.com`;
      const news = await queue(to, "weekly_summary");
      const report = await deliverDue({ ids: news });
      expect(report.failed).toEqual(news);
      expect(await rowOf(present(news[0], `the summary mail to ${to}`))).toMatchObject({
        status: "failed",
        last_error: `CONFIG_APP_ORIGIN_NOT_HTTPS: ${NO_HTTPS_ORIGIN}`,
      });
      const money = await queue(`money-${crypto.randomUUID().slice(0, 8)}@example.com`, "payout_paid");
      expect((await deliverDue({ ids: money })).sent).toEqual(money);
      const more = await queue(`news2-${crypto.randomUUID().slice(0, 8)}@example.com`, "weekly_summary");
      expect((await deliverDue({ ids: more })).failed).toEqual(more);
      expect(await alerts("CONFIG_APP_ORIGIN_NOT_HTTPS")).toBe(1);
    } finally {
      (env as { APP_ORIGIN: string }).APP_ORIGIN = configured;
    }
  });
});
