// Instagram's code exchange as Business Login documents it (Step 2,
// https://developers.facebook.com/documentation/instagram-platform/instagram-api-with-instagram-login/business-login,
// quoted in tests/fixtures/providers/instagram.json): the stand-in answers the page's success and
// rejected examples, and a code that was used already (a reloaded callback) is that person's
// refusal, never Instagram's error on the System status page (docs/decisions/0326).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { handleStandInSocial } from "~/dev/dev-social.server";
import { instagramAuthorizeUrl, instagramExchangeCode, SocialUnavailable } from "~/modules/channels/social-provider.server";
import instagramDocs from "../../fixtures/providers/instagram.json";
import { fetchApp, ORIGIN } from "../helpers";
import { present } from "../../helpers/present";
import { jsonShape } from "../../helpers/json-shape";

const tag = crypto.randomUUID().replace(/-/g, "").slice(0, 8);
const request = new Request(ORIGIN);
const redirectUri = `${ORIGIN}/channels/link/instagram`;
const settings = env as unknown as Record<string, string>;

/** A fresh code from the stand-in's authorization window, signed in as `account`. */
async function codeFor(account: string): Promise<string> {
  const url = instagramAuthorizeUrl(request, "state-1", redirectUri);
  url.searchParams.set("account", account);
  const back = await fetchApp(url.pathname + url.search);
  expect(back.status).toBe(302);
  return new URL(back.headers.get("Location") ?? "", ORIGIN).searchParams.get("code") ?? "";
}

const exchange = (code: string) =>
  handleStandInSocial(
    new Request(new URL("/dev/social/instagram/oauth/access_token", ORIGIN), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        client_id: present(settings.INSTAGRAM_APP_ID, "INSTAGRAM_APP_ID in the test bindings"),
        client_secret: present(settings.INSTAGRAM_APP_SECRET, "INSTAGRAM_APP_SECRET in the test bindings"),
        grant_type: "authorization_code",
        redirect_uri: redirectUri,
        code,
      }),
    }),
  );

describe("Instagram's code exchange (Business Login, Step 2)", () => {
  it("the stand-in answers the documented success (data[0], user_id a string, permissions) and the documented rejection", async () => {
    const code = await codeFor(`docs_${tag}`);
    const ok = await exchange(code);
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { data: { permissions: string }[] };
    expect(jsonShape(body)).toEqual(jsonShape(instagramDocs.codeExchange.example));
    expect(present(body.data[0], "the exchange's data[0]").permissions.split(",")).toContain("instagram_business_basic");
    // The same code again: the page's "Sample Rejected Response", word for word.
    const again = await exchange(code);
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual(instagramDocs.codeExchangeRejected.example);
  });

  it("a used code is the person's refusal: the link fails without recording Instagram's error", async () => {
    await env.DB.prepare("DELETE FROM service_status WHERE service = 'instagram'").run();
    const code = await codeFor(`reuse_${tag}`);
    await instagramExchangeCode(request, code, redirectUri);
    await expect(instagramExchangeCode(request, code, redirectUri)).rejects.toBeInstanceOf(SocialUnavailable);
    const row = await env.DB.prepare("SELECT last_error_at, last_error_code FROM service_status WHERE service = 'instagram'").first<{
      last_error_at: string | null;
    }>();
    expect(row?.last_error_at ?? null).toBeNull();
  });
});
