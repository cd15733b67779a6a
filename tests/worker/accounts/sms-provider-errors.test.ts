// Issue 41 §5: Twilio's refusals mean different things (docs/decisions/0310). The stand-in provider
// answers numbers registered to fail with Twilio's documented error body, and the fixtures under
// tests/fixtures/providers/ are the documented examples our parsers read.
import { describe, expect, it } from "vitest";
import { FAILING_NUMBERS } from "~/dev/dev-sms.server";
import { parseTwilioError, parseTwilioMessage, SMS_MESSAGES, sendSms, smsErrorFor } from "~/platform/sms.server";
import { createUser } from "../../factories/users";
import created from "../../fixtures/providers/twilio-message-created.json";
import e20429 from "../../fixtures/providers/twilio-error-20429.json";
import e21211 from "../../fixtures/providers/twilio-error-21211.json";
import e21408 from "../../fixtures/providers/twilio-error-21408.json";
import e21610 from "../../fixtures/providers/twilio-error-21610.json";
import { count, postForm } from "../helpers";

const alerts = (code: string) =>
  count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'outside_service_alert' AND details LIKE ?", `%"code":"${code}"%`);

describe("the fixtures parse", () => {
  it("the created Message resource gives its sid and status", () => {
    expect(parseTwilioMessage(created.body)).toEqual({ sid: "SMaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", status: "queued" });
  });

  it.each([e21211, e21610, e21408, e20429])("the error body of $body.code gives its code, status and message", (fixture) => {
    const parsed = parseTwilioError(fixture.status, fixture.body);
    expect(parsed).toEqual({ status: fixture.status, code: fixture.body.code, message: fixture.body.message, moreInfo: fixture.body.more_info });
  });

  it("a body that is not Twilio's (a proxy's HTML page) leaves only the HTTP status", () => {
    expect(parseTwilioError(502, null)).toEqual({ status: 502, code: null, message: "HTTP 502", moreInfo: null });
  });
});

describe("each Twilio code maps to what it means", () => {
  it("21211 (invalid number) is the phone field's error, 400", async () => {
    const error = await smsErrorFor(parseTwilioError(e21211.status, e21211.body));
    expect(error).toMatchObject({ code: "invalid_input", status: 400, fieldErrors: { phone: SMS_MESSAGES.invalidNumber } });
  });

  it("21610 (opted out with STOP) says so and how to opt back in, 400", async () => {
    const error = await smsErrorFor(parseTwilioError(e21610.status, e21610.body));
    expect(error).toMatchObject({ code: "invalid_input", status: 400, message: SMS_MESSAGES.optedOut });
  });

  it("21408 (region not enabled) alerts the admins once and tells the person it cannot be sent yet, 503", async () => {
    const before = await alerts("21408");
    for (let i = 0; i < 3; i++) {
      const error = await smsErrorFor(parseTwilioError(e21408.status, e21408.body));
      expect(error).toMatchObject({ code: "unavailable", status: 503, message: SMS_MESSAGES.regionBlocked });
    }
    expect(await alerts("21408")).toBe(before + 1);
  });

  it("HTTP 429 / 20429 is 'try again later' with Retry-After, from Twilio's header or a minute", async () => {
    expect(await smsErrorFor(parseTwilioError(e20429.status, e20429.body), "30")).toMatchObject({ code: "rate_limited", status: 429, retryAfterSeconds: 30 });
    expect(await smsErrorFor(parseTwilioError(429, null))).toMatchObject({ code: "rate_limited", retryAfterSeconds: 60 });
  });
});

describe("through the stand-in provider, end to end", () => {
  it("the stand-in answers a registered number with Twilio's documented body (same fields as the fixture)", async () => {
    const error = await sendSms("+15005550004", "hello").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "invalid_input", message: SMS_MESSAGES.optedOut });
    expect(Object.keys(FAILING_NUMBERS)).toEqual(expect.arrayContaining(["+15005550001", "+15005550003", "+15005550004", "+15005550429"]));
    await expect(sendSms("+15005550429", "hello")).rejects.toMatchObject({ code: "rate_limited", retryAfterSeconds: 30 });
  });

  it("Settings: a number Twilio calls invalid is the phone field's error, not a 503", async () => {
    const user = await createUser("creator");
    const res = await postForm(
      "/settings.data",
      { intent: "phone-send", phone: "+15005550001" },
      { headers: { Cookie: user.cookie, "CF-Connecting-IP": "198.18.200.1" } },
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(SMS_MESSAGES.invalidNumber);
  });
});
