import { beforeAll, describe, expect, it } from "vitest";
import { recordFailure, recordSuccess, serviceReports } from "~/platform/service-status.server";
import { createUser, type TestUser } from "../../factories/users";
import { fetchApp, okText, outcome, withCookie } from "../helpers";

// Issue 41: one place that tells an operator what is configured (docs/decisions/0312).

let admin: TestUser;
let creator: TestUser;

beforeAll(async () => {
  [admin, creator] = await Promise.all([createUser("admin"), createUser("creator")]);
  await fetchApp("/auth");
}, 180_000);

describe("/admin/system-status", () => {
  it("is for admins only: anonymous people are sent to sign in, other people away (the admin guard's answers)", async () => {
    expect(await outcome(await fetchApp("/admin/system-status"))).toBe("→/auth");
    expect(await outcome(await fetchApp("/admin/system-status", withCookie(creator.cookie)))).toBe("→/dashboard");
    expect((await fetchApp("/admin/system-status.data", withCookie(creator.cookie))).status).not.toBe(200);
    expect(await outcome(await fetchApp("/admin/system-status", withCookie(admin.cookie)))).toBe("200");
  });

  it("lists every outside service, which settings are set or missing, and never a secret's value", async () => {
    await recordSuccess("email");
    await recordFailure("sms", "21408", "Permission to send an SMS has not been enabled for the region");
    const html = await okText(fetchApp("/admin/system-status", withCookie(admin.cookie)));
    for (const label of [
      "E-mail (Cloudflare Email Service)",
      "Texts (Twilio)",
      "Payouts (Stripe Connect)",
      "Google sign-in",
      "YouTube channel link",
      "TikTok views",
      "Instagram reels",
      "Workers AI",
    ]) {
      expect(html).toContain(label);
    }
    expect(html).toContain("21408: Permission to send an SMS has not been enabled for the region");
    // The tests bind no Workers AI: missing, with what to set.
    expect(html).toContain("Missing settings");
    expect(html).toContain("[ai] binding");
    // Values stay out of the page (the worker tests' own secrets).
    for (const secret of ["sk_test_shortbeat_worker_tests", "whsec_shortbeat_worker_tests", "test-google-secret", "test-cookie-secret"])
      expect(html).not.toContain(secret);
  });

  it("reads configured or missing from the settings themselves", async () => {
    const reports = await serviceReports({ EMAIL: {}, EMAIL_FROM: "no-reply@example.com", APP_ORIGIN: "http://example.com" });
    const email = reports.find((r) => r.id === "email");
    expect(email?.configured).toBe(true);
    expect(email?.settings.find((s) => s.name === "APP_ORIGIN")?.problem).toBe("must be an https:// URL");
    expect(email?.fix).toContain("Workers Paid");
    const sms = reports.find((r) => r.id === "sms");
    expect(sms?.configured).toBe(false);
    expect(sms?.settings.filter((s) => s.problem === "missing").map((s) => s.name)).toEqual(["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_FROM"]);
  });
});
