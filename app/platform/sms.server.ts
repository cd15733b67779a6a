import { encodeBase64 } from "@oslojs/encoding";
import { outboundFetch } from "./stand-in.server";
import { DomainError } from "~/lib/errors";
import { env } from "./env.server";

// Text messages: one small interface, `sendSms(to, text)`, in the shape of Twilio's Messages API
// (docs/decisions/0214, which replaces 0077's generic JSON sender): a form-encoded POST of To, From
// (or MessagingServiceSid) and Body to {api}/2010-04-01/Accounts/{AccountSid}/Messages.json with HTTP
// Basic auth (AccountSid:AuthToken); 201 with the message's sid is success.
//
// - Production: `wrangler secret put TWILIO_ACCOUNT_SID`, `TWILIO_AUTH_TOKEN`, `TWILIO_FROM` (an
//   E.164 number, or a Messaging Service sid MG…); TWILIO_API_URL defaults to https://api.twilio.com.
// - Development and tests (DEV_TOOLS=1): the same request goes to the built-in stand-in provider at
//   /dev/sms (app/dev/dev-sms.server.ts), with .dev.vars' values or the stand-in's own account; the
//   development mailbox shows what it received. Works offline.
// - Production without the secrets refuses to send (503) rather than dropping codes silently.
//
// Callers limit sending first (rate-limit.server.ts, PHONE_CODE_LIMITS): a text costs money.

export type TwilioConfig = { accountSid: string; authToken: string; from: string; apiUrl: string };

type SmsSettings = { TWILIO_ACCOUNT_SID?: string; TWILIO_AUTH_TOKEN?: string; TWILIO_FROM?: string; TWILIO_API_URL?: string; DEV_TOOLS?: string };

export const TWILIO_API_URL = "https://api.twilio.com";
/** Where the stand-in provider answers (development builds, DEV_TOOLS only). */
export const STAND_IN_SMS_PATH = "/dev/sms";
/** The stand-in's own account, used locally when .dev.vars names none (it accepts only this or .dev.vars' pair). */
export const STAND_IN_TWILIO = { accountSid: "AC00000000000000000000000000000000", authToken: "stand-in-auth-token", from: "+15005550006" } as const;

/** The provider settings in force: the secrets when set, the stand-in in development, else null (sending refused). */
export function twilioConfig(settings: SmsSettings = env as Env & SmsSettings): TwilioConfig | null {
  const apiUrl = settings.TWILIO_API_URL || TWILIO_API_URL;
  if (settings.TWILIO_ACCOUNT_SID && settings.TWILIO_AUTH_TOKEN && settings.TWILIO_FROM) {
    return { accountSid: settings.TWILIO_ACCOUNT_SID, authToken: settings.TWILIO_AUTH_TOKEN, from: settings.TWILIO_FROM, apiUrl };
  }
  if (settings.DEV_TOOLS === "1") return { ...STAND_IN_TWILIO, apiUrl: STAND_IN_SMS_PATH };
  return null;
}

/** The Messages API request for one text (the exact request the provider receives). */
export function twilioMessageRequest(config: TwilioConfig, to: string, body: string, base = "http://localhost"): Request {
  const url = new URL(`${config.apiUrl.replace(/\/$/, "")}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`, base);
  const form = new URLSearchParams({ To: to, Body: body });
  form.set(config.from.startsWith("MG") ? "MessagingServiceSid" : "From", config.from);
  return new Request(url, {
    method: "POST",
    headers: {
      Authorization: `Basic ${encodeBase64(new TextEncoder().encode(`${config.accountSid}:${config.authToken}`))}`,
      "Content-Type": "application/x-www-form-urlencoded",
      Accept: "application/json",
    },
    body: form,
  });
}

const unavailable = () => new DomainError("unavailable", "Text messages cannot be sent right now. Please try again later.", { title: "Sending failed" });

/** Sends one text to an E.164 number, or refuses (503) when no provider is configured or it refuses. Returns the provider's message sid. */
export async function sendSms(to: string, text: string, config: TwilioConfig | null = twilioConfig()): Promise<string> {
  if (!config) throw unavailable();
  let res: Response;
  try {
    res = await outboundFetch(twilioMessageRequest(config, to, text, env.APP_ORIGIN || "http://localhost"));
  } catch (error) {
    console.error("sms provider unreachable", error);
    throw unavailable();
  }
  if (res.status !== 201 && res.status !== 200) {
    console.error("sms provider refused", res.status);
    throw unavailable();
  }
  const answer = (await res.json().catch(() => ({}))) as { sid?: unknown };
  return typeof answer.sid === "string" ? answer.sid : "";
}
