// The Twilio stand-in refuses a malformed request as Twilio documents it: error 21604 "'To' phone
// number is required to send a Message", whose causes are a missing To and a body that is not
// application/x-www-form-urlencoded (https://www.twilio.com/docs/errors/21604,
// tests/fixtures/providers/twilio-error-21604.json). It used to answer 21610, Twilio's code for an
// unsubscribed recipient, which the app tells the person as "this number replied STOP".
import { describe, expect, it } from "vitest";
import { handleStandInSms } from "~/dev/dev-sms.server";
import { parseTwilioError, SMS_MESSAGES, STAND_IN_TWILIO, smsErrorFor, twilioConfig, twilioMessageRequest } from "~/platform/sms.server";
import e21604 from "../../fixtures/providers/twilio-error-21604.json";

const config = { ...STAND_IN_TWILIO, apiUrl: twilioConfig()?.apiUrl ?? "/dev/sms" };

async function answer(request: Request) {
  const res = await handleStandInSms(request);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("a malformed Messages request at the Twilio stand-in", () => {
  it("a JSON body (not form-encoded) is 21604, as documented, never 21610 (opted out)", async () => {
    const form = twilioMessageRequest(config, "+15005550006", "hello");
    const json = new Request(form.url, {
      method: "POST",
      headers: { Authorization: form.headers.get("Authorization") ?? "", "Content-Type": "application/json" },
      body: JSON.stringify({ To: "+15005550006", From: config.from, Body: "hello" }),
    });
    const { status, body } = await answer(json);
    expect({ status, body }).toEqual({ status: e21604.status, body: e21604.body });
    const error = await smsErrorFor(parseTwilioError(status, body));
    expect(error.message).not.toBe(SMS_MESSAGES.optedOut);
    expect(error).toMatchObject({ code: "unavailable", status: 503 });
  });

  it("a form without To is 21604 too", async () => {
    const { status, body } = await answer(twilioMessageRequest(config, "", "hello"));
    expect(status).toBe(400);
    expect(body.code).toBe(21604);
  });
});
