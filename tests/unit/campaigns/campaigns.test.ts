import { describe, expect, it } from "vitest";
import {
  budgetLeft,
  budgetUsed,
  campaignState,
  cappedPayout,
  daysUntil,
  effectiveEnd,
  ledgerMonthOf,
  payoutDeadline,
  payoutFor,
  publicName,
} from "~/modules/campaigns/rules";
import { campaignAdminSchema, campaignParticipateSchema } from "~/modules/campaigns/schema";
import { VIDEO_URL_MESSAGES, parseVideoUrl, videoUrlProblem } from "~/modules/campaigns/video-url";

const base = { status: "launched" as const, startsAt: "2031-05-01T00:00:00.000Z", endsAt: "2031-06-01T00:00:00.000Z", endedAt: null };
const at = (iso: string) => new Date(iso);

describe("campaign state", () => {
  it("follows the dates when read: scheduled, live from the start (inclusive), ended at the end (exclusive)", () => {
    expect(campaignState({ ...base, status: "draft" }, at("2031-05-10T00:00:00Z"))).toBe("draft");
    expect(campaignState(base, at("2031-04-30T23:59:59Z"))).toBe("scheduled");
    expect(campaignState(base, at("2031-05-01T00:00:00Z"))).toBe("live");
    expect(campaignState(base, at("2031-05-31T23:59:59.999Z"))).toBe("live");
    expect(campaignState(base, at("2031-06-01T00:00:00Z"))).toBe("ended");
    expect(campaignState({ ...base, status: "settled" }, at("2031-06-02T00:00:00Z"))).toBe("settled");
  });

  it("an early end by an admin ends it then", () => {
    const early = { ...base, endedAt: "2031-05-15T12:00:00.000Z" };
    expect(campaignState(early, at("2031-05-15T11:59:00Z"))).toBe("live");
    expect(campaignState(early, at("2031-05-15T12:00:00Z"))).toBe("ended");
    expect(effectiveEnd(early)).toBe("2031-05-15T12:00:00.000Z");
    expect(ledgerMonthOf(early)).toBe("2031-05");
  });
});

describe("payout", () => {
  it("is views / 1,000 × rate, rounded down to the cent, and capped by the budget left", () => {
    expect(payoutFor(12_345, 200)).toBe(2469);
    expect(payoutFor(999, 1)).toBe(0);
    expect(payoutFor(10_000_000_000, 10_000_000)).toBe(100_000_000_000_000);
    expect(cappedPayout(3000, 100, 100)).toBe(100);
    expect(cappedPayout(3000, 100, -5)).toBe(0);
    expect(() => payoutFor(-1, 100)).toThrow(RangeError);
  });

  it("is due up to 60 days after the end", () => {
    expect(payoutDeadline(base)).toBe("2031-07-31");
    expect(daysUntil("2031-07-31", at("2031-07-21T18:00:00Z"))).toBe(10);
    expect(daysUntil("2031-07-31", at("2031-08-02T01:00:00Z"))).toBe(-2);
  });
});

describe("video links", () => {
  it("names the same YouTube video however it is written", () => {
    for (const url of [
      "https://www.youtube.com/shorts/abcDEF12345",
      "youtube.com/shorts/abcDEF12345/",
      "https://m.youtube.com/watch?v=abcDEF12345&t=3",
      "https://youtu.be/abcDEF12345?si=x",
      "http://www.youtube.com/embed/abcDEF12345",
    ]) {
      expect(parseVideoUrl(url), url).toMatchObject({ platform: "youtube", videoId: "abcDEF12345", key: "youtube:abcDEF12345" });
    }
  });

  it("reads TikTok and Instagram links and refuses everything else", () => {
    expect(parseVideoUrl("https://www.tiktok.com/@some.one/video/7300000000000000001?lang=en")).toMatchObject({ key: "tiktok:7300000000000000001" });
    expect(parseVideoUrl("https://instagram.com/reel/Cxyz123AbC/")).toMatchObject({ key: "instagram:Cxyz123AbC" });
    expect(parseVideoUrl("https://www.instagram.com/p/Cxyz123AbC")).toMatchObject({ key: "instagram:Cxyz123AbC" });
    for (const bad of [
      "",
      "https://vimeo.com/1234",
      "https://www.youtube.com/@channel",
      "https://www.youtube.com/shorts/short",
      "https://youtube.com.evil.example/shorts/abcDEF12345",
      "javascript:alert(1)",
      "ftp://youtube.com/shorts/abcDEF12345",
      "https://user:pw@youtube.com/shorts/abcDEF12345",
      "https://vm.tiktok.com/ZMabc/",
      `https://youtu.be/${"a".repeat(600)}`,
    ]) {
      expect(parseVideoUrl(bad), bad).toBeNull();
    }
  });

  it("says what is wrong with a refused link: a YouTube video id cut short is named as such (issue 42 §4)", () => {
    expect(videoUrlProblem("https://youtu.be/caseyShort")).toBe("This YouTube link's video id is not complete: a YouTube video id has 11 characters.");
    expect(videoUrlProblem("https://www.youtube.com/shorts/abcDEF1234")).toBe(VIDEO_URL_MESSAGES.youtubeIdShort);
    expect(videoUrlProblem("https://www.youtube.com/watch?v=abcDEF123456")).toBe(VIDEO_URL_MESSAGES.youtubeIdInvalid);
    expect(videoUrlProblem("https://www.youtube.com/watch?v=abc$EF12345")).toBe(VIDEO_URL_MESSAGES.youtubeIdInvalid);
    for (const other of ["https://vimeo.com/1234", "https://www.youtube.com/@channel", "https://www.youtube.com/watch", "not a link"]) {
      expect(videoUrlProblem(other), other).toBe("Enter the link of a video on YouTube, TikTok or Instagram.");
    }
  });
});

describe("forms", () => {
  const fields = {
    intent: "create",
    brand: "Brand",
    title: "Title",
    slug: "a-campaign",
    brief: "Brief",
    rate: "$1,200.5",
    budget: "10",
    startsAt: "2031-05-01T00:00",
    endsAt: "2031-06-01T00:00",
  };
  it("reads money in dollars into cents, datetime-local as UTC", () => {
    const parsed = campaignAdminSchema.parse(fields);
    expect(parsed).toMatchObject({ rate: 120050, budget: 1000, startsAt: "2031-05-01T00:00:00.000Z", minSubscribers: 0, requiredTrackId: null });
  });
  it("refuses amounts that are not positive", () => {
    for (const rate of ["0", "0.00", "-1", "1.234", "abc", ""]) expect(campaignAdminSchema.safeParse({ ...fields, rate }).success, rate).toBe(false);
  });
  // Issue 27, item 5: "2,50" was stored as 250.00 (a rate 100× too high).
  it("reads only unambiguous amounts: a decimal comma is refused with the expected form, never read as hundreds", () => {
    const rateOf = (rate: string) => campaignAdminSchema.safeParse({ ...fields, rate });
    expect(rateOf("1,234.56").data).toMatchObject({ rate: 123456 });
    expect(rateOf("1234.56").data).toMatchObject({ rate: 123456 });
    expect(rateOf("1,000").data).toMatchObject({ rate: 100000 });
    expect(rateOf("2.50").data).toMatchObject({ rate: 250 });
    for (const [rate, message] of [
      ["2,50", "Rate: use a dot for decimals, e.g. 2.50."],
      ["1,00", "Rate: use a dot for decimals, e.g. 2.50."],
      ["1.234,56", "Rate: use a dot for decimals, e.g. 2.50."],
      ["1 234,5", "Rate: use a dot for decimals, e.g. 2.50."],
      ["1,0000", "Rate: put commas only between thousands, e.g. 1,250,000."],
      ["12,34,567", "Rate: put commas only between thousands, e.g. 1,250,000."],
    ] as const) {
      const parsed = rateOf(rate);
      expect(parsed.success, rate).toBe(false);
      expect(parsed.error?.issues[0]?.message, rate).toBe(message);
    }
    const budget = campaignAdminSchema.safeParse({ ...fields, budget: "2,50" });
    expect(budget.error?.issues[0]).toMatchObject({ path: ["budget"], message: "Budget: use a dot for decimals, e.g. 2.50." });
  });
  it("reads whole numbers with thousands separators only: verified views and the minimum subscribers", () => {
    const id = crypto.randomUUID();
    expect(campaignAdminSchema.parse({ intent: "views", submissionId: id, views: "1,250,000" })).toMatchObject({ views: 1250000 });
    const views = campaignAdminSchema.safeParse({ intent: "views", submissionId: id, views: "1,00" });
    expect(views.error?.issues[0]?.message).toBe("Verified views must be a whole number: commas only between thousands, e.g. 1,250,000.");
    expect(campaignAdminSchema.safeParse({ ...fields, minSubscribers: "10,000" }).data).toMatchObject({ minSubscribers: 10000 });
    expect(campaignAdminSchema.safeParse({ ...fields, minSubscribers: "10,00" }).success).toBe(false);
  });
  it("needs the terms ticked to join", () => {
    const id = crypto.randomUUID();
    expect(campaignParticipateSchema.safeParse({ intent: "join", campaignId: id }).success).toBe(false);
    expect(campaignParticipateSchema.safeParse({ intent: "join", campaignId: id, accept: "on" }).success).toBe(true);
  });
});

describe("budget left", () => {
  it("is what the approved amounts leave, never below zero; reached once they meet the budget", () => {
    expect(budgetLeft({ budgetCents: 1000, spentCents: 250 })).toEqual({ budgetLeftCents: 750, budgetReached: false });
    expect(budgetLeft({ budgetCents: 1000, spentCents: 1000 })).toEqual({ budgetLeftCents: 0, budgetReached: true });
    expect(budgetLeft({ budgetCents: 500, spentCents: 900 })).toEqual({ budgetLeftCents: 0, budgetReached: true });
  });
});

describe("the public page's words (issue 30)", () => {
  it("names a creator by first name and last initial, never more", () => {
    expect(publicName("Casey Creator")).toBe("Casey C.");
    expect(publicName("  ana   maría  de la  cruz ")).toBe("ana C.");
    expect(publicName("Jo")).toBe("Jo");
    expect(publicName("Émile Zola")).toBe("Émile Z.");
    expect(publicName("")).toBe("A creator");
    expect(publicName(null)).toBe("A creator");
    expect(publicName("😀😀 Smith")).toBe("😀😀 S.");
  });

  it("says how much of the budget is used, the bar's share in whole percent, never above 100", () => {
    expect(budgetUsed({ budgetCents: 50_000, spentCents: 12_345 })).toEqual({ label: "$123.45 of $500.00 used", percent: 24 });
    expect(budgetUsed({ budgetCents: 1000, spentCents: 0 })).toEqual({ label: "$0.00 of $10.00 used", percent: 0 });
    expect(budgetUsed({ budgetCents: 1000, spentCents: 999 }).percent).toBe(99);
    expect(budgetUsed({ budgetCents: 1000, spentCents: 1000 }).percent).toBe(100);
  });
});
