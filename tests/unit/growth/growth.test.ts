import { describe, expect, it } from "vitest";
import { addMonths, bonusShareBp, inReferralTerm } from "~/modules/payments/referral-rules";
import { notifySchema, retentionQuerySchema } from "~/modules/growth/schema";
import { addWeeks, isoWeekLabel, lastWeeks, utcDay, weekOf, weeksBetween } from "~/modules/growth/weeks";

describe("ISO weeks in UTC", () => {
  it("names a week by its Monday and its ISO label", () => {
    expect(weekOf("2026-11-23T00:00:00.000Z")).toBe("2026-11-23"); // a Monday
    expect(weekOf("2026-11-29T23:59:59.999Z")).toBe("2026-11-23"); // its Sunday, last instant
    expect(weekOf("2026-11-30T00:00:00.000Z")).toBe("2026-11-30");
    expect(weekOf("2026-11-25")).toBe("2026-11-23");
    expect(isoWeekLabel("2026-11-23")).toBe("2026-W48");
    // Years whose first ISO week starts in December, or whose last spills into January.
    expect(isoWeekLabel(weekOf("2024-12-30"))).toBe("2025-W01");
    expect(isoWeekLabel(weekOf("2021-01-03"))).toBe("2020-W53");
    expect(isoWeekLabel("2035-01-01")).toBe("2035-W01");
  });

  it("counts weeks and days", () => {
    expect(addWeeks("2026-11-23", -1)).toBe("2026-11-16");
    expect(weeksBetween("2026-11-02", "2026-11-23")).toBe(3);
    expect(lastWeeks("2026-11-25T10:00:00Z", 3)).toEqual(["2026-11-09", "2026-11-16", "2026-11-23"]);
    expect(utcDay("2026-03-29T01:30:00+02:00")).toBe("2026-03-28");
  });
});

describe("referral bonus rules", () => {
  it("runs for the first 12 months of the term: the start's month and the 11 after it", () => {
    expect(inReferralTerm("2026-03", "2026-03-31T23:00:00.000Z")).toBe(true);
    expect(inReferralTerm("2026-02", "2026-03-01T00:00:00.000Z")).toBe(false);
    expect(inReferralTerm("2027-02", "2026-03-15T00:00:00.000Z")).toBe(true);
    expect(inReferralTerm("2027-03", "2026-03-15T00:00:00.000Z")).toBe(false);
    expect(inReferralTerm("2026-05", null)).toBe(false);
    expect(addMonths("2026-12", 1)).toBe("2027-01");
    expect(addMonths("2026-01", 11)).toBe("2026-12");
  });

  it("is paid from the platform's side: never more than what the creator's share leaves", () => {
    expect(bonusShareBp(1000, 7000)).toBe(1000);
    expect(bonusShareBp(4000, 7000)).toBe(3000);
    expect(bonusShareBp(500, 10000)).toBe(0);
    expect(bonusShareBp(0, 7000)).toBe(0);
  });
});

describe("the retention page's query and the notify form", () => {
  it("falls back to defaults for anything out of range", () => {
    expect(retentionQuerySchema.parse({})).toEqual({ weeks: 12, source: "all", inactiveDays: 30, status: "all", page: 1 });
    expect(retentionQuerySchema.parse({ weeks: "999", source: "x", inactiveDays: "0", status: "banned", page: "-1" })).toEqual({
      weeks: 12,
      source: "all",
      inactiveDays: 30,
      status: "all",
      page: 1,
    });
    expect(retentionQuerySchema.parse({ weeks: "52", source: "referral", inactiveDays: "90", status: "approved", page: "3" })).toEqual({
      weeks: 52,
      source: "referral",
      inactiveDays: 90,
      status: "approved",
      page: 3,
    });
  });

  it("needs at least one person, at most 200, and whole days", () => {
    expect(notifySchema.safeParse({ intent: "notify", inactiveDays: "30", userIds: [] }).success).toBe(false);
    expect(notifySchema.safeParse({ intent: "notify", inactiveDays: "30", userIds: ["not-a-uuid"] }).success).toBe(false);
    expect(notifySchema.safeParse({ intent: "notify", inactiveDays: "3.5", userIds: [crypto.randomUUID()] }).success).toBe(false);
    const many = Array.from({ length: 201 }, () => crypto.randomUUID());
    expect(notifySchema.safeParse({ intent: "notify", inactiveDays: "30", userIds: many }).success).toBe(false);
    expect(notifySchema.parse({ intent: "notify", inactiveDays: "30", userIds: crypto.randomUUID() }).userIds).toHaveLength(1);
  });
});
