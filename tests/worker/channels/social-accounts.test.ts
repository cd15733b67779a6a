// Linked TikTok and Instagram accounts (issue 41 §1 and §3, decisions 0299-0301), on the stand-ins:
// a creator links an account through the platform's login on /channels; a TikTok video / Instagram
// reel in that account is accepted and its views are read by the daily job with the account's own
// token; someone else's is refused; without a linked account the video waits for the admin's check,
// with the reason. Unlinking deletes the tokens (and revokes TikTok's grant); the export names the
// accounts, never their tokens.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { registerStandInPost } from "~/dev/dev-social.server";
import { refreshCampaignViews } from "~/modules/campaigns/campaigns.server";
import { handleStandInSocial } from "~/dev/dev-social.server";
import { decryptToken } from "~/platform/token-crypto.server";
import instagramDocs from "../../fixtures/providers/instagram.json";
import tiktokDocs from "../../fixtures/providers/tiktok.json";
import { createUser, type TestUser } from "../../factories/users";
import { ORIGIN, count, fetchApp, outcome, postForm, toastOf, withCookie } from "../helpers";
import { linkSocial } from "../social-link";
import { present } from "../../helpers/present";
import { jsonShape } from "../../helpers/json-shape";

const tag = crypto.randomUUID().replace(/-/g, "").slice(0, 8);
let admin: TestUser;
let creator: TestUser;
let unlinked: TestUser;
const account = `casey_${tag}`;
let n = 0;
let vid = 0;
const tiktokId = () => `73${tag.replace(/\D/g, "7").padEnd(8, "7")}${String(++vid).padStart(7, "0")}`;

beforeAll(async () => {
  [admin, creator, unlinked] = await Promise.all([createUser("admin"), createUser("creator"), createUser("creator")]);
  await fetchApp("/auth");
}, 180_000);

async function liveCampaign(): Promise<string> {
  n += 1;
  const slug = `social-${tag}-${n}`;
  const local = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 16);
  const fields = { intent: "create", brand: "Fizz", title: `Social ${n}`, slug, brief: "Use the track.", rate: "2.50", budget: "500.00" };
  await postForm("/admin/campaigns", { ...fields, startsAt: local(-1), endsAt: local(10), requiredTrackId: "", minSubscribers: "" }, withCookie(admin.cookie));
  const id = (await env.DB.prepare("SELECT id FROM campaigns WHERE slug = ?").bind(slug).first<{ id: string }>())?.id ?? "";
  expect(await outcome(await postForm("/admin/campaigns", { intent: "launch", id }, withCookie(admin.cookie)))).toBe("→/admin/campaigns");
  for (const who of [creator, unlinked]) await postForm("/campaigns", { intent: "join", campaignId: id, accept: "on" }, withCookie(who.cookie));
  return id;
}
const submit = (who: TestUser, campaignId: string, url: string) => postForm("/campaigns", { intent: "submit", campaignId, url }, withCookie(who.cookie));
type Sub = { status: string; views: number; provider_views: number | null; ownership_review: string | null };
const subOf = (url: string) =>
  env.DB.prepare("SELECT status, views, provider_views, ownership_review FROM campaign_submissions WHERE url = ?").bind(url).first<Sub>();

describe("linking on /channels", () => {
  it("links Instagram and TikTok through their login: account id and name stored, tokens encrypted, audited, shown on /channels", async () => {
    const ig = await linkSocial(creator, "instagram", account);
    expect(await outcome(ig)).toBe("→/channels");
    expect((await toastOf(ig))?.title).toBe("Instagram linked");
    const tt = await linkSocial(creator, "tiktok", account);
    expect(await outcome(tt)).toBe("→/channels");
    const rows = await env.DB.prepare(
      "SELECT platform, external_user_id, username, access_token_enc, refresh_token_enc FROM social_accounts WHERE user_id = ? ORDER BY platform",
    )
      .bind(creator.id)
      .all<{ platform: string; external_user_id: string; username: string; access_token_enc: string; refresh_token_enc: string | null }>();
    expect(rows.results.map((r) => [r.platform, r.username])).toEqual([
      ["instagram", account],
      ["tiktok", account],
    ]);
    // Instagram's id is a string of digits beyond 2^53, kept exactly.
    expect(present(rows.results[0], "the Instagram account row").external_user_id).toMatch(/^1784\d{13}$/);
    for (const r of rows.results) expect(r.access_token_enc).toMatch(/^v1\./);
    expect(present(rows.results[1], "the TikTok account row").refresh_token_enc).toMatch(/^v1\./);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'social_account_linked' AND user_id = ?", creator.id)).toBe(2);
    const page = await (await fetchApp("/channels", withCookie(creator.cookie))).text();
    expect(page).toContain("Unlink Instagram");
    expect(page).toContain("Unlink TikTok");
    expect(page).toContain(`Linked: ${account}`);
  });

  it("refuses a callback without the flow's state, a denied login, and an account another user linked", async () => {
    const me = await createUser("creator");
    const forged = await fetchApp("/channels/link/instagram?code=abc&state=xyz", withCookie(me.cookie));
    expect(await outcome(forged)).toBe("→/channels");
    expect((await toastOf(forged))?.description).toContain("expired or did not match");
    const denied = await linkSocial(me, "tiktok", null);
    expect((await toastOf(denied))?.description).toBe("Access was denied.");
    const taken = await linkSocial(me, "instagram", account);
    expect((await toastOf(taken))?.description).toBe("This Instagram account is already linked to another Shortbeat account.");
    expect(await count("SELECT count(*) AS n FROM social_accounts WHERE user_id = ?", me.id)).toBe(0);
  });
});

describe("Instagram and TikTok videos of a linked account", () => {
  it("accepts the creator's own reel and TikTok video, refuses someone else's, and the daily job reads their views with the owner's token", async () => {
    const campaignId = await liveCampaign();
    const mine = { reel: `Mine${tag}`, video: tiktokId() };
    await Promise.all([
      registerStandInPost("instagram", mine.reel, { author: account, views: 6789 }),
      registerStandInPost("tiktok", mine.video, { author: account, views: 12345 }),
      registerStandInPost("instagram", `Else${tag}`, { author: "somebodyelse" }),
    ]);
    const elseVideo = tiktokId();
    await registerStandInPost("tiktok", elseVideo, { author: "somebodyelse" });
    const url = {
      reel: `https://www.instagram.com/reel/${mine.reel}/`,
      video: `https://www.tiktok.com/@${account}/video/${mine.video}`,
    };
    for (const u of Object.values(url)) expect(await outcome(await submit(creator, campaignId, u)), u).toBe("→/campaigns");
    expect(await subOf(url.reel)).toMatchObject({ status: "pending", ownership_review: null });

    // Not in the account's media / not returned by the video query: refused, nothing stored.
    for (const [u, text] of [
      [`https://www.instagram.com/reel/Else${tag}/`, `This Instagram video is not one of the posts of your linked Instagram account ${account}.`],
      [`https://www.tiktok.com/@${account}/video/${elseVideo}`, `This TikTok video is not one of the posts of your linked TikTok account ${account}.`],
    ] as const) {
      const res = await submit(creator, campaignId, u);
      expect(res.status, u).toBe(409);
      expect(await res.text()).toContain(text);
    }
    expect(await count("SELECT count(*) AS n FROM campaign_submissions WHERE campaign_id = ?", campaignId)).toBe(2);

    for (const u of Object.values(url)) {
      const id = (await env.DB.prepare("SELECT id FROM campaign_submissions WHERE url = ?").bind(u).first<{ id: string }>())?.id ?? "";
      expect(await outcome(await postForm("/admin/campaigns", { intent: "approve", submissionId: id, views: "100" }, withCookie(admin.cookie)))).toBe(
        "→/admin/campaigns",
      );
    }
    // TikTok's access token has expired: the job refreshes it (the refresh token rotates) and reads on.
    const before = await env.DB.prepare("SELECT refresh_token_enc FROM social_accounts WHERE user_id = ? AND platform = 'tiktok'")
      .bind(creator.id)
      .first<{ refresh_token_enc: string }>();
    await env.DB.prepare("UPDATE social_accounts SET access_token_expires_at = '2000-01-01T00:00:00.000Z' WHERE user_id = ? AND platform = 'tiktok'")
      .bind(creator.id)
      .run();
    await refreshCampaignViews({ limit: 10_000 });
    expect(await subOf(url.reel)).toMatchObject({ status: "approved", views: 6789, provider_views: 6789 });
    expect(await subOf(url.video)).toMatchObject({ status: "approved", views: 12345, provider_views: 12345 });
    const after = await env.DB.prepare("SELECT refresh_token_enc, access_token_expires_at FROM social_accounts WHERE user_id = ? AND platform = 'tiktok'")
      .bind(creator.id)
      .first<{ refresh_token_enc: string; access_token_expires_at: string }>();
    expect(after?.refresh_token_enc).not.toBe(before?.refresh_token_enc);
    expect(Date.parse(after?.access_token_expires_at ?? "")).toBeGreaterThan(Date.now());
  });
});

describe("not linked: the admin's review queue, never a refusal (decision 0301)", () => {
  it("an Instagram or TikTok link by a creator who did not link the platform is stored pending, with the reason, for the admin", async () => {
    const campaignId = await liveCampaign();
    const reel = `https://www.instagram.com/reel/Wait${tag}/`;
    const res = await submit(unlinked, campaignId, reel);
    expect(await outcome(res)).toBe("→/campaigns");
    expect((await toastOf(res))?.description).toContain("An admin will check that it is yours, because your Instagram account is not linked");
    expect(await subOf(reel)).toMatchObject({ status: "pending", ownership_review: "Needs review: Instagram not linked" });
    const video = `https://www.tiktok.com/@someone/video/${tiktokId()}`;
    expect(await outcome(await submit(unlinked, campaignId, video))).toBe("→/campaigns");
    expect(await subOf(video)).toMatchObject({ status: "pending", ownership_review: "Needs review: TikTok not linked" });
    const adminPage = await (await fetchApp(`/admin/campaigns?campaign=${campaignId}`, withCookie(admin.cookie))).text();
    expect(adminPage).toContain("Needs review: Instagram not linked");
    const own = await (await fetchApp("/campaigns", withCookie(unlinked.cookie))).text();
    expect(own).toContain("Needs review: TikTok not linked");
    // Its views cannot be read without the owner's token: the job writes nothing for them.
    await refreshCampaignViews({ limit: 10_000 });
    expect(await subOf(reel)).toMatchObject({ provider_views: null });
  });
});

describe("unlinking and privacy", () => {
  it("exports the linked accounts without tokens; unlinking deletes the row and revokes TikTok's grant", async () => {
    const me = await createUser("creator");
    const name = `gone_${tag}`;
    await linkSocial(me, "tiktok", name);
    await linkSocial(me, "instagram", name);
    const exported = await (await fetchApp("/settings/export", withCookie(me.cookie))).text();
    expect(exported).toContain(name);
    expect(exported).not.toMatch(/act\.|rft\.|IGAA|access_token_enc|v1\./);
    const video = tiktokId();
    await registerStandInPost("tiktok", video, { author: name });
    const row = await env.DB.prepare("SELECT id, access_token_enc FROM social_accounts WHERE user_id = ? AND platform = 'tiktok'")
      .bind(me.id)
      .first<{ id: string; access_token_enc: string }>();
    const grant = await decryptToken(row?.access_token_enc ?? "", `social-access:${row?.id}`);
    const query = () =>
      handleStandInSocial(
        new Request(`${ORIGIN}/dev/social/tiktok/api/v2/video/query/?fields=id`, {
          method: "POST",
          headers: { Authorization: `Bearer ${grant}` },
          body: JSON.stringify({ filters: { video_ids: [video] } }),
        }),
      );
    expect((await query()).status).toBe(200);
    for (const platform of ["tiktok", "instagram"]) {
      const res = await postForm("/channels", { intent: "unlink-social", platform }, withCookie(me.cookie));
      expect(await outcome(res)).toBe("→/channels");
    }
    expect(await count("SELECT count(*) AS n FROM social_accounts WHERE user_id = ?", me.id)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM security_audit_log WHERE event_type = 'social_account_unlinked' AND user_id = ?", me.id)).toBe(2);
    // TikTok's grant was revoked at TikTok: the old token no longer reads anything.
    expect((await query()).status).toBe(401);
    // A second unlink: nothing is linked.
    const again = await postForm("/channels", { intent: "unlink-social", platform: "tiktok" }, withCookie(me.cookie));
    expect(again.status).toBe(404);
  });
});

describe("the stand-in answers the providers' documented shapes (tests/fixtures/providers/)", () => {
  it("Instagram's /me, /me/media, insights and oEmbed; TikTok's user info and video query", async () => {
    const user = await createUser("creator");
    const name = `shape_${tag}`;
    await registerStandInPost("instagram", `Shape${tag}`, { author: name, views: 5 });
    const video = tiktokId();
    await registerStandInPost("tiktok", video, { author: name, views: 5 });
    await linkSocial(user, "instagram", name);
    await linkSocial(user, "tiktok", name);
    const token = async (platform: string) => {
      const row = await env.DB.prepare("SELECT id, access_token_enc FROM social_accounts WHERE user_id = ? AND platform = ?")
        .bind(user.id, platform)
        .first<{ id: string; access_token_enc: string }>();
      return decryptToken(row?.access_token_enc ?? "", `social-access:${row?.id}`);
    };
    const ig = await token("instagram");
    const ask = async (path: string, init?: RequestInit) => (await handleStandInSocial(new Request(new URL(path, ORIGIN), init))).json();
    const me = await ask(`/dev/social/instagram/graph/me?fields=user_id,username&access_token=${ig}`);
    expect(jsonShape(me)).toEqual(jsonShape(instagramDocs.me.example));
    const media = (await ask(`/dev/social/instagram/graph/me/media?fields=id,shortcode,permalink,media_product_type&access_token=${ig}`)) as {
      data: { id: string }[];
    };
    expect(jsonShape(media)).toEqual(jsonShape(instagramDocs.media.example));
    expect(
      jsonShape(await ask(`/dev/social/instagram/graph/${present(media.data[0], "the first media item").id}/insights?metric=views&access_token=${ig}`)),
    ).toEqual(jsonShape(instagramDocs.insights.example));
    const oembed = await ask(`/dev/social/instagram/oembed?url=https://www.instagram.com/reel/Shape${tag}/&access_token=x`);
    expect(jsonShape(oembed)).toEqual(jsonShape(instagramDocs.oembed.example));
    const tt = await token("tiktok");
    const bearer = { Authorization: `Bearer ${tt}` };
    expect(jsonShape(await ask("/dev/social/tiktok/api/v2/user/info/?fields=open_id,union_id,avatar_url,display_name", { headers: bearer }))).toEqual(
      jsonShape(tiktokDocs.userInfo.example),
    );
    const queryWith = async (fields: string) =>
      (await ask(`/dev/social/tiktok/api/v2/video/query/?fields=${fields}`, {
        method: "POST",
        headers: { ...bearer, "Content-Type": "application/json" },
        body: JSON.stringify({ filters: { video_ids: [video] } }),
      })) as { data: { videos: Record<string, unknown>[] } };
    // The documented example is the answer to fields=id,title; view_count is an int64 (a JSON number).
    expect(jsonShape(await queryWith("id,title"))).toEqual(jsonShape(tiktokDocs.videoQuery.example));
    const counted = await queryWith("id,title,view_count");
    expect(counted.data.videos[0]).toMatchObject({ id: video, view_count: 5 });
    expect(
      jsonShape(await ask("/dev/social/tiktok/api/v2/video/query/?fields=id", { method: "POST", headers: { Authorization: "Bearer act.nope" }, body: "{}" })),
    ).toEqual(jsonShape(tiktokDocs.videoQueryTokenInvalid.example));
  });
});
