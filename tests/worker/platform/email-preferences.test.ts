import { describe, expect, it } from "vitest";
import { messageFor } from "~/platform/email-delivery.server";
import { unsubscribeLinks } from "~/platform/email-preferences.server";
import { emailQuery } from "~/platform/email.server";
import { createUser } from "../../factories/users";
import { ORIGIN, count, fetchApp, postForm } from "../helpers";

// Issue 28: optional mail (news) honours a per-address setting (Settings, or one click from the
// mail: List-Unsubscribe + List-Unsubscribe-Post, RFC 8058); account and money mail always goes.

const nudge = (to: string) => emailQuery({ to, kind: "retention_nudge", subject: "We miss you", text: "Come back.\n\nhttps://shortbeat.test/dashboard" });
const optedOut = (to: string) => count("SELECT count(*) AS n FROM email_opt_outs WHERE email = ? AND category = 'news'", to);

describe("optional e-mail", () => {
  it("carries one-click unsubscribe headers and a footer link; account and money mail carries none", async () => {
    const to = "reader@example.com";
    const news = await messageFor({ toEmail: to, kind: "retention_nudge", subject: "We miss you", bodyText: "Come back.\n\nhttps://shortbeat.test/dashboard" });
    const links = await unsubscribeLinks(to, "news");
    expect(news.headers).toEqual({ "List-Unsubscribe": `<${links.oneClick}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    expect(links.oneClick.startsWith(`${ORIGIN}/email/unsubscribe?`)).toBe(true);
    expect(news.text).toContain(`Unsubscribe from these e-mails: ${links.oneClick}`);
    expect(news.html).toContain("Unsubscribe</a>");
    for (const kind of ["email_verification", "payout_paid", "account_approved"]) {
      const mail = await messageFor({ toEmail: to, kind, subject: "S", bodyText: "Body" });
      expect(mail.headers).toEqual({});
      expect(mail.text).not.toContain("Unsubscribe");
    }
  });

  it("the template: escaped HTML with the product name, the main link as a button, dark-mode styles and a footer saying why", async () => {
    const mail = await messageFor({
      toEmail: "x@example.com",
      kind: "email_verification",
      subject: "Confirm <your> e-mail",
      bodyText: "Welcome <b>!\n\nOpen this link:\nhttps://shortbeat.test/auth/verify-email?token=abc&x=1",
      // The button is the caller's action URL, never a line of the text (docs/decisions/0288).
      actionUrl: "https://shortbeat.test/auth/verify-email?token=abc&x=1",
    });
    expect(mail.html).toContain("Confirm &lt;your&gt; e-mail");
    expect(mail.html).toContain("Welcome &lt;b&gt;!");
    expect(mail.html).toContain('href="https://shortbeat.test/auth/verify-email?token=abc&amp;x=1"');
    expect(mail.html).toContain(">Confirm e-mail address</a>");
    expect(mail.html).toContain("prefers-color-scheme: dark");
    expect(mail.html).toContain('<html lang="en">');
    expect(mail.html).toContain("Shortbeat");
    expect(mail.text).toContain("You received this e-mail because someone used this address on Shortbeat.");
    expect(mail.text).toContain("https://shortbeat.test/auth/verify-email?token=abc&x=1");
  });

  it("one-click unsubscribe: the mail client's POST (no Origin) turns news off, and no more news is written", async () => {
    const to = `oneclick-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const { oneClick } = await unsubscribeLinks(to, "news");
    const res = await fetchApp(oneClick, { method: "POST", body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }) });
    expect(res.status).toBe(200);
    expect(await optedOut(to)).toBe(1);
    await nudge(to).run();
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ?", to)).toBe(0);
    // Account and money mail still goes.
    await emailQuery({ to, kind: "payout_paid", subject: "Paid", text: "Paid." }).run();
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ?", to)).toBe(1);
  });

  it("a link made for another address, or tampered with, changes nothing", async () => {
    const victim = `victim-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const { oneClick } = await unsubscribeLinks("attacker@example.com", "news");
    const forged = new URL(oneClick);
    forged.searchParams.set("e", btoa(victim).replace(/=+$/, ""));
    const res = await fetchApp(forged.toString(), { method: "POST", body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }) });
    expect(res.status).toBe(400);
    expect(await optedOut(victim)).toBe(0);
    // The page behind the link changes nothing on GET (scanners prefetch links).
    const own = await unsubscribeLinks(victim, "news");
    const page = await fetchApp(own.oneClick);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(victim);
    expect(await optedOut(victim)).toBe(0);
  });

  it("Settings turns updates off and on for the signed-in person's address", async () => {
    const user = await createUser("creator");
    const off = await postForm("/settings.data", { intent: "email-updates" }, { headers: { Cookie: user.cookie } });
    expect(off.status).toBe(200);
    expect(await optedOut(user.email)).toBe(1);
    await nudge(user.email).run();
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ?", user.email)).toBe(0);
    const page = await (await fetchApp("/settings", { headers: { Cookie: user.cookie } })).text();
    expect(page).toContain("Updates by e-mail");
    await postForm("/settings.data", { intent: "email-updates", news: "on" }, { headers: { Cookie: user.cookie } });
    expect(await optedOut(user.email)).toBe(0);
    await nudge(user.email).run();
    expect(await count("SELECT count(*) AS n FROM email_outbox WHERE to_email = ?", user.email)).toBe(1);
  });
});
