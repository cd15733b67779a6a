// Issue 41: Google, YouTube, TikTok and Instagram show on /admin/system-status what the app last saw
// of them (docs/decisions/0326), recorded where each provider's answer is read: the last success,
// the last error, and YouTube's quota pause. A refusal that is one person's (a revoked grant, a
// video that is not theirs) is not the service's error.
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { exhaustStandInQuota, setStandInTokenOutage } from "~/dev/dev-oauth.server";
import { registerStandInPost } from "~/dev/dev-social.server";
import { fetchYouTubeVideos, YouTubeQuotaExceeded } from "~/modules/channels/provider.server";
import { socialVideoOwnership, socialVideoViews } from "~/modules/channels/social-accounts.server";
import { refreshAccessToken } from "~/platform/oauth.server";
import { stripeClient } from "~/platform/stripe.server";
import { createUser, type TestUser } from "../../factories/users";
import { fetchApp, googleAs, ORIGIN, okText, outcome, withCookie } from "../helpers";
import { linkSocial } from "../social-link";
import { present } from "../../helpers/present";

const tag = crypto.randomUUID().replace(/-/g, "").slice(0, 8);
let admin: TestUser;

beforeAll(async () => {
  admin = await createUser("admin");
  await fetchApp("/auth");
}, 180_000);

afterEach(async () => {
  await exhaustStandInQuota(false);
  await setStandInTokenOutage(false);
  await env.RATE_LIMITS.delete("settings:youtube-quota-paused-until");
});

type Row = {
  last_success_at: string | null;
  last_error_at: string | null;
  last_error_code: string | null;
  last_error_message: string | null;
  paused_until: string | null;
};
const rowOf = (service: string) => env.DB.prepare("SELECT * FROM service_status WHERE service = ?").bind(service).first<Row>();
const forget = (service: string) => env.DB.prepare("DELETE FROM service_status WHERE service = ?").bind(service).run();

/** The service's panel on /admin/system-status, as HTML. */
async function panel(service: string): Promise<string> {
  const html = await okText(fetchApp("/admin/system-status", withCookie(admin.cookie)));
  const start = html.indexOf(`id="service-${service}"`);
  expect(start).toBeGreaterThan(-1);
  const end = html.indexOf("<section", start);
  return html.slice(start, end === -1 ? undefined : end);
}

describe("outside services on the System status page", () => {
  it("YouTube: a 403 quotaExceeded shows as the quota pause (until midnight Pacific) and the last error", async () => {
    await forget("youtube");
    await exhaustStandInQuota();
    const key = present((env as unknown as Record<string, string>).YOUTUBE_API_KEY, "YOUTUBE_API_KEY in the test bindings");
    await expect(fetchYouTubeVideos(new Request(ORIGIN), ["dQw4w9WgXcQ"], { kind: "key", key })).rejects.toBeInstanceOf(YouTubeQuotaExceeded);
    const row = await rowOf("youtube");
    expect(row?.paused_until).toBe(await env.RATE_LIMITS.get("settings:youtube-quota-paused-until"));
    expect(row?.last_error_code).toBe("quotaExceeded");
    const html = await panel("youtube");
    expect(html).toContain("paused until");
    expect(html).not.toContain("not paused");
    expect(html).toContain("quotaExceeded");
  });

  it("TikTok: a successful link shows a last success; a video that is not the person's is no TikTok error", async () => {
    await forget("tiktok");
    expect(await panel("tiktok")).toContain("never seen");
    const creator = await createUser("creator");
    expect(await outcome(await linkSocial(creator, "tiktok", `ps_${tag}`))).toBe("→/channels");
    expect((await rowOf("tiktok"))?.last_success_at).toBeTruthy();
    expect(await panel("tiktok")).not.toContain("never seen");

    await registerStandInPost("tiktok", "7300000000000000001", { author: "someone_else" });
    expect(await socialVideoOwnership(new Request(ORIGIN), creator.id, "tiktok", "7300000000000000001")).toMatchObject({ kind: "not_mine" });
    expect((await rowOf("tiktok"))?.last_error_at).toBeNull();
  });

  it("Instagram: a 5xx from the Graph API shows as the last error", async () => {
    await forget("instagram");
    const creator = await createUser("creator");
    const account = `pi_${tag}`;
    expect(await outcome(await linkSocial(creator, "instagram", account))).toBe("→/channels");
    expect((await rowOf("instagram"))?.last_error_at).toBeNull();
    const reel = `Down${tag}`;
    await registerStandInPost("instagram", reel, { author: account, views: "unavailable" });
    expect(await socialVideoViews(new Request(ORIGIN), creator.id, "instagram", reel)).toEqual({ kind: "unavailable" });
    const row = await rowOf("instagram");
    expect(row?.last_error_code).toBe("500 (2)");
    expect(await panel("instagram")).toContain("Instagram answered HTTP 500.");
  });

  it("Google: sign-in records a success; an outage of the token endpoint is Google's error, a revoked grant is not", async () => {
    await forget("google");
    await googleAs({ email: `status-${tag}@example.com` });
    expect((await rowOf("google"))?.last_success_at).toBeTruthy();

    await expect(refreshAccessToken(new Request(ORIGIN), "revoked-or-unknown")).rejects.toMatchObject({ code: "invalid_grant" });
    expect((await rowOf("google"))?.last_error_at).toBeNull();

    await setStandInTokenOutage(true);
    await expect(refreshAccessToken(new Request(ORIGIN), "anything")).rejects.toMatchObject({ code: "temporarily_unavailable" });
    expect((await rowOf("google"))?.last_error_code).toBe("HTTP 503");
    expect(await panel("google")).toContain("Google&#x27;s token endpoint answered HTTP 503");
  }, 20_000);
  it("Stripe: an answer shows as the last success; no answer at all is the service's error", async () => {
    await forget("stripe");
    const stripe = await stripeClient(ORIGIN);
    await stripe.transfers.list({ transfer_group: `status-${tag}` });
    expect((await rowOf("stripe"))?.last_success_at).toBeTruthy();
    const bindings = env as unknown as Record<string, string>;
    const base = present(bindings.STRIPE_API_BASE, "STRIPE_API_BASE in the test bindings");
    bindings.STRIPE_API_BASE = "http://127.0.0.1:9/";
    try {
      await expect((await stripeClient(ORIGIN)).transfers.list({ transfer_group: `status-${tag}` })).rejects.toThrow();
    } finally {
      bindings.STRIPE_API_BASE = base;
    }
    const row = await rowOf("stripe");
    expect(row?.last_error_code).toBe("network");
    expect(row?.last_error_message).toContain("Stripe could not be reached");
    expect(await panel("stripe")).toContain("Stripe could not be reached");
  });
});
