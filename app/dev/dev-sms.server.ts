import { readText } from "~/platform/body.server";
import { safeEqual } from "~/platform/crypto.server";
import { env } from "~/platform/env.server";
import { STAND_IN_SMS_PATH, STAND_IN_TWILIO } from "~/platform/sms.server";

// The local stand-in SMS provider (DEV_TOOLS only), answering the one call of Twilio's Messages API
// that the app makes: POST {STAND_IN_SMS_PATH}/2010-04-01/Accounts/{AccountSid}/Messages.json,
// form-encoded To, From or MessagingServiceSid, Body, with HTTP Basic AccountSid:AuthToken. It checks
// what Twilio checks (the account in the path is the authenticated one, the fields are there) and
// answers like Twilio (201 with a message resource; 401, 400 or 404 with Twilio's error shape). Each
// text it accepts is kept in KV for 7 days with the exact request received, for the development
// mailbox and for tests.

export type StandInText = {
  sid: string;
  to: string;
  from: string;
  body: string;
  createdAt: string;
  /** The request as received: method, path, headers that matter, and the raw form body. */
  request: { method: string; path: string; authorization: string; contentType: string; form: string };
};

const PREFIX = "devsms:";
const kv = () => env.RATE_LIMITS;

function twilioError(status: number, code: number, message: string, headers?: HeadersInit): Response {
  return Response.json({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }, { status, headers });
}

/**
 * Numbers registered to fail, answered with Twilio's documented error body (tests/fixtures/providers/
 * twilio-error-*.json). The first four are Twilio's own magic "To" numbers for test credentials
 * (https://www.twilio.com/docs/iam/test-credentials, read 2026-12-06); +15005550429 is ours, for the
 * 429 Twilio answers to too many concurrent requests (https://www.twilio.com/docs/api/errors/20429).
 */
export const FAILING_NUMBERS: Record<string, { status: number; code: number; message: (to: string) => string; retryAfter?: string }> = {
  "+15005550001": { status: 400, code: 21211, message: (to) => `The 'To' number ${to} is not a valid phone number.` },
  "+15005550003": {
    status: 400,
    code: 21408,
    message: (to) => `Permission to send an SMS has not been enabled for the region indicated by the 'To' number: ${to}.`,
  },
  "+15005550004": { status: 400, code: 21610, message: () => "Attempt to send to unsubscribed recipient" },
  "+15005550009": { status: 400, code: 21614, message: (to) => `'To' number ${to} is not a valid mobile number` },
  // Twilio's 20429 page says only "safe to retry after backing off" and names no Retry-After header
  // (https://www.twilio.com/docs/api/errors/20429, read 2026-12-06): the stand-in's header exercises the
  // case where one is sent; sms.server.ts waits DEFAULT_RETRY_AFTER when none is.
  "+15005550429": { status: 429, code: 20429, message: () => "Too Many Requests", retryAfter: "30" },
};

/** The account pairs the stand-in accepts: .dev.vars' own and its built-in one. */
function knownAccount(sid: string, token: string): boolean {
  const pairs: [string, string][] = [[STAND_IN_TWILIO.accountSid, STAND_IN_TWILIO.authToken]];
  const vars = env as Env & { TWILIO_ACCOUNT_SID?: string; TWILIO_AUTH_TOKEN?: string };
  if (vars.TWILIO_ACCOUNT_SID && vars.TWILIO_AUTH_TOKEN) pairs.push([vars.TWILIO_ACCOUNT_SID, vars.TWILIO_AUTH_TOKEN]);
  return pairs.some(([s, t]) => safeEqual(s, sid) && safeEqual(t, token));
}

export async function handleStandInSms(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const accountSid = new RegExp(`^${STAND_IN_SMS_PATH}/2010-04-01/Accounts/([^/]+)/Messages\\.json$`).exec(url.pathname)?.[1];
  if (!accountSid || request.method !== "POST") return twilioError(404, 20404, "The requested resource was not found");
  const authorization = request.headers.get("Authorization") ?? "";
  let user = "";
  let pass = "";
  try {
    [user = "", pass = ""] = atob(authorization.replace(/^Basic /, "")).split(":");
  } catch {
    // not Basic: refused below
  }
  if (!authorization.startsWith("Basic ") || !knownAccount(user ?? "", pass ?? "") || user !== decodeURIComponent(accountSid)) {
    return twilioError(401, 20003, "Authenticate");
  }
  const contentType = request.headers.get("Content-Type") ?? "";
  const raw = await readText(request, 16_384);
  const form = new URLSearchParams(raw);
  const to = form.get("To") ?? "";
  const from = form.get("From") ?? form.get("MessagingServiceSid") ?? "";
  const body = form.get("Body") ?? "";
  // 21604 "'To' phone number is required to send a Message": its documented causes are a missing To
  // and a request "not formatted as application/x-www-form-urlencoded" (https://www.twilio.com/docs/errors/21604).
  // (21610 is an unsubscribed recipient, which the app tells the person as "you replied STOP".)
  if (!contentType.startsWith("application/x-www-form-urlencoded") || !to) {
    return twilioError(400, 21604, "'To' phone number is required to send a Message");
  }
  const failing = FAILING_NUMBERS[to];
  if (failing) return twilioError(failing.status, failing.code, failing.message(to), failing.retryAfter ? { "Retry-After": failing.retryAfter } : undefined);
  if (!/^\+[1-9]\d{6,14}$/.test(to)) return twilioError(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
  if (!from) return twilioError(400, 21603, "A 'From' or 'MessagingServiceSid' parameter is required to send a message.");
  if (!body) return twilioError(400, 21602, "Message body is required.");
  const sid = `SM${crypto.randomUUID().replaceAll("-", "")}`;
  const createdAt = new Date().toISOString();
  const text: StandInText = {
    sid,
    to,
    from,
    body,
    createdAt,
    request: { method: request.method, path: url.pathname, authorization, contentType, form: raw },
  };
  // Newest first when listed: the key sorts by the inverted time.
  await kv().put(`${PREFIX}${String(9e15 - Date.now()).padStart(16, "0")}:${sid}`, JSON.stringify(text), { expirationTtl: 7 * 86_400 });
  return Response.json(
    { sid, account_sid: user, to, from, body, status: "queued", num_segments: "1", direction: "outbound-api", date_created: new Date(createdAt).toUTCString() },
    { status: 201 },
  );
}

/** The texts the stand-in received, newest first (to one number if given). */
export async function recentTexts(to = "", limit = 50): Promise<StandInText[]> {
  const list = await kv().list({ prefix: PREFIX, limit: 200 });
  const texts = await Promise.all(list.keys.map((k) => kv().get<StandInText>(k.name, "json")));
  return texts.filter((t): t is StandInText => t !== null && (!to || t.to === to)).slice(0, limit);
}
