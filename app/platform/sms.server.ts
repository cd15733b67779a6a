import { emailOutbox } from "~/db/schema";
import { DomainError } from "~/lib/errors";
import { db } from "./db.server";
import { devToolsEnabled, env } from "./env.server";

// Text messages: one small interface, `send(to, text)`. See docs/decisions/0077-sms-interface.md.
//
// - Locally (DEV_TOOLS=1) a text goes into the e-mail outbox with kind 'sms' and the number as
//   its recipient, so the development mailbox (/dev/mailbox) shows it next to the e-mails.
// - In production a provider plugs in behind the same function: set the secrets
//   `wrangler secret put SMS_API_URL`, `SMS_API_TOKEN`, `SMS_FROM` and `httpSender` posts
//   `{ to, from, text }` as JSON with a Bearer token (a provider that wants another shape, e.g.
//   Twilio's form-encoded Messages API, gets its own small SmsSender here). Without a provider a
//   production Worker refuses to send rather than dropping codes silently.
//
// Callers limit sending first (rate-limit.server.ts, PHONE_CODE_LIMITS): a text costs money.

export interface SmsSender {
  send(to: string, text: string): Promise<void>;
}

/** The optional provider secrets (not in wrangler.toml: set only where texts really go out). */
type SmsSecrets = { SMS_API_URL?: string; SMS_API_TOKEN?: string; SMS_FROM?: string };

/** Development: the text lands in the outbox the development mailbox reads. */
const outboxSender: SmsSender = {
  async send(to, text) {
    await db()
      .insert(emailOutbox)
      .values({ id: crypto.randomUUID(), toEmail: to, subject: `Text message to ${to}`, bodyText: text, kind: "sms" });
  },
};

/** Production: an HTTP SMS API with a Bearer token. */
function httpSender(url: string, token: string, from: string): SmsSender {
  return {
    async send(to, text) {
      const res = await fetch(url, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ to, from, text }),
      });
      if (!res.ok) {
        console.error("sms provider refused", res.status);
        throw unavailable();
      }
    },
  };
}

const unavailable = () => new DomainError("unavailable", "Text messages cannot be sent right now. Please try again later.", { title: "Sending failed" });

/** The sender in force: the provider when its secrets are set, else the outbox in development. */
export function smsSender(): SmsSender {
  const secrets = env as Env & SmsSecrets;
  if (secrets.SMS_API_URL && secrets.SMS_API_TOKEN && secrets.SMS_FROM) return httpSender(secrets.SMS_API_URL, secrets.SMS_API_TOKEN, secrets.SMS_FROM);
  if (devToolsEnabled()) return outboxSender;
  return {
    async send() {
      throw unavailable();
    },
  };
}

/** Sends one text to an E.164 number. */
export async function sendSms(to: string, text: string): Promise<void> {
  await smsSender().send(to, text);
}
