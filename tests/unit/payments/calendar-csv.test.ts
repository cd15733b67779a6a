// The payout calendar ("on or around the 18th": the next business day after a weekend), money
// parsing, and the revenue CSV checks (issue 14).
import { describe, expect, it } from "vitest";
import { addMonths, nextPayoutDate, payoutDateIn, payoutRunDue } from "~/modules/payments/calendar";
import { formatCents, parseDecimalCents } from "~/modules/payments/money";
import { CSV_MESSAGES, parseRevenueCsv } from "~/modules/payments/revenue-csv";

describe("the payout calendar", () => {
  it("pays on the day, or the Monday after a weekend", () => {
    expect(payoutDateIn("2025-09", 18)).toBe("2025-09-18"); // Thursday
    expect(payoutDateIn("2025-10", 18)).toBe("2025-10-20"); // Saturday → Monday
    expect(payoutDateIn("2026-01", 18)).toBe("2026-01-19"); // Sunday → Monday
    expect(payoutDateIn("2025-10", 1)).toBe("2025-10-01");
  });

  it("finds the next payout date and the run that is due", () => {
    expect(nextPayoutDate(new Date("2025-10-05T12:00:00Z"), 18)).toBe("2025-10-20");
    expect(nextPayoutDate(new Date("2025-10-20T23:00:00Z"), 18)).toBe("2025-10-20");
    expect(nextPayoutDate(new Date("2025-10-21T00:00:00Z"), 18)).toBe("2025-11-18");
    expect(nextPayoutDate(new Date("2025-12-25T00:00:00Z"), 18)).toBe("2026-01-19");
    expect(payoutRunDue(new Date("2025-10-18T03:17:00Z"), 18)).toBeNull(); // Saturday: not yet
    expect(payoutRunDue(new Date("2025-10-20T03:17:00Z"), 18)).toBe("2025-10");
    expect(payoutRunDue(new Date("2025-10-28T03:17:00Z"), 18)).toBe("2025-10");
    expect(addMonths("2025-12", 1)).toBe("2026-01");
    expect(addMonths("2026-01", -1)).toBe("2025-12");
  });
});

describe("money", () => {
  it("reads exactly two decimals and nothing else", () => {
    expect(parseDecimalCents("12.34")).toBe(1234);
    expect(parseDecimalCents("0.07")).toBe(7);
    for (const bad of ["12.3", "12", "1,234.00", "$12.00", "12.345", "abc", "", "1e3", "-1.00"]) expect(parseDecimalCents(bad)).toBeNull();
    expect(formatCents(123456)).toBe("$1,234.56");
    expect(formatCents(-5)).toBe("-$0.05");
  });
});

describe("the revenue CSV", () => {
  const header = "month,channel_id,creator_id,video_id,net_revenue,currency";

  it("reads quoted fields, a BOM and CRLF line ends", () => {
    const csv = `\uFEFF${header}\r\n2025-09,"UCabc",,,"1234.56",usd\r\n2025-09,,casey123,,0.99,USD\r\n`;
    const { rows, problems } = parseRevenueCsv(csv, "2025-09");
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      { line: 2, channelId: "UCabc", creatorId: null, videoId: null, netCents: 123456 },
      { line: 3, channelId: null, creatorId: "CASEY123", videoId: null, netCents: 99 },
    ]);
  });

  it("reports negative, malformed, wrong-currency, other-month and duplicate rows by line", () => {
    const csv = [
      header,
      "2025-09,UC1,,,-5.00,USD",
      "2025-09,UC2,,,5,USD",
      "2025-09,UC3,,,5.00,EUR",
      "2025-08,UC4,,,5.00,USD",
      "2025-09,,,,5.00,USD",
      "2025-09,UC5,,v1,5.00,USD",
      "2025-09,UC5,,v1,6.00,USD",
      "",
      "2025-09,UC6,,,7.00,USD",
    ].join("\n");
    const { rows, problems } = parseRevenueCsv(csv, "2025-09");
    expect(problems).toEqual([
      { line: 2, reason: CSV_MESSAGES.negative },
      { line: 3, reason: CSV_MESSAGES.badAmount },
      { line: 4, reason: CSV_MESSAGES.currency("EUR") },
      { line: 5, reason: CSV_MESSAGES.otherMonth("2025-08", "2025-09") },
      { line: 6, reason: CSV_MESSAGES.noPerson },
      { line: 8, reason: CSV_MESSAGES.duplicate(7) },
    ]);
    expect(rows.map((r) => r.line)).toEqual([7, 10]);
  });

  it("needs its columns and at least one row", () => {
    expect(parseRevenueCsv("month,net_revenue\n2025-09,1.00", "2025-09").problems[0].reason).toContain("currency");
    expect(parseRevenueCsv(`${header}\n`, "2025-09").problems).toEqual([{ line: 2, reason: CSV_MESSAGES.empty }]);
  });
});
