import { describe, expect, it } from "vitest";
import { analyticsCsv, buildAnalytics, csvCell, formatGrowth, growthOf, parseRange, rangeDays, type Snapshot } from "../../app/modules/channels/analytics";
import { channelActionSchema, manualSubmissionSchema, reviewSchema } from "../../app/modules/channels/schema";
import { fieldErrorsOf } from "../../app/lib/forms";
import { present } from "../helpers/present";

const snap = (channelRowId: string, day: string, subscribers: number, views = subscribers * 10, videos = 1): Snapshot => ({
  channelRowId,
  day,
  subscribers,
  views,
  videos,
});

describe("analytics rules", () => {
  it("accepts only 7 and 30 days from the URL (statistics are kept 30 days, decision 0304)", () => {
    expect(parseRange("7")).toBe(7);
    expect(parseRange("90")).toBe(30);
    expect(parseRange("31")).toBe(30);
    expect(parseRange(null)).toBe(30);
    expect(parseRange("7; DROP TABLE")).toBe(30);
  });

  it("lists the UTC days of the range ending today", () => {
    expect(rangeDays(3, new Date("2026-03-01T23:59:00Z"))).toEqual(["2026-02-27", "2026-02-28", "2026-03-01"]);
  });

  it("computes growth over the range, absolute and in percent", () => {
    expect(growthOf(100, 150)).toEqual({ start: 100, end: 150, change: 50, percent: 50 });
    expect(growthOf(0, 10).percent).toBeNull();
    expect(formatGrowth(growthOf(1000, 1234))).toBe("+234 (+23.4%)");
    expect(formatGrowth(growthOf(1000, 990))).toBe("−10 (−1.0%)");
    expect(formatGrowth(growthOf(null, 5))).toBe("—");
  });

  it("carries a channel's last value forward in the total, never inventing points on its own line", () => {
    const days = ["2026-01-01", "2026-01-02", "2026-01-03"];
    const channels = [
      { id: "a", channelId: "UCa", title: "A", handle: null },
      { id: "b", channelId: "UCb", title: "B", handle: null },
    ];
    const data = buildAnalytics(
      7,
      days,
      channels,
      [snap("a", "2026-01-01", 100), snap("a", "2026-01-03", 130), snap("b", "2026-01-02", 50), snap("b", "2026-01-03", 60)],
      [snap("b", "2025-12-30", 40)],
    );
    expect(present(data.channels[0], "channel a").points.map((p) => p.subscribers)).toEqual([100, null, 130]);
    expect(data.total.points.map((p) => p.subscribers)).toEqual([140, 150, 190]);
    expect(present(data.channels[1], "channel b").growth.subscribers).toMatchObject({ start: 40, end: 60, change: 20, percent: 50 });
    expect(data.total.growth.subscribers.change).toBe(50);
    expect(data.hasData).toBe(true);

    const csv = analyticsCsv(data).trim().split("\r\n");
    expect(csv[0]).toBe("date,channel,channel_id,subscribers,views,videos");
    expect(csv).toContain("2026-01-01,A,UCa,100,1000,1");
    expect(csv).toContain("2026-01-02,All channels,,150,1500,2");
    expect(csv).not.toContain("2026-01-02,A,UCa,,,");
  });

  it("has no data when the snapshots are all older than the range", () => {
    const data = buildAnalytics(7, ["2026-01-10"], [{ id: "a", channelId: "UCa", title: "A", handle: null }], [], [snap("a", "2026-01-01", 5)]);
    expect(data.hasData).toBe(false);
  });

  it("keeps CSV cells from being read as formulas", () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell("+1")).toBe(`"'+1"`);
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell(12)).toBe("12");
    expect(csvCell(null)).toBe("");
  });
});

describe("manual submission schema", () => {
  it("requires a name, allows an empty URL (stored null) and counts that are whole and non-negative", () => {
    const ok = manualSubmissionSchema.parse({
      channelName: " Mine ",
      channelUrl: "",
      subscriberCount: "1,200",
      avgMonthlyViews: "",
    });
    expect(ok).toEqual({ channelName: "Mine", channelUrl: null, subscriberCount: 1200, avgMonthlyViews: 0 });
    expect(manualSubmissionSchema.parse({ channelName: "x", channelUrl: "youtube.com/@x" }).channelUrl).toBe("https://youtube.com/@x");
    expect(manualSubmissionSchema.safeParse({ channelName: "" }).success).toBe(false);
    expect(manualSubmissionSchema.safeParse({ channelName: "x", channelUrl: "ftp://x.com" }).success).toBe(false);
    expect(manualSubmissionSchema.safeParse({ channelName: "x", subscriberCount: "-1" }).success).toBe(false);
    expect(manualSubmissionSchema.safeParse({ channelName: "x", avgMonthlyViews: "2e3" }).success).toBe(false);
  });
});

describe("the /channels and verification forms", () => {
  const errorsOf = (schema: typeof channelActionSchema | typeof reviewSchema, value: unknown) => {
    const parsed = schema.safeParse(value);
    return parsed.success ? null : fieldErrorsOf(parsed.error);
  };
  const id = "0b0f4a52-8d3e-4a4e-9f3a-5c1e2d3f4a5b";

  it("reads each intent's own fields", () => {
    expect(channelActionSchema.parse({ intent: "connect" })).toEqual({ intent: "connect" });
    expect(channelActionSchema.parse({ intent: "refresh", channelId: ` ${id} ` })).toEqual({ intent: "refresh", channelId: id });
    expect(channelActionSchema.parse({ intent: "submit", channelName: "Mine" })).toEqual({
      intent: "submit",
      channelName: "Mine",
      channelUrl: null,
      subscriberCount: 0,
      avgMonthlyViews: 0,
    });
    expect(channelActionSchema.parse({ intent: "submit-verification", id })).toEqual({ intent: "submit-verification", id });
  });

  it("names the field and the thing that was not found", () => {
    expect(errorsOf(channelActionSchema, { intent: "disconnect", channelId: "' OR 1=1 --" })).toEqual({
      channelId: "Channel not found.",
    });
    expect(errorsOf(channelActionSchema, { intent: "refresh" })).toEqual({ channelId: "Channel not found." });
    expect(errorsOf(channelActionSchema, { intent: "submit-verification", id: "x" })).toEqual({ id: "Submission not found." });
    expect(errorsOf(channelActionSchema, { intent: "submit", channelName: " " })).toEqual({
      channelName: "Channel name is required.",
    });
    expect(Object.values(errorsOf(channelActionSchema, { intent: "nope" }) ?? {})).toEqual(["Unknown action."]);
    expect(errorsOf(reviewSchema, { intent: "reject", id, reason: "  " })).toEqual({
      reason: "A reason is required to reject a submission.",
    });
  });
});
