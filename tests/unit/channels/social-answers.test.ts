// The parsers of Instagram's and TikTok's answers (decisions 0299, 0300) read the providers'
// documented examples (tests/fixtures/providers/, read 2026-12-06) — the same shapes the stand-in answers.
import { describe, expect, it } from "vitest";
import {
  instagramMediaPage,
  instagramProfile,
  instagramToken,
  instagramViews,
  shortcodeOf,
  tiktokToken,
  tiktokUser,
  tiktokVideos,
} from "~/modules/channels/social-answers";
import instagram from "../../fixtures/providers/instagram.json";
import tiktok from "../../fixtures/providers/tiktok.json";
import { present } from "../../helpers/present";

describe("Instagram API with Instagram Login answers", () => {
  it("reads the tokens, the account, its media and a reel's views; oEmbed names no author", () => {
    expect(instagramToken(instagram.codeExchange.example)).toMatchObject({
      accessToken: "EAACEdEose0...",
      scope: "instagram_business_basic,instagram_business_manage_messages,instagram_business_manage_comments,instagram_business_content_publish",
    });
    expect(instagramToken(instagram.codeExchangeRejected.example)).toBeNull();
    expect(instagramToken(instagram.longLivedToken.example)).toMatchObject({ accessToken: "<LONG_LIVED_ACCESS_TOKEN>", expiresIn: 5183944 });
    expect(instagramToken({ data: [{ access_token: "EAAB", user_id: "1", permissions: "instagram_business_basic" }] })).toMatchObject({
      accessToken: "EAAB",
      scope: "instagram_business_basic",
    });
    expect(instagramProfile(instagram.me.example)).toEqual({ userId: "<INSTAGRAM_USER_ID>", username: "<INSTAGRAM_USERNAME>" });
    const page = instagramMediaPage(instagram.media.example);
    expect(page?.media).toHaveLength(1);
    expect(page?.next).toBeNull();
    expect(shortcodeOf(page?.media[0] ?? { id: "", shortcode: null, permalink: null, productType: null })).toBe("DCxKq8ROa3D");
    expect(shortcodeOf({ id: "1", shortcode: null, permalink: "https://www.instagram.com/reel/AbC_12-x/", productType: "REELS" })).toBe("AbC_12-x");
    expect(instagramViews(instagram.insights.example)).toBe(1234);
    expect(instagramViews({ data: [] })).toBeNull();
    expect("author_name" in instagram.oembed.example).toBe(false);
  });

  it("refuses other shapes rather than guessing", () => {
    expect(instagramToken({ error: { code: 190 } })).toBeNull();
    expect(instagramProfile({ username: "x" })).toBeNull();
    expect(instagramMediaPage({ data: "no" })).toBeNull();
    expect(instagramViews({ data: [{ name: "views", values: [{ value: -1 }] }] })).toBeNull();
  });
});

describe("TikTok Login Kit and Display API answers", () => {
  it("reads the tokens, the user and the videos with their views; ids stay strings", () => {
    expect(tiktokToken(tiktok.token.example)).toEqual({
      accessToken: "act.example12345Example12345Example",
      expiresIn: 86400,
      refreshToken: "rft.example12345Example12345Example",
      refreshExpiresIn: 31536000,
      scope: "user.info.basic,video.list",
      openId: "afd97af1-b87b-48b9-ac98-410aghda5344",
    });
    expect(tiktokToken(tiktok.tokenError.example)).toBeNull();
    expect(tiktokUser(tiktok.userInfo.example)).toEqual({ openId: "723f24d7-e717-40f8-a2b6-cb8464cd23b4", displayName: "Tik Toker" });
    // The documented example asked fields=id,title: the videos come back, their views unknown.
    const videos = tiktokVideos(tiktok.videoQuery.example);
    expect([...(videos ?? new Map())]).toEqual([
      ["1234123412345678567", null],
      ["1010102020203030303", null],
    ]);
    // Asked with view_count (int64 on the Video Object page, a JSON number), the views are read.
    const withViews = structuredClone(tiktok.videoQuery.example) as { data: { videos: Record<string, unknown>[] } };
    present(withViews.data.videos[0], "the example's first video").view_count = 2451;
    expect(tiktokVideos(withViews)?.get("1234123412345678567")).toBe(2451);
    expect(tiktokVideos(tiktok.videoQueryTokenInvalid.example)).toBeNull();
    // A numeric int64 id has lost its digits already: never matched.
    expect(tiktokVideos(JSON.parse('{"data":{"videos":[{"id":7077642457847991554,"view_count":1}]},"error":{"code":"ok"}}'))?.size).toBe(0);
  });
});
