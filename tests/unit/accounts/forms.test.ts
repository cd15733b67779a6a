import { describe, expect, it } from "vitest";
import { DomainError } from "~/lib/errors";
import { parseAccountForm } from "~/modules/accounts/forms.server";
import {
  authFormSchema,
  bannedMessage,
  googleStartSchema,
  profileFieldTitle,
  profileFormSchema,
  settingsFieldTitle,
  settingsFormSchema,
  signUpSchema,
  verifyEmailSchema,
} from "~/modules/accounts/schema";

// The account forms as the server reads them: which form a body is, and the spec's toast title
// that travels with a refused field.

const PASSWORD = "Str0ng!Passw0rd";
const signUp = {
  intent: "signup",
  fullName: "Ann",
  email: "Ann@Example.com",
  password: PASSWORD,
  confirmPassword: PASSWORD,
  channelUrl: "https://youtube.com/@ann",
  subscribers: "1",
  monthlyViews: "2",
  acceptTerms: "on",
};

function form(fields: Record<string, string>, type = "application/x-www-form-urlencoded") {
  return new Request("https://shortbeat.test/auth", {
    method: "POST",
    headers: { "Content-Type": type },
    body: type === "application/json" ? JSON.stringify(fields) : new URLSearchParams(fields),
  });
}

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe("the sign-in/sign-up body", () => {
  it("is a sign-in unless it says signup, keeping the page to return to", () => {
    const parsed = authFormSchema.parse({ email: "A@B.co", password: "x", redirectTo: "/settings" });
    expect(parsed).toEqual({ intent: "signin", email: "a@b.co", password: "x", redirectTo: "/settings" });
    expect(authFormSchema.parse({ intent: "nonsense", email: "a@b.co", password: "x" }).intent).toBe("signin");
  });

  it("is a sign-up with the sign-up rules when it says so", () => {
    const parsed = authFormSchema.parse({ ...signUp, agencySlug: " My-Agency! ", agencyName: "<b>Agency</b>" });
    expect(parsed).toMatchObject({
      intent: "signup",
      email: "ann@example.com",
      subscribers: 1,
      agencySlug: "my-agency",
      agencyName: "bAgency/b",
    });
    const mismatch = authFormSchema.safeParse({ ...signUp, confirmPassword: "Other!Pass1" });
    expect(mismatch.success).toBe(false);
    expect(mismatch.error?.issues.map((i) => i.path.join("."))).toEqual(["confirmPassword"]);
  });

  it("keeps the referral code as sent (the server's strict sanitizer decides), and clears an unwanted clipper agreement", () => {
    const parsed = signUpSchema.parse({ ...signUp, referralCode: "!!bad code!!", acceptClipperAgreement: "on" });
    expect(parsed.referralCode).toBe("!!bad code!!");
    expect(parsed.acceptClipperAgreement).toBe(false);
  });
});

describe("parseAccountForm", () => {
  it("refuses a body that is not a form with 415 and no field errors", async () => {
    const error = await refusal(parseAccountForm(form({ email: "a@b.co", password: "x" }, "application/json"), authFormSchema));
    expect(error.status).toBe(415);
    expect(error.fieldErrors).toEqual({});
  });

  it("gives a refused field the spec's toast title and message", async () => {
    const email = await refusal(parseAccountForm(form({ ...signUp, email: "not-an-email" }), authFormSchema));
    expect([email.status, email.title, email.message]).toEqual([400, "Invalid email", "Please enter a valid email address."]);
    expect(email.fieldErrors).toEqual({ email: "Please enter a valid email address." });

    const terms = await refusal(parseAccountForm(form({ ...signUp, acceptTerms: "" }), authFormSchema));
    expect(terms.title).toBe("Terms Required");

    const subscribers = await refusal(parseAccountForm(form({ ...signUp, subscribers: "-5" }), authFormSchema));
    expect([subscribers.title, subscribers.message]).toEqual(["Please check the form", "Subscribers must be a whole number of 0 or more."]);
  });

  it("uses a page's own titles where the spec names one for its fields", async () => {
    const session = await refusal(parseAccountForm(form({ intent: "sign-out-session", session: "../../etc" }), settingsFormSchema, settingsFieldTitle));
    expect([session.status, session.title, session.message]).toEqual([400, "Action failed", "Unknown session."]);
    const avatar = await refusal(parseAccountForm(form({ intent: "avatar" }), profileFormSchema, profileFieldTitle));
    expect([avatar.title, avatar.fieldErrors]).toEqual(["Upload failed", { avatar: "Choose an image to upload." }]);
  });
});

describe("the settings and profile bodies", () => {
  it("tell their forms apart by intent; anything else is the page's main form", () => {
    expect(settingsFormSchema.parse({ intent: "sign-out-others" })).toEqual({ intent: "sign-out-others" });
    expect(settingsFormSchema.parse({ intent: "sign-out-session", session: "0123456789ab" })).toEqual({
      intent: "sign-out-session",
      session: "0123456789ab",
    });
    const change = settingsFormSchema.safeParse({ currentPassword: "x", password: PASSWORD, confirmPassword: PASSWORD });
    expect(change.success && change.data.intent).toBe("change-password");
    expect(profileFormSchema.parse({ fullName: "  Ann  " })).toEqual({ intent: "name", fullName: "Ann" });
    expect(profileFormSchema.safeParse({ intent: "name" }).error?.issues[0]?.message).toBe("Full name is required.");
  });
});

describe("small account bodies", () => {
  it("the Google button's referral code keeps only code characters; an empty one is none", () => {
    expect(googleStartSchema.parse({ ref: "ab-C_1<script>", redirectTo: "/x" })).toEqual({
      ref: "ab-C_1script",
      invite: null,
      redirectTo: "/x",
    });
    expect(googleStartSchema.parse({}).ref).toBeNull();
    // A clipper invitation's code: letters and digits only (docs/decisions/0205).
    expect(googleStartSchema.parse({ invite: "abc<def>-123" }).invite).toBe("abcdef123");
  });

  it("the e-mail confirmation leaves a missing token to the module (which answers 'invalid or expired')", () => {
    expect(verifyEmailSchema.parse({})).toEqual({ token: "" });
  });

  it("says why an account is banned when there is a reason", () => {
    expect(bannedMessage("spam")).toBe("Your account has been banned: spam");
    expect(bannedMessage(null)).toBe("Your account has been banned.");
  });
});
