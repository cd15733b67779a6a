import { encodeBase64 } from "@oslojs/encoding";
import { outboundFetch } from "./stand-in.server";
import { DomainError } from "~/lib/errors";
import { env } from "./env.server";
import { alertAdminsOnce, recordFailure, recordSuccess } from "./service-status.server";

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

/**
 * Twilio's error body (https://www.twilio.com/docs/usage/troubleshooting/debugging-your-application#debugging-calls-to-the-rest-api):
 * `{ code, message, more_info, status }`; the codes are https://www.twilio.com/docs/api/errors (read 2026-12-06).
 */
export type TwilioError = { status: number; code: number | null; message: string; moreInfo: string | null };

/** Reads Twilio's error body; anything else (an HTML page, a proxy's error) becomes the HTTP status alone. */
export function parseTwilioError(status: number, body: unknown): TwilioError {
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  return {
    status,
    code: typeof b.code === "number" && Number.isInteger(b.code) ? b.code : null,
    message: typeof b.message === "string" ? b.message.slice(0, 300) : `HTTP ${status}`,
    moreInfo: typeof b.more_info === "string" ? b.more_info : null,
  };
}

export const SMS_MESSAGES = {
  invalidNumber: "This phone number cannot receive texts. Check it and enter it in international format, e.g. +44 7700 900123.",
  optedOut: "This number has opted out of our texts (it replied STOP). Text START to our number to receive them again, or use another number.",
  regionBlocked: "We cannot send texts to this country yet. Our team has been told; please try again later or use another number.",
  busy: "Text messages are busy right now. Please try again in a minute.",
} as const;

/** Seconds to wait after a 429 when Twilio sends no Retry-After. */
const DEFAULT_RETRY_AFTER = 60;

/**
 * What a refusal means for the person and the operator (docs/decisions/0310):
 * - 21211 "Invalid 'To' Phone Number", 21614 "'To' number is not a valid mobile number": the phone
 *   field's error (400) — https://www.twilio.com/docs/api/errors/21211, /21614;
 * - 21610 "Attempt to send to unsubscribed recipient" (the person replied STOP): a clear 400 saying
 *   how to opt back in — https://www.twilio.com/docs/api/errors/21610;
 * - 21408 "Permission to send an SMS has not been enabled for the region": the operator must enable
 *   the country in Messaging Geo Permissions: the admins are alerted once, the person gets a 503 —
 *   https://www.twilio.com/docs/api/errors/21408;
 * - HTTP 429 / 20429 "Too many requests" ("never processed and is always safe to retry"): 429 with
 *   Retry-After — https://www.twilio.com/docs/api/errors/20429;
 * - 20003 "Authenticate" (wrong account or token): an operator's fix, alerted once; 503 to the person;
 * - anything else: 503, as before.
 */
export async function smsErrorFor(error: TwilioError, retryAfterHeader: string | null = null): Promise<DomainError> {
  const title = "Text not sent";
  if (error.code === 21211 || error.code === 21614) {
    return new DomainError("invalid_input", SMS_MESSAGES.invalidNumber, { title, fieldErrors: { phone: SMS_MESSAGES.invalidNumber } });
  }
  if (error.code === 21610) return new DomainError("invalid_input", SMS_MESSAGES.optedOut, { title, fieldErrors: { phone: SMS_MESSAGES.optedOut } });
  if (error.code === 21408) {
    await alertAdminsOnce("sms", "21408", `Twilio refused a text: ${error.message} Enable the destination in Twilio's Messaging → Settings → Geo permissions.`);
    return new DomainError("unavailable", SMS_MESSAGES.regionBlocked, { title });
  }
  if (error.status === 429 || error.code === 20429) {
    const seconds = Number(retryAfterHeader);
    const retryAfterSeconds = Number.isInteger(seconds) && seconds > 0 ? Math.min(seconds, 3600) : DEFAULT_RETRY_AFTER;
    return new DomainError("rate_limited", SMS_MESSAGES.busy, { title, retryAfterSeconds });
  }
  if (error.code === 20003) await alertAdminsOnce("sms", "20003", "Twilio refused the account's credentials: check TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN.");
  return unavailable();
}

/** Sends one text to an E.164 number, or refuses with what Twilio's answer means (smsErrorFor). Returns the provider's message sid. */
export async function sendSms(to: string, text: string, config: TwilioConfig | null = twilioConfig()): Promise<string> {
  if (!config) throw unavailable();
  let res: Response;
  try {
    res = await outboundFetch(twilioMessageRequest(config, to, text, env.APP_ORIGIN || "http://localhost"));
  } catch (error) {
    console.error("sms provider unreachable", error);
    await recordFailure("sms", null, "Twilio could not be reached.");
    throw unavailable();
  }
  if (res.status !== 201 && res.status !== 200) {
    const error = parseTwilioError(res.status, await res.json().catch(() => null));
    console.error("sms provider refused", res.status, error.code);
    await recordFailure("sms", error.code === null ? `HTTP ${res.status}` : String(error.code), error.message);
    throw await smsErrorFor(error, res.headers.get("Retry-After"));
  }
  await recordSuccess("sms");
  return parseTwilioMessage(await res.json().catch(() => ({}))).sid;
}

/** The created Message resource, as far as we read it (https://www.twilio.com/docs/messaging/api/message-resource). */
export function parseTwilioMessage(body: unknown): { sid: string; status: string | null } {
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  return { sid: typeof b.sid === "string" ? b.sid : "", status: typeof b.status === "string" ? b.status : null };
}
