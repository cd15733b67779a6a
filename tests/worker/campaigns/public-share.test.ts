// A campaign's public page shared on social media (issue 30 §3): it previews (Open Graph and
// Twitter card tags), and "Sign in" / "Sign up to join" bring the person back to the campaign
// through password sign-in, sign-up and e-mail verification, and Google (the stand-in). Only
// same-origin paths are carried. docs/decisions/0241.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { campaignFields } from "../../factories/campaigns";
import { createUser, type TestUser } from "../../factories/users";
import { fetchApp, okText, outcome, passwordBeforeAll, postForm, redirectTarget, TEST_PASSWORD, withCookie } from "../helpers";

const password = passwordBeforeAll();
let admin: TestUser;
let slug: string;
let back: string;
const origin = () => new URL(env.APP_ORIGIN).origin;
let ipCounter = 0;
/** Each sign-in or sign-up from its own address, clear of the per-IP limits. */
function fromIp() {
  ipCounter += 1;
  return { headers: { "CF-Connecting-IP": `198.51.100.${ipCounter}` } };
}

/** A password sign-up from the sign-up form, with the way back it carried. */
function signUp(email: string, redirectTo: string) {
  return postForm(
    "/auth",
    {
      intent: "signup",
      fullName: "Shared Link",
      email,
      password: TEST_PASSWORD,
      confirmPassword: TEST_PASSWORD,
      channelUrl: "https://www.youtube.com/@sharedlink",
      subscribers: "10",
      monthlyViews: "100",
      acceptTerms: "on",
      redirectTo,
    },
    fromIp(),
  );
}

/** The confirmation link mailed to `email`. */
async function mailedLink(email: string): Promise<URL> {
  const mail = await env.DB.prepare("SELECT body_text FROM email_outbox WHERE to_email = ? AND kind = 'email_verification'")
    .bind(email)
    .first<{ body_text: string }>();
  return new URL(/https?:\/\/\S+verify-email\S+/.exec(mail?.body_text ?? "")?.[0] ?? "");
}

beforeAll(async () => {
  admin = await createUser("admin");
  slug = `share-fizz-${crypto.randomUUID().slice(0, 8)}`;
  back = `/campaigns/${slug}`;
  const create = await postForm(
    "/admin/campaigns",
    campaignFields({
      brand: "Fizz & Co",
      slug,
      brief: `Use the track in a Short about your summer. ${"Show the drink, the beach and your friends. ".repeat(8)}`,
    }),
    withCookie(admin.cookie),
  );
  expect(await outcome(create)).toBe("→/admin/campaigns");
  const row = await env.DB.prepare("SELECT id FROM campaigns WHERE slug = ?").bind(slug).first<{ id: string }>();
  expect(await outcome(await postForm("/admin/campaigns", { intent: "launch", id: row?.id ?? "" }, withCookie(admin.cookie)))).toBe("→/admin/campaigns");
}, 180_000);

const metaContent = (html: string, key: string) => new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1] ?? null;

describe("a shared link previews", () => {
  it("has og:title, og:description, og:image (absolute), og:url and a large twitter card", async () => {
    const html = await okText(fetchApp(back));
    expect(metaContent(html, "og:title")).toBe("Summer Fizz — Fizz &amp; Co");
    const description = metaContent(html, "og:description") ?? "";
    expect(description.startsWith("Use the track in a Short about your summer.")).toBe(true);
    expect(description.length).toBeLessThanOrEqual(200);
    expect(description.endsWith("…")).toBe(true);
    expect(metaContent(html, "og:url")).toBe(`${origin()}${back}`);
    const image = metaContent(html, "og:image") ?? "";
    expect(image).toBe(`${origin()}/og-campaign.jpg`);
    expect(metaContent(html, "twitter:card")).toBe("summary_large_image");
    expect(metaContent(html, "twitter:image")).toBe(image);
    expect(metaContent(html, "twitter:title")).toBe("Summer Fizz — Fizz &amp; Co");
  });
});

describe("the way back to the campaign", () => {
  const signInLink = () => `/auth?redirectTo=${encodeURIComponent(back)}`;

  it("the page's buttons carry it to the sign-in and sign-up screens, which keep it in their forms", async () => {
    const html = await okText(fetchApp(back));
    expect(html).toContain(`href="/auth?mode=signup&amp;redirectTo=${encodeURIComponent(back)}"`);
    expect(html).toContain(`href="${signInLink()}"`);
    const signIn = await okText(fetchApp(signInLink()));
    expect(signIn).toContain(`name="redirectTo" value="${back}"`);
    const signUpPage = await okText(fetchApp(`/auth?mode=signup&redirectTo=${encodeURIComponent(back)}`));
    // The sign-up form, the Google button and the tab links all keep it.
    expect(signUpPage.match(new RegExp(`name="redirectTo" value="${back}"`, "g"))?.length).toBeGreaterThanOrEqual(2);
  });

  it("a returning creator signs in with a password and lands on the campaign", async () => {
    const user = await createUser("creator", { passwordHash: password.hash });
    const res = await postForm("/auth", { intent: "signin", email: user.email, password: TEST_PASSWORD, redirectTo: back }, fromIp());
    expect(await redirectTarget(res)).toBe(back);
  });

  it("only a same-origin path is carried: another site or a protocol-relative address goes to the dashboard", async () => {
    const user = await createUser("creator", { passwordHash: password.hash });
    for (const evil of ["https://evil.example/campaigns/x", "//evil.example", "/\\evil.example", "javascript:alert(1)"]) {
      const res = await postForm("/auth", { intent: "signin", email: user.email, password: TEST_PASSWORD, redirectTo: evil }, fromIp());
      expect(await redirectTarget(res), evil).toBe("/dashboard");
      const page = await okText(fetchApp(`/auth?redirectTo=${encodeURIComponent(evil)}`));
      expect(page).not.toContain('name="redirectTo"');
    }
  });

  it("a new creator signs up, confirms the e-mail from the link, signs in and lands on the campaign", async () => {
    const email = `share-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const signUpAnswer = await signUp(email, back);
    expect(await redirectTarget(signUpAnswer)).toBe(`/auth?created=1&redirectTo=${encodeURIComponent(back)}`);
    // The confirmation link carries the way back, and its page keeps it in the confirmation form.
    const link = await mailedLink(email);
    expect(link.searchParams.get("redirectTo")).toBe(back);
    const page = await okText(fetchApp(link.pathname + link.search));
    expect(page).toContain(`name="redirectTo" value="${back}"`);
    const confirmed = await postForm("/auth/verify-email", { token: link.searchParams.get("token") ?? "", redirectTo: back });
    expect(await redirectTarget(confirmed)).toBe(signInLink());
    const signIn = await postForm("/auth", { intent: "signin", email, password: TEST_PASSWORD, redirectTo: back }, fromIp());
    expect(await redirectTarget(signIn)).toBe(back);
    // Pending review, the campaign page says so instead of the join form.
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect(await okText(fetchApp(back, withCookie(cookie)))).toContain("You can join campaigns once your account is approved.");
  });

  it("a confirmation posted with another site's address goes to the plain sign-in screen", async () => {
    const email = `share-evil-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await signUp(email, "//evil.example/phish");
    const link = await mailedLink(email);
    expect(link.searchParams.has("redirectTo")).toBe(false);
    const confirmed = await postForm("/auth/verify-email", { token: link.searchParams.get("token") ?? "", redirectTo: "https://evil.example" });
    expect(await redirectTarget(confirmed)).toBe("/auth");
  });

  it("Google (the stand-in) brings a new creator back to the campaign", async () => {
    const start = await postForm("/auth/google", { redirectTo: back });
    const authorizeUrl = new URL(start.headers.get("Location") ?? "");
    const flowCookie = start.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const picked = await postForm(authorizeUrl.pathname + authorizeUrl.search, {
      email: `share-g-${crypto.randomUUID().slice(0, 8)}@example.com`,
      name: "Google Sharer",
    });
    const callback = new URL(picked.headers.get("Location") ?? "");
    const done = await fetchApp(callback.pathname + callback.search, withCookie(flowCookie));
    // A new account first gives the sign-up's details and accepts the Creator Agreement (0324), then comes back.
    const finish = await redirectTarget(done);
    expect(finish).toBe(`/auth/finish-sign-up?redirectTo=${encodeURIComponent(back)}`);
    const session = done.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const finished = await postForm(
      finish ?? "",
      { fullName: "Google Sharer", channelUrl: "https://www.youtube.com/@googlesharer", subscribers: "1200", monthlyViews: "50000", acceptTerms: "on" },
      withCookie(session),
    );
    expect(await redirectTarget(finished)).toBe(back);
  });
});
