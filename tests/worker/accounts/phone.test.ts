// Issue 11, item 19: sign-in by e-mail or a verified phone number. The number is added in Settings
// and verified once with a 6-digit code sent by text (locally to the stand-in SMS provider, whose
// texts the development mailbox shows); sending is limited exactly per user, address, number and
// country prefix.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { recentTexts } from "~/dev/dev-sms.server";
import { countryPrefix } from "~/modules/accounts/accounts.server";
import { consume, PHONE_CODE_LIMITS } from "~/platform/rate-limit.server";
import { sendSms, twilioConfig, twilioMessageRequest } from "~/platform/sms.server";
import { createUser, type TestUser } from "../../factories/users";
import { count, fetchApp, passwordBeforeAll, postForm, redirectTarget, TEST_PASSWORD, withCookie } from "../helpers";
import { present } from "../../helpers/present";

const password = passwordBeforeAll();

let ipCounter = 0;
/** A fresh connecting address, so the per-address limit of one test does not touch another. */
const freshIp = () => `198.18.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

let numberCounter = Math.floor(Math.random() * 800_000);
/** A fresh UK mobile number in E.164 (+447700 and six digits). */
const freshNumber = () => `+447700${String(++numberCounter).padStart(6, "0")}`;

const settings = (user: TestUser, fields: Record<string, string>, ip = freshIp()) =>
  postForm("/settings.data", fields, { headers: { Cookie: user.cookie, "CF-Connecting-IP": ip } });

const send = (user: TestUser, phone: string, ip?: string) => settings(user, { intent: "phone-send", phone }, ip);
const verify = (user: TestUser, code: string) => settings(user, { intent: "phone-verify", code });

/** The code of the newest text sent to `phone`, as the stand-in provider received it (the development mailbox). */
async function codeSentTo(phone: string): Promise<string> {
  const [text] = await recentTexts(phone);
  const code = /\b(\d{6})\b/.exec(text?.body ?? "")?.[1];
  if (!code) throw new Error(`no text sent to ${phone}`);
  return code;
}

const phoneOf = (userId: string) =>
  env.DB.prepare("SELECT phone, phone_verified_at AS verifiedAt FROM users WHERE id = ?")
    .bind(userId)
    .first<{ phone: string | null; verifiedAt: string | null }>();

const textsTo = async (phone: string) => (await recentTexts(phone)).length;

async function addVerifiedPhone(user: TestUser, phone: string) {
  expect((await send(user, phone)).status).toBe(200);
  const res = await verify(user, await codeSentTo(phone));
  expect(res.status).toBe(200);
}

const signIn = (email: string, pw = TEST_PASSWORD, ip = freshIp()) =>
  postForm("/auth", { intent: "signin", email, password: pw }, { headers: { "CF-Connecting-IP": ip } });

describe("adding and verifying a phone number", () => {
  it("sends a 6-digit code by text, keeps only its HMAC, and verifies the number with it", async () => {
    const user = await createUser("creator");
    const phone = freshNumber();
    const sent = await send(user, phone.replace(/^\+44/, "0044 ").replace(/(\d{4})(\d+)$/, "$1 $2"));
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain("Code sent");
    expect(await phoneOf(user.id)).toEqual({ phone, verifiedAt: null });

    const code = await codeSentTo(phone);
    expect(code).toMatch(/^\d{6}$/);
    const stored = await env.DB.prepare("SELECT code_hash, attempts, expires_at, consumed_at FROM phone_codes WHERE user_id = ?")
      .bind(user.id)
      .first<{ code_hash: string; attempts: number; expires_at: string; consumed_at: string | null }>();
    expect(stored?.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.code_hash).not.toContain(code);
    const ttl = Date.parse(stored!.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);

    const page = await fetchApp("/settings", withCookie(user.cookie));
    const html = await page.text();
    expect(html).toContain("Not verified");
    expect(html).toContain("Verification code");

    const ok = await verify(user, code);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("Phone number verified");
    expect((await phoneOf(user.id))?.verifiedAt).not.toBeNull();
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'phone_verified' AND user_id = ?", user.id)).toBe(1);
    expect(await (await fetchApp("/settings", withCookie(user.cookie))).text()).toContain("Verified");
  });

  it("refuses a number that is not in international format, and changes nothing", async () => {
    const user = await createUser("creator");
    for (const phone of ["07700 900123", "+12", "+44 7700 900123 ext 5", "not a number", ""]) {
      const res = await send(user, phone);
      expect(res.status, phone).toBe(400);
    }
    expect(await phoneOf(user.id)).toEqual({ phone: null, verifiedAt: null });
    expect(await count("SELECT count(*) AS n FROM phone_codes WHERE user_id = ?", user.id)).toBe(0);
    const badCode = await verify(user, "12ab56");
    expect(badCode.status).toBe(400);
    expect(await badCode.text()).toContain("Enter the 6-digit code from the text message.");
  });

  it("a number verified by one account cannot be verified by another", async () => {
    const [first, second] = await Promise.all([createUser("creator"), createUser("creator")]);
    const phone = freshNumber();
    await addVerifiedPhone(first, phone);
    expect((await send(second, phone)).status).toBe(200);
    const res = await verify(second, await codeSentTo(phone));
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("This phone number is already verified on another account.");
    expect((await phoneOf(second.id))?.verifiedAt).toBeNull();
    expect((await phoneOf(first.id))?.verifiedAt).not.toBeNull();
  });

  it("changing or removing the number unverifies it", async () => {
    const user = await createUser("creator", { passwordHash: password.hash });
    const [oldPhone, newPhone] = [freshNumber(), freshNumber()];
    await addVerifiedPhone(user, oldPhone);
    expect((await send(user, newPhone)).status).toBe(200);
    expect(await phoneOf(user.id)).toEqual({ phone: newPhone, verifiedAt: null });
    expect((await signIn(oldPhone)).status).toBe(400);

    const res = await verify(user, await codeSentTo(newPhone));
    expect(res.status).toBe(200);
    expect((await settings(user, { intent: "phone-remove" })).status).toBe(200);
    expect(await phoneOf(user.id)).toEqual({ phone: null, verifiedAt: null });
    expect((await signIn(newPhone)).status).toBe(400);
  });
});

describe("signing in with a phone number", () => {
  it("a verified number and the password sign in, however the number is typed", async () => {
    const user = await createUser("creator", { passwordHash: password.hash });
    const phone = freshNumber();
    await addVerifiedPhone(user, phone);
    const typed = `${phone.slice(0, 3)} (${phone.slice(3, 7)}) ${phone.slice(7, 10)}-${phone.slice(10)}`;
    const res = await signIn(typed);
    expect(res.status).toBe(302);
    expect(await redirectTarget(res)).toBe("/dashboard");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("__Host-sb_session="))).toBe(true);
    const sessions = await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", user.id);
    expect(sessions).toBe(2);
  });

  it("an unverified number does not sign in: the same 'Invalid login credentials' as a wrong password", async () => {
    const user = await createUser("creator", { passwordHash: password.hash });
    const phone = freshNumber();
    expect((await send(user, phone)).status).toBe(200);
    const res = await signIn(phone);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Invalid login credentials");
    const unknown = await signIn(freshNumber());
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("Invalid login credentials");
  });

  it("the number and the e-mail share one per-account limit: 5 wrong by phone lock the e-mail too", async () => {
    const user = await createUser("creator", { passwordHash: password.hash });
    const phone = freshNumber();
    await addVerifiedPhone(user, phone);
    const wrong = await Promise.all(Array.from({ length: 5 }, () => signIn(phone, "Wrong#Passw0rd")));
    expect(wrong.map((r) => r.status)).toEqual([400, 400, 400, 400, 400]);
    expect((await signIn(user.email)).status).toBe(429);
    expect((await signIn(phone)).status).toBe(429);
  });
});

describe("sending limits (exact under concurrency)", () => {
  it("per user: of 5 parallel sends 3 go out; the others are 'Rate limit exceeded'", async () => {
    const user = await createUser("creator");
    const numbers = Array.from({ length: 5 }, () => freshNumber());
    const results = await Promise.all(numbers.map((n) => send(user, n)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(PHONE_CODE_LIMITS.user.maxAttempts);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(5 - PHONE_CODE_LIMITS.user.maxAttempts);
    const first = present(refused[0], "a refused send");
    expect(Number(first.headers.get("Retry-After"))).toBeGreaterThan(0);
    const body = await first.text();
    expect(body).toContain("Rate limit exceeded");
    expect(body).toContain("Please wait before trying again.");
    let texts = 0;
    for (const n of numbers) texts += await textsTo(n);
    expect(texts).toBe(PHONE_CODE_LIMITS.user.maxAttempts);
  });

  it("per number: 8 accounts texting one number in parallel get 5 texts out", async () => {
    const users = await Promise.all(Array.from({ length: 8 }, () => createUser("creator")));
    const phone = freshNumber();
    const results = await Promise.all(users.map((u) => send(u, phone)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(PHONE_CODE_LIMITS.number.maxAttempts);
    expect(results.filter((r) => r.status === 429)).toHaveLength(8 - PHONE_CODE_LIMITS.number.maxAttempts);
    expect(await textsTo(phone)).toBe(PHONE_CODE_LIMITS.number.maxAttempts);
  });

  it("per address: 12 accounts from one address in parallel get 10 texts out", async () => {
    const users = await Promise.all(Array.from({ length: 12 }, () => createUser("creator")));
    const ip = freshIp();
    const results = await Promise.all(users.map((u) => send(u, freshNumber(), ip)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(PHONE_CODE_LIMITS.ip.maxAttempts);
    expect(results.filter((r) => r.status === 429)).toHaveLength(12 - PHONE_CODE_LIMITS.ip.maxAttempts);
  });

  it("per country prefix per day: once a prefix's daily cap is spent, no text goes to it (SMS pumping)", async () => {
    // Palau (+680): spend the day's budget as other senders would have.
    const cap = PHONE_CODE_LIMITS.country;
    const spent = await Promise.all(Array.from({ length: cap.maxAttempts }, () => consume("phone-code:country", "country:+680", cap)));
    expect(spent.every((r) => r.allowed)).toBe(true);

    const user = await createUser("creator");
    const pumped = "+6807751234";
    const res = await send(user, pumped);
    expect(res.status).toBe(429);
    expect(await res.text()).toContain("Rate limit exceeded");
    expect(await textsTo(pumped)).toBe(0);
    expect(await phoneOf(user.id)).toEqual({ phone: null, verifiedAt: null });
    // Another country is not affected.
    const other = await createUser("creator");
    expect((await send(other, "+3546101234")).status).toBe(200);
  });

  it("reads the country calling code of E.164 numbers (1 to 3 digits)", () => {
    expect(
      ["+15551234567", "+74951234567", "+447700900123", "+33612345678", "+353861234567", "+6807751234", "+8613812345678", "+97150123456"].map(countryPrefix),
    ).toEqual(["+1", "+7", "+44", "+33", "+353", "+680", "+86", "+971"]);
  });
});

describe("the code", () => {
  it("allows at most 5 tries, even in parallel; then even the right code is refused", async () => {
    const user = await createUser("creator");
    const phone = freshNumber();
    expect((await send(user, phone)).status).toBe(200);
    const code = await codeSentTo(phone);
    const wrong = code === "000000" ? "111111" : "000000";
    const results = await Promise.all(Array.from({ length: 10 }, () => verify(user, wrong)));
    expect(results.every((r) => r.status === 400)).toBe(true);
    expect(await count("SELECT attempts AS n FROM phone_codes WHERE user_id = ?", user.id)).toBe(5);
    const late = await verify(user, code);
    expect(late.status).toBe(400);
    expect(await late.text()).toContain("Too many wrong codes. Send a new code.");
    expect((await phoneOf(user.id))?.verifiedAt).toBeNull();
  });

  it("says how many tries are left", async () => {
    const user = await createUser("creator");
    const phone = freshNumber();
    expect((await send(user, phone)).status).toBe(200);
    const code = await codeSentTo(phone);
    const res = await verify(user, code === "000000" ? "111111" : "000000");
    expect(await res.text()).toContain("That code is not right. 4 tries left.");
  });

  it("two parallel verifications with the right code: one succeeds", async () => {
    const user = await createUser("creator");
    const phone = freshNumber();
    expect((await send(user, phone)).status).toBe(200);
    const code = await codeSentTo(phone);
    const results = await Promise.all(Array.from({ length: 4 }, () => verify(user, code)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(3);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'phone_verified' AND user_id = ?", user.id)).toBe(1);
    expect(await count("SELECT count(*) AS n FROM phone_codes WHERE user_id = ? AND consumed_at IS NOT NULL", user.id)).toBe(1);
  });

  it("expires after 10 minutes, and a new code retires the old one", async () => {
    const user = await createUser("creator");
    const phone = freshNumber();
    expect((await send(user, phone)).status).toBe(200);
    const first = await codeSentTo(phone);
    await env.DB.prepare("UPDATE phone_codes SET expires_at = ? WHERE user_id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), user.id)
      .run();
    const expired = await verify(user, first);
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain("This code is invalid or has expired. Send a new code.");

    expect((await send(user, phone)).status).toBe(200);
    const second = await codeSentTo(phone);
    expect(await count("SELECT count(*) AS n FROM phone_codes WHERE user_id = ? AND consumed_at IS NULL", user.id)).toBe(1);
    if (first !== second) expect((await verify(user, first)).status).toBe(400);
    expect((await verify(user, second)).status).toBe(200);
  });
});

describe("texts go out through Twilio's Messages API shape (issue 28)", () => {
  it("the provider receives a form-encoded POST of To, From and Body to the account's Messages.json with HTTP Basic auth", async () => {
    const user = await createUser("creator");
    const phone = freshNumber();
    expect((await send(user, phone)).status).toBe(200);
    const config = twilioConfig();
    if (!config) throw new Error("no SMS provider in tests");
    const text = present((await recentTexts(phone))[0], `a text to ${phone}`);
    expect(text.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(text.request.method).toBe("POST");
    expect(text.request.path).toBe(`/dev/sms/2010-04-01/Accounts/${config.accountSid}/Messages.json`);
    expect(text.request.authorization).toBe(`Basic ${btoa(`${config.accountSid}:${config.authToken}`)}`);
    expect(text.request.contentType).toBe("application/x-www-form-urlencoded");
    const form = new URLSearchParams(text.request.form);
    expect([...form.keys()].sort()).toEqual(["Body", "From", "To"]);
    expect(form.get("To")).toBe(phone);
    expect(form.get("From")).toBe(config.from);
    expect(form.get("Body")).toMatch(/^\d{6} is your Shortbeat verification code\. It expires in 10 minutes\. Never share it with anyone\.$/);
  });

  it("a Messaging Service sender is sent as MessagingServiceSid; the live API is the default", () => {
    const config = twilioConfig({ TWILIO_ACCOUNT_SID: "AC123", TWILIO_AUTH_TOKEN: "secret", TWILIO_FROM: "MG456" });
    expect(config).toEqual({ accountSid: "AC123", authToken: "secret", from: "MG456", apiUrl: "https://api.twilio.com" });
    const req = twilioMessageRequest(config as NonNullable<typeof config>, "+447700900123", "hello");
    expect(req.url).toBe("https://api.twilio.com/2010-04-01/Accounts/AC123/Messages.json");
    expect(req.headers.get("Authorization")).toBe(`Basic ${btoa("AC123:secret")}`);
  });

  it("without the provider's secrets and outside development, sending is refused (503), never dropped", async () => {
    expect(twilioConfig({})).toBeNull();
    expect(twilioConfig({ TWILIO_ACCOUNT_SID: "AC123", TWILIO_AUTH_TOKEN: "secret" })).toBeNull();
    await expect(sendSms("+447700900123", "123456 is your code", null)).rejects.toMatchObject({ code: "unavailable", status: 503 });
  });

  it("the stand-in answers a wrong token as Twilio does (401), and the sender reports it as unavailable", async () => {
    const config = twilioConfig();
    if (!config) throw new Error("no SMS provider in tests");
    const phone = freshNumber();
    await expect(sendSms(phone, "hello", { ...config, authToken: "wrong" })).rejects.toMatchObject({ code: "unavailable" });
    expect(await textsTo(phone)).toBe(0);
  });
});
