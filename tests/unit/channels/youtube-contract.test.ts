// Our YouTube parser on answers typed against @googleapis/youtube (tests/factories/youtube-fixtures.ts),
// and when the daily quota resets (midnight Pacific Time). Decision 0303.
import { describe, expect, it } from "vitest";
import { errorReasonOf, nextPacificMidnight, parseVideoList } from "~/modules/channels/youtube-api";
import { MISSING_KEY, QUOTA_EXCEEDED, VIDEO_LIST } from "../../factories/youtube-fixtures";

describe("the videos.list contract", () => {
  it("reads each listed video's channel and views; a video without statistics has null views; an id not listed is absent", () => {
    const videos = parseVideoList(VIDEO_LIST);
    expect(videos?.get("caseyShort1")).toEqual({ id: "caseyShort1", channelId: "UCstandinCasey0000000002", viewCount: 12345 });
    expect(videos?.get("hiddenViews")?.viewCount).toBeNull();
    expect(videos?.has("unknownId00")).toBe(false);
    expect(parseVideoList({ items: [] })?.size).toBe(0);
    expect(parseVideoList(MISSING_KEY)).toBeNull();
  });

  it("reads the reason of Google's error envelope: quotaExceeded is told apart from forbidden", () => {
    expect(errorReasonOf(QUOTA_EXCEEDED)).toBe("quotaExceeded");
    expect(errorReasonOf(MISSING_KEY)).toBe("forbidden");
    expect(errorReasonOf({ error: "invalid_token" })).toBeNull();
    expect(errorReasonOf(null)).toBeNull();
  });
});

describe("the quota reset", () => {
  it("is the next midnight in Los Angeles, summer (07:00 UTC) and winter (08:00 UTC)", () => {
    expect(nextPacificMidnight(new Date("2026-07-10T15:00:00Z")).toISOString()).toBe("2026-07-11T07:00:00.000Z");
    expect(nextPacificMidnight(new Date("2026-12-06T03:00:00Z")).toISOString()).toBe("2026-12-06T08:00:00.000Z");
    expect(nextPacificMidnight(new Date("2026-12-06T09:00:00Z")).toISOString()).toBe("2026-12-07T08:00:00.000Z");
    // The night daylight saving time ends (2026-11-01): midnight is still 07:00 UTC, the next 08:00.
    expect(nextPacificMidnight(new Date("2026-10-31T20:00:00Z")).toISOString()).toBe("2026-11-01T07:00:00.000Z");
    expect(nextPacificMidnight(new Date("2026-11-01T07:30:00Z")).toISOString()).toBe("2026-11-02T08:00:00.000Z");
  });
});
