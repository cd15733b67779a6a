import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { userBeforeAll } from "../../factories/users";
import { count, fetchApp, googleAs, outcome, postForm, redirectTarget, setCookieValue, toastOf, withCookie } from "../helpers";

// Issue 42 §3: "Continue with Google" made an account that never accepted the Creator Agreement and
// never gave the sign-up form's channel details, and it went straight to the admin's queue. A new
// Google account now finishes signing up first (docs/decisions/0324).

const SESSION = "__Host-sb_session";
const FINISH = "/auth/finish-sign-up";

async function newGoogleAccount() {
  const email = `g-new-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const res = await googleAs({ email, name: "Gina Google" });
  const cookie = `${SESSION}=${setCookieValue(res, SESSION)}`;
  const row = await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).first<{ id: string }>();
  return { email, res, cookie, id: row!.id };
}

const details = (over: Record<string, string> = {}) => ({
  fullName: "Gina Google",
  channelUrl: "https://www.youtube.com/@gina",
  subscribers: "1200",
  monthlyViews: "45000",
  acceptTerms: "on",
  ...over,
});

const profileOf = (id: string) =>
  env.DB.prepare("SELECT p.approval_status, p.sign_up_details_missing, u.user_metadata FROM profiles p JOIN users u ON u.id = p.user_id WHERE u.id = ?")
    .bind(id)
    .first<{ approval_status: string; sign_up_details_missing: number; user_metadata: string }>();

describe("a new Google account finishes signing up before it is reviewed", () => {
  const admin = userBeforeAll("admin");

  it("lands on the finishing step and cannot reach the app or the approval queue before it", async () => {
    const account = await newGoogleAccount();
    expect(await redirectTarget(account.res)).toBe(FINISH);
    expect((await toastOf(account.res))?.title).toBe("Welcome to Shortbeat!");
    expect((await profileOf(account.id))?.sign_up_details_missing).toBe(1);

    // Every guarded page sends it to the finishing step, the waiting page included.
    for (const path of ["/dashboard", "/settings", "/profile", "/pending-approval", "/clipping"]) {
      expect(await outcome(await fetchApp(path, withCookie(account.cookie))), path).toBe(`→${FINISH}`);
    }
    // The spec's audit row for a non-approved person on a guarded path is still written.
    expect(
      await count(
        "SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'unauthorized_access_attempt' AND user_id = ? AND severity = 'high'",
        account.id,
      ),
    ).toBeGreaterThan(0);

    // The admin's queue does not list it, and approving it by id is refused.
    const queue = await (await fetchApp(`/admin?status=pending&q=${encodeURIComponent(account.email)}`, withCookie(admin.cookie))).text();
    expect(queue).not.toContain(account.id); // the search echoes the e-mail; a listed row carries the id
    const approve = await postForm("/admin", { intent: "approve", userId: account.id, confirm: "yes" }, withCookie(admin.cookie));
    expect(approve.status).toBe(409);
    expect((await profileOf(account.id))?.approval_status).toBe("pending");
  });

  it("asks for the agreement and the sign-up form's channel fields, with the spec's messages", async () => {
    const account = await newGoogleAccount();
    const page = await (await fetchApp(FINISH, withCookie(account.cookie))).text();
    expect(page).toContain("Finish signing up");
    expect(page).toContain("I accept the");

    const noTerms = await postForm(FINISH, details({ acceptTerms: "" }), withCookie(account.cookie));
    expect(noTerms.status).toBe(400);
    expect(await noTerms.text()).toContain("Please accept the Creator Agreement &amp; Monetization Terms to continue.");
    for (const [field, message] of [
      ["channelUrl", "Channel URL is required."],
      ["subscribers", "Subscribers is required."],
      ["monthlyViews", "Monthly views is required."],
    ] as const) {
      const res = await postForm(FINISH, details({ [field]: "" }), withCookie(account.cookie));
      expect(res.status, field).toBe(400);
      expect(await res.text(), field).toContain(message);
    }
    // Not a form: 415, as every action answers (issue 10).
    const json = await fetchApp(
      FINISH,
      withCookie(account.cookie, {
        method: "POST",
        body: JSON.stringify(details()),
        headers: { "Content-Type": "application/json", Origin: "https://shortbeat.test" },
      }),
    );
    expect(json.status).toBe(415);
    const badUrl = await postForm(FINISH, details({ channelUrl: "not a url" }), withCookie(account.cookie));
    expect(badUrl.status).toBe(400);
    expect((await profileOf(account.id))?.sign_up_details_missing).toBe(1);

    // Complete: the details are kept as the password sign-up keeps them, and the queue lists it.
    const done = await postForm(FINISH, details(), withCookie(account.cookie));
    expect(await redirectTarget(done)).toBe("/pending-approval");
    const row = await profileOf(account.id);
    expect(row?.sign_up_details_missing).toBe(0);
    expect(JSON.parse(row!.user_metadata)).toMatchObject({
      youtube_channel_url: "https://www.youtube.com/@gina",
      subscriber_count: 1200,
      monthly_views: 45000,
      provider: "google",
    });
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'sign_up_completed' AND user_id = ?", account.id)).toBe(1);
    expect(await outcome(await fetchApp("/pending-approval", withCookie(account.cookie)))).toBe("200");
    expect(await outcome(await fetchApp(FINISH, withCookie(account.cookie)))).toBe("→/dashboard");
    // Once only: a second submission (another tab) changes nothing.
    expect((await postForm(FINISH, details(), withCookie(account.cookie))).status).toBe(302);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'sign_up_completed' AND user_id = ?", account.id)).toBe(1);

    const queue = await (await fetchApp(`/admin?status=pending&q=${encodeURIComponent(account.email)}`, withCookie(admin.cookie))).text();
    expect(queue).toContain(account.id);
    const approve = await postForm("/admin", { intent: "approve", userId: account.id, confirm: "yes" }, withCookie(admin.cookie));
    expect(approve.status).toBe(302);
    expect((await profileOf(account.id))?.approval_status).toBe("approved");
  });

  it("a returning Google account is not asked again", async () => {
    const account = await newGoogleAccount();
    await postForm(FINISH, details(), withCookie(account.cookie));
    const again = await googleAs({ email: account.email, name: "Gina Google" });
    expect(await redirectTarget(again)).toBe("/dashboard");
    expect((await toastOf(again))?.title).toBe("Welcome back!");
  });
});
