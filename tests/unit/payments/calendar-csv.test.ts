// The payout calendar ("on or around the 18th": the next business day after a weekend) and money
// formatting (issue 14). The revenue files: revenue-files.test.ts.
import { describe, expect, it } from "vitest";
import { addMonths, nextPayoutDate, payoutDateIn, payoutRunDue } from "~/modules/payments/calendar";
import { formatCents } from "~/modules/payments/money";

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
  it("formats cents", () => {
    expect(formatCents(123456)).toBe("$1,234.56");
    expect(formatCents(-5)).toBe("-$0.05");
  });
});
