// The revenue import's pure steps alone (issue 44 §2): parse (import-parse.ts) and price
// (import-price.ts), without a database. The worker suites (tests/worker/payments/import-preview,
// revenue-files, …; clipping/revenue; growth) run the whole previewImport with the real bindings.
import { describe, expect, it } from "vitest";
import { DomainError } from "~/lib/errors";
import type { ClipFacts, ClipRow } from "~/modules/payments/clip-split";
import { formatDec } from "~/modules/payments/decimal";
import { checkImportableMonth, checkMapping, importHead, parseImport } from "~/modules/payments/import-parse";
import { type PriceInput, priceImport, type ReferralFacts, referralBonusEntries } from "~/modules/payments/import-price";
import { CSV_MESSAGES, detectFormat } from "~/modules/payments/revenue-csv";
import type { Leaf } from "~/modules/payments/revenue-totals";

const MONTH = "2026-11";

function refusal(fn: () => void): DomainError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("parse", () => {
  const csv = [
    "month,channel_id,creator_id,video_id,net_revenue,currency",
    "2026-11,UCaaa,,v1,10.005,USD",
    "2026-11,UCaaa,,v2,-3.00,USD", // line 3: negative
    "2026-11,UCbbb,,v1,20.004,USD",
    "2026-13,UCbbb,,v2,1.00,USD", // line 5: no such month
    "2026-11,UCaaa,,v1,1.00,USD", // line 6: same channel and video as line 2
    "2026-10,UCbbb,,v3,1.00,USD", // line 7: another month
  ].join("\n");

  it("lists each bad line with its line number and reason, and sums the good rows exactly", () => {
    const head = importHead(csv);
    const format = detectFormat(head.columns);
    expect(format).toBe("shortbeat");
    const parsed = parseImport(csv, { month: MONTH, format: format ?? "shortbeat" });
    expect(parsed.problems).toEqual([
      { line: 3, reason: CSV_MESSAGES.negative },
      { line: 5, reason: CSV_MESSAGES.badPeriod("month") },
      { line: 6, reason: CSV_MESSAGES.duplicate(2) },
      { line: 7, reason: CSV_MESSAGES.otherMonth("month", "2026-10", MONTH) },
    ]);
    expect(parsed.dataRows).toBe(6);
    expect(formatDec(parsed.total)).toBe("30.009");
    expect(parsed.groups.map((g) => [g.channelId, g.videoId, formatDec(g.amount), g.lines])).toEqual([
      ["UCaaa", "v1", "10.005", [2]],
      ["UCbbb", "v1", "20.004", [4]],
    ]);
  });

  it("refuses a file of only a header, and a header with no rows under it", () => {
    const onlyHeader = "month,channel_id,net_revenue,currency\n";
    expect(refusal(() => importHead(onlyHeader)).message).toBe(CSV_MESSAGES.empty);
    const totalsOnly = "month,channel_id,net_revenue,currency\nTotal,,5.00,USD\n";
    expect(refusal(() => parseImport(totalsOnly, { month: MONTH, format: "shortbeat" })).message).toBe(CSV_MESSAGES.empty);
  });

  it("refuses the current month and later ones, and takes the last full month", () => {
    const now = new Date("2026-12-06T10:00:00Z");
    for (const month of ["2026-12", "2027-01"]) {
      const error = refusal(() => checkImportableMonth(month, now));
      expect(error.code).toBe("invalid_input");
      expect(error.fieldErrors.month).toMatch(/is not over yet/);
      expect(error.fieldErrors.month).toMatch(/The last full month is November 2026\./);
    }
    expect(() => checkImportableMonth("2026-11", now)).not.toThrow();
  });

  it("refuses a mapping with no amount column, or one column for two roles", () => {
    const columns = ["Day", "Channel", "Earnings"];
    const noAmount = refusal(() => checkMapping({ period: 0, channel: 1, creator: -1, video: -1, amount: -1, currency: -1 }, columns, ""));
    expect(Object.keys(noAmount.fieldErrors)).toEqual(["amount"]);
    const twice = refusal(() => checkMapping({ period: 0, channel: 1, creator: -1, video: -1, amount: 1, currency: -1 }, columns, ""));
    expect(Object.keys(twice.fieldErrors).sort()).toEqual(["amount", "channel"]);
  });
});

const dec = (text: string) => {
  const [i, f = ""] = text.split(".");
  return { n: BigInt(i + f), s: f.length };
};
const NO_CLIPS: ClipFacts = { clips: [], changes: new Map(), clipperNames: new Map() };
const NO_BONUS: ReferralFacts = { settingBp: 0, referred: [] };
let seq = 0;
const ids = () => `id-${++seq}`;

function price(leaves: Leaf[], over: Partial<PriceInput> = {}) {
  return priceImport(
    { month: MONTH, importId: "imp", leaves, shares: { shareBp: 7000, revised: new Map(), ends: new Map() }, clips: NO_CLIPS, referral: NO_BONUS, ...over },
    ids,
  );
}

describe("price", () => {
  it("rounds the month once, half up, and shares it to the cent; each person's share rounded down", () => {
    // 10.005 + 20.004 = 30.009 → $30.01; Ann's 1000.5 cents has the larger remainder, so the spare cent is hers.
    const priced = price([
      { userId: "ann", sourceId: "UCaaa", videoId: "v1", amount: dec("10.005") },
      { userId: "bob", sourceId: "UCbbb", videoId: "v1", amount: dec("20.004") },
    ]);
    expect(priced.rounded.cents).toEqual([1001, 2000]);
    expect(priced.rounded.totalCents).toBe(3001);
    expect(formatDec(priced.rounded.remainder)).toBe("-0.001");
    expect(priced.entries.map((e) => [e.userId, e.sourceKind, e.netCents, e.shareBp, e.amountCents])).toEqual([
      ["ann", "music", 1001, 7000, 700], // 700.7 → 700
      ["bob", "music", 2000, 7000, 1400],
    ]);
    expect([priced.netCents, priced.amountCents]).toEqual([3001, 2100]);
    expect(priced.videoLines.map((l) => [l.videoId, l.netCents, l.amountCents])).toEqual([
      ["v1", 1001, 700],
      ["v1", 2000, 1400],
    ]);
  });

  it("applies a revised share and stops at the agreement's end, pro rata by days", () => {
    const priced = price(
      [
        { userId: "ann", sourceId: "UCaaa", videoId: "", amount: dec("30.00") },
        { userId: "bob", sourceId: "UCbbb", videoId: "", amount: dec("10.00") },
        { userId: "cy", sourceId: "UCccc", videoId: "", amount: dec("5.00") },
      ],
      {
        shares: {
          shareBp: 7000,
          revised: new Map([["ann", 8000]]),
          ends: new Map([
            ["bob", "2026-11-10"],
            ["cy", "2026-10-31"],
          ]),
        },
      },
    );
    expect(priced.entries.map((e) => [e.userId, e.netCents, e.shareBp, e.amountCents, e.note])).toEqual([
      ["ann", 3000, 8000, 2400, null],
      ["bob", 333, 7000, 233, "10 of 30 days, to the agreement's end on 2026-11-10"], // 1000 × 10/30 = 333.3
    ]);
    expect(priced.notCredited).toBe(1);
    expect(priced.ended).toEqual([{ userId: "cy", sourceKind: "music", sourceId: "UCccc", netCents: 500, amountCents: 0, credited: false }]);
    expect(priced.videoLines).toEqual([]);
  });

  it("splits a clip's revenue 70/30 between clipper and creator out of the creator's share", () => {
    const clip: ClipRow = { clipId: "clip1", videoId: "vclip", url: "https://youtu.be/vclip", creatorUserId: "ann", clipperUserId: "kim", linkId: null };
    const priced = price([{ userId: "ann", sourceId: "UCaaa", videoId: "vclip", amount: dec("100.00") }], {
      clips: { clips: [clip], changes: new Map(), clipperNames: new Map([["kim", { fullName: "Kim", email: "kim@example.com" }]]) },
    });
    // $100 of clip revenue; the creator's share is $70.00, of which the clipper takes 70% ($49.00) and the creator 30% ($21.00).
    expect(priced.entries.map((e) => [e.userId, e.sourceKind, e.sourceId, e.netCents, e.amountCents, e.note])).toEqual([
      ["kim", "clip", "clip1", 7000, 4900, "https://youtu.be/vclip: 70% of the creator's share $70.00"],
      ["ann", "clip", "clip1", 3000, 2100, "https://youtu.be/vclip by Kim: $49.00 to the clipper (70%) of your share $70.00"],
    ]);
    expect([priced.netCents, priced.amountCents]).toEqual([10000, 7000]);
  });

  it("adds one referral bonus per referrer from the platform's side, capped by the platform's part", () => {
    const leaves: Leaf[] = [
      { userId: "ann", sourceId: "UCaaa", videoId: "", amount: dec("100.00") },
      { userId: "bob", sourceId: "UCbbb", videoId: "", amount: dec("50.00") },
      { userId: "cy", sourceId: "UCccc", videoId: "", amount: dec("80.00") },
    ];
    const referred = [
      { userId: "ann", referrerId: "rex", channelLinkedAt: "2026-03-15T00:00:00.000Z", referrerBanned: 0 },
      { userId: "bob", referrerId: "rex", channelLinkedAt: "2026-06-01T00:00:00.000Z", referrerBanned: 0 },
      // Cy's term began 13 months before: out of the bonus's 12 months.
      { userId: "cy", referrerId: "rex", channelLinkedAt: "2025-10-01T00:00:00.000Z", referrerBanned: 0 },
    ];
    const priced = price(leaves, { referral: { settingBp: 1000, referred } });
    const bonus = priced.entries.filter((e) => e.sourceKind === "referral");
    expect(bonus.map((e) => [e.userId, e.sourceId, e.netCents, e.shareBp, e.amountCents])).toEqual([["rex", "", 15000, 1000, 1500]]);
    // The referral bonus is not part of the import's net and amount (the creators' own 70% untouched).
    expect([priced.netCents, priced.amountCents]).toEqual([23000, 16100]);

    // A 50% setting is capped at the platform's 30%.
    const capped = referralBonusEntries(priced.entries.slice(0, 3), MONTH, "imp", { settingBp: 5000, referred }, ids);
    expect(capped.map((e) => [e.shareBp, e.amountCents])).toEqual([[3000, 4500]]);
    // A banned referrer earns nothing new.
    const banned = referred.map((r) => ({ ...r, referrerBanned: 1 }));
    expect(referralBonusEntries(priced.entries.slice(0, 3), MONTH, "imp", { settingBp: 1000, referred: banned }, ids)).toEqual([]);
  });
});
