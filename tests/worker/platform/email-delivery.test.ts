import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deliverDue } from "~/platform/email-delivery.server";
import { BACKOFF_MS, MAX_ATTEMPTS } from "~/platform/email-failures.server";
import { emailQuery, emailsQuery } from "~/platform/email.server";
import { db } from "~/platform/db.server";
import { createUser } from "../../factories/users";
import { TEST_PASSWORD, count, fetchApp, passwordBeforeAll, postForm, withCookie, signUpFields } from "../helpers";
import { present } from "../../helpers/present";

// Issue 28: the outbox is delivered through the EMAIL binding (Miniflare's here): each row claimed
// once, stamped sent with the message id; failures retried with backoff, then failed with the
// error; one security e-mail per kind and address within its window.

const password = passwordBeforeAll();

type Row = {
  id: string;
  status: string;
  attempts: number;
  sent_at: string | null;
  message_id: string | null;
  last_error: string | null;
  next_attempt_at: string;
};

const rowsTo = async (to: string) =>
  (
    await env.DB.prepare(
      "SELECT id, status, attempts, sent_at, message_id, last_error, next_attempt_at FROM email_outbox WHERE to_email = ? ORDER BY created_at",
    )
      .bind(to)
      .all<Row>()
  ).results;

/** Rows queued as a request would (the kick after the response is not awaited here). */
async function queue(to: string, n: number, kind = "payout_paid") {
  await db().batch(
    Array.from({ length: n }, (_, i) => emailQuery({ to, kind, subject: `Payout ${i}`, text: `Your payout ${i}.\n\nhttps://shortbeat.test/payments` })) as [
      ReturnType<typeof emailQuery>,
      ...ReturnType<typeof emailQuery>[],
    ],
  );
}

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("delivery through the EMAIL binding", () => {
  it("a sign-up's verification e-mail leaves within seconds, stamped sent with the message id", async () => {
    const email = `newcomer-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const res = await postForm("/auth", signUpFields(email, { subscribers: "10", monthlyViews: "100" }), { headers: { "CF-Connecting-IP": "198.51.100.7" } });
    expect(res.status).toBeLessThan(400);
    // Nobody calls the sender here: the request's own waitUntil does, after its batch.
    const rows = await eventually(
      () => rowsTo(email),
      (r) => r.length === 1 && r[0]?.status === "sent",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "sent", attempts: 1, last_error: null });
    const sent = present(rows[0], "the sent row");
    expect(sent.sent_at).not.toBeNull();
    expect(sent.message_id).toMatch(/@/);
  });

  it("parallel senders: every row is claimed and sent exactly once", async () => {
    const to = `parallel-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await queue(to, 30);
    const ids = (await rowsTo(to)).map((r) => r.id);
    const reports = await Promise.all(Array.from({ length: 5 }, () => deliverDue({ ids })));
    const sent = reports.flatMap((r) => r.sent);
    expect(sent.sort()).toEqual([...ids].sort());
    expect(new Set(sent).size).toBe(30);
    const rows = await rowsTo(to);
    expect(rows.every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
    expect(new Set(rows.map((r) => r.message_id)).size).toBe(30);
    // Nothing is left to claim.
    expect((await deliverDue({ ids })).claimed).toBe(0);
  });

  it("a refused send is retried with backoff, then marked failed with the error after the last try", async () => {
    const to = `refused-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await queue(to, 1);
    const { id } = present((await rowsTo(to))[0], `the row queued to ${to}`);
    const start = Date.now();
    const first = await deliverDue({ ids: [id], via: env.EMAIL_REFUSING, now: start });
    expect(first.retrying).toEqual([id]);
    let row = present((await rowsTo(to))[0], `the row queued to ${to}`);
    expect(row).toMatchObject({ status: "pending", attempts: 1, sent_at: null });
    expect(row.last_error).toMatch(/not allowed/);
    expect(Date.parse(row.next_attempt_at) - start).toBe(BACKOFF_MS[0]);
    // Not due again before its time.
    expect((await deliverDue({ ids: [id], via: env.EMAIL_REFUSING, now: start + BACKOFF_MS[0] - 1000 })).claimed).toBe(0);
    let at = start;
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      at = Date.parse(present((await rowsTo(to))[0], `the row queued to ${to}`).next_attempt_at);
      const report = await deliverDue({ ids: [id], via: env.EMAIL_REFUSING, now: at });
      expect(report.claimed).toBe(1);
    }
    row = present((await rowsTo(to))[0], `the row queued to ${to}`);
    expect(row).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, sent_at: null });
    expect(row.last_error).toMatch(/not allowed/);
    // A failed row is never taken again.
    expect((await deliverDue({ ids: [id], now: at + 86_400_000 })).claimed).toBe(0);
    // The admin sees it: status and reason on the person's panel.
    const admin = await createUser("admin");
    const person = await createUser("creator", { email: to });
    const html = await (await fetchApp(`/admin?user=${person.id}`, withCookie(admin.cookie))).text();
    expect(html).toContain("Failed");
    expect(html).toContain("not allowed");
  });

  it("a row whose sender died is taken again once its lease has run out", async () => {
    const to = `stale-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await queue(to, 1);
    const { id } = present((await rowsTo(to))[0], `the row queued to ${to}`);
    await env.DB.prepare("UPDATE email_outbox SET status = 'sending', claim_id = 'dead', claimed_until = ?, attempts = 1 WHERE id = ?")
      .bind(new Date(Date.now() + 60_000).toISOString(), id)
      .run();
    expect((await deliverDue({ ids: [id] })).claimed).toBe(0);
    const report = await deliverDue({ ids: [id], now: Date.now() + 120_000 });
    expect(report.sent).toEqual([id]);
    expect((await rowsTo(to))[0]).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("bulk e-mails (one statement per 200) are delivered too", async () => {
    const a = `bulk-a-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const b = `bulk-b-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const [first, ...rest] = emailsQuery(
      [
        { to: a, text: "Campaign ended." },
        { to: b, text: "Campaign ended." },
      ],
      "Campaign ended: Test",
      "campaign_ended",
    );
    await db().batch([present(first, "the first e-mail statement"), ...rest]);
    await deliverDue();
    expect((await rowsTo(a))[0]?.status).toBe("sent");
    expect((await rowsTo(b))[0]?.status).toBe("sent");
  });
});

describe("one security e-mail per kind and address within the window", () => {
  it("four sign-in attempts of an unverified account write one confirmation e-mail", async () => {
    const user = await createUser("pending", { passwordHash: password.hash });
    await env.DB.prepare("UPDATE users SET email_verified_at = NULL WHERE id = ?").bind(user.id).run();
    for (let i = 0; i < 4; i++) {
      const res = await postForm(
        "/auth",
        { intent: "signin", email: user.email, password: TEST_PASSWORD },
        { headers: { "CF-Connecting-IP": `203.0.113.${40 + i}` } },
      );
      expect(res.status).toBe(403);
    }
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'email_verification'", user.email)).toBe(1);
  });

  it("parallel requests write one", async () => {
    const to = `flood-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        emailQuery({ to, kind: "password_reset", subject: "Reset", text: "https://shortbeat.test/auth/reset-password?token=x" }).run(),
      ),
    );
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ? AND kind = 'password_reset'", to)).toBe(1);
    // Another kind to the same address is not held back, nor are notices of distinct events.
    await emailQuery({ to, kind: "signup_existing", subject: "x", text: "x" }).run();
    await queue(to, 2, "payout_paid");
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ?", to)).toBe(4);
  });
});
