// Issue 40, items 1 and 6 (docs/decisions/0287, 0288). The attack: a creator set their profile name
// to 'Sec Casey\n\nhttps://evil.example/shortbeat-login\n\nSee you' and invited a clipper by e-mail;
// the name kept its line breaks, the URL stood alone on its line, and the template made it the
// invitation's "Open the invitation" button. A name with CR/LF reached the Subject header. Now a
// name is one line wherever it is stored; in an e-mail what someone typed is inert text (never a
// link, never the button; the caller gives the button's URL, ours); no header carries a control
// character. Old rows (a name stored before, an outbox row queued before) are safe too.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deliverDue, type EmailBinding, messageFor } from "~/platform/email-delivery.server";
import { createUser, type TestUser } from "../../factories/users";
import { act } from "../clipping/helpers";
import { ORIGIN, googleAs, postForm, signUpFields, withCookie } from "../helpers";
import { present } from "../../helpers/present";

const ATTACK = "Sec Casey\n\nhttps://evil.example/shortbeat-login\n\nSee you";
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must be absent
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

type OutboxRow = { id: string; subject: string; body_text: string; user_spans: string | null; action_url: string | null; kind: string; to_email: string };

const outboxRow = (to: string, kind: string) =>
  env.DB.prepare("SELECT * FROM email_outbox WHERE to_email = ? AND kind = ? ORDER BY created_at DESC").bind(to, kind).first<OutboxRow>();

const nameOf = async (userId: string) =>
  (await env.DB.prepare("SELECT full_name FROM profiles WHERE user_id = ?").bind(userId).first<{ full_name: string }>())?.full_name;

/** The creator invites a new address; the e-mail as it would leave. */
async function invitationMail(creator: TestUser) {
  const to = `invitee-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const res = await act(creator, { intent: "create-invitation", email: to });
  expect(res.status).toBe(200);
  const row = await outboxRow(to, "clipper_invitation");
  expect(row, "the invitation e-mail is queued").not.toBeNull();
  const r = row as OutboxRow;
  const message = await messageFor({
    toEmail: r.to_email,
    kind: r.kind,
    subject: r.subject,
    bodyText: r.body_text,
    userSpans: r.user_spans,
    actionUrl: r.action_url,
  });
  return { row: r, message };
}

const hrefsOf = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => present(m[1], "an href").replace(/&amp;/g, "&"));
const buttonsOf = (html: string) =>
  [...html.matchAll(/<a href="([^"]*)" class="sb-button"/g)].map((m) => present(m[1], "a button's href").replace(/&amp;/g, "&"));

/** What the attack needs: evil.example as a link, a button, an address a mail client links, or the URL alone on a line of the text part. */
function expectInert(message: { html: string; text: string; subject: string }) {
  for (const href of hrefsOf(message.html)) expect(new URL(href).origin, `link ${href}`).toBe(ORIGIN);
  const buttons = buttonsOf(message.html);
  expect(buttons).toHaveLength(1);
  expect(buttons[0]).toMatch(new RegExp(`^${ORIGIN}/auth\\?ref=[a-z2-7]{32}&clipper=1$`));
  expect(message.html).not.toContain("evil.example");
  expect(message.html).not.toMatch(/https?:\/\/evil/);
  expect(message.text).not.toContain("https://evil.example");
  expect(message.text.split("\n").some((line) => /^\s*https?:\/\/\S*evil/.test(line))).toBe(false);
  // The person's text is still there to read.
  expect(message.html).toContain("Sec Casey");
  expect(message.subject).not.toMatch(CONTROL);
}

describe("a name with a line break and a URL in a clipper invitation (issue 40, item 1)", () => {
  it("the attack as run: the profile name is stored as one line; the e-mail's only action is our link", async () => {
    const creator = await createUser("creator");
    const saved = await postForm("/profile", { intent: "name", fullName: ATTACK }, withCookie(creator.cookie));
    expect(saved.status).toBe(200);
    expect(await nameOf(creator.id)).toBe("Sec Casey https://evil.example/shortbeat-login See you");
    const { row, message } = await invitationMail(creator);
    expect(row.action_url).toBe(buttonsOf(message.html)[0]);
    expectInert(message);
  });

  it("a name stored before the fix (line breaks in the row) is still inert in the e-mail", async () => {
    const creator = await createUser("creator", { fullName: ATTACK });
    expect(await nameOf(creator.id)).toBe(ATTACK);
    const { row, message } = await invitationMail(creator);
    // The e-mail has the name on one line, and the outbox row says where it is.
    expect(row.body_text).toContain("Sec Casey https://evil.example/shortbeat-login See you invited you");
    expect(row.user_spans).not.toBeNull();
    expectInert(message);
  });

  it("an outbox row queued before the fix (the URL alone on its line, no spans, no action) gets no button and no link off our origin", async () => {
    const message = await messageFor({
      toEmail: "old-row@example.com",
      kind: "clipper_invitation",
      subject: "Sec Casey invited you to clip for them on Shortbeat",
      bodyText: `${ATTACK} invited you.\n\nAccept the invitation here:\n${ORIGIN}/auth?ref=abc&clipper=1\n`,
    });
    expect(buttonsOf(message.html)).toHaveLength(0);
    for (const href of hrefsOf(message.html)) expect(new URL(href).origin).toBe(ORIGIN);
    expect(message.html).not.toContain("evil.example");
    expect(message.text).not.toContain("https://evil.example");
    expect(hrefsOf(message.html)).toContain(`${ORIGIN}/auth?ref=abc&clipper=1`);
  });
});

describe("names are stored as one line (issue 40, item 1)", () => {
  it("sign-up", async () => {
    const email = `oneline-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await postForm("/auth", signUpFields(email, { fullName: "Nova\r\n\r\nhttps://evil.example\tNewcomer" }), {
      headers: { "CF-Connecting-IP": "198.51.103.7" },
    });
    const row = await env.DB.prepare("SELECT p.full_name, u.user_metadata FROM profiles p JOIN users u ON u.id = p.user_id WHERE u.email = ?")
      .bind(email)
      .first<{ full_name: string; user_metadata: string }>();
    expect(row?.full_name).toBe("Nova https://evil.example Newcomer");
    expect(JSON.parse(row?.user_metadata ?? "{}").full_name).toBe("Nova https://evil.example Newcomer");
  });

  it("profile", async () => {
    const user = await createUser("creator");
    await postForm("/profile", { intent: "name", fullName: "Sec Casey\r\nBcc: attacker@example.com" }, withCookie(user.cookie));
    expect(await nameOf(user.id)).toBe("Sec Casey Bcc: attacker@example.com");
  });

  it("Google sign-up", async () => {
    const email = `google-oneline-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await googleAs({ email, name: "Goo\n\ngle\r\nPerson" });
    const row = await env.DB.prepare("SELECT p.full_name FROM profiles p JOIN users u ON u.id = p.user_id WHERE u.email = ?")
      .bind(email)
      .first<{ full_name: string }>();
    expect(row?.full_name).toBe("Goo gle Person");
  });
});

describe("no header carries a control character (issue 40, item 6)", () => {
  it("a Subject built from a name with CR/LF leaves as one line", async () => {
    // A name stored before the fix: the sanitizer on input cannot have cleaned it.
    const creator = await createUser("creator", { fullName: "Sec Casey\r\nBcc: attacker@example.com" });
    const { row } = await invitationMail(creator);
    expect(row.subject).not.toMatch(CONTROL);
    expect(row.subject).toBe("Sec Casey Bcc: attacker@example.com invited you to clip for them on Shortbeat");
    // A copy of the row, sent through a binding that records what it is handed (the request's own
    // sender does not know this id).
    const id = crypto.randomUUID();
    await env.DB.prepare(
      "INSERT INTO email_outbox (id, to_email, subject, body_text, user_spans, action_url, kind) SELECT ?, to_email, subject || ?, body_text, user_spans, action_url, kind FROM email_outbox WHERE id = ?",
    )
      .bind(id, "\r\nX-Injected: yes", row.id)
      .run();
    const handed: unknown[] = [];
    const recorder = {
      send: async (message: unknown) => {
        handed.push(message);
        return { messageId: `<${crypto.randomUUID()}@shortbeat.test>` };
      },
    } as unknown as EmailBinding;
    const report = await deliverDue({ ids: [id], via: recorder });
    expect(report.sent).toEqual([id]);
    expect(handed).toHaveLength(1);
    const sent = handed[0] as { subject: string; from: unknown; to: unknown; headers?: Record<string, string> };
    expect(sent.subject).not.toMatch(CONTROL);
    expect(sent.subject).toBe("Sec Casey Bcc: attacker@example.com invited you to clip for them on Shortbeat X-Injected: yes");
    for (const value of [JSON.stringify(sent.from), JSON.stringify(sent.to), ...Object.values(sent.headers ?? {})]) expect(value).not.toMatch(/\\r|\\n|[\r\n]/);
  });
});
