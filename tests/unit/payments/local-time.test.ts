import { describe, expect, it } from "vitest";
import { formatPayoutDay } from "~/modules/payments/calendar";
import { formatInZone, formatUtc } from "~/ui/local-time";

// Money instants in the viewer's zone; payout days are days (docs/decisions/0125).
describe("money dates", () => {
  const iso = "2031-10-20T03:17:00.000Z";

  it("shows an instant in the viewer's zone, which can be another day than UTC", () => {
    expect(formatInZone(iso, { timeZone: "UTC" })).toBe("20 Oct 2031");
    expect(formatInZone(iso, { timeZone: "America/Los_Angeles" })).toBe("19 Oct 2031");
    expect(formatInZone(iso, { withTime: true, timeZone: "America/Los_Angeles" })).toMatch(/^19 Oct 2031, 20:17 (PDT|GMT-7)$/);
    expect(formatInZone(iso, { withTime: true, timeZone: "Asia/Kolkata" })).toMatch(/^20 Oct 2031, 08:47 (IST|GMT\+5:30)$/);
  });

  it("renders the server's UTC text before hydration, and a dash for nothing", () => {
    expect(formatUtc(iso)).toBe("2031-10-20");
    expect(formatUtc(iso, true)).toBe("2031-10-20 03:17 UTC");
    expect(formatInZone(null)).toBe("—");
    expect(formatInZone("not a date")).toBe("—");
  });

  it("keeps a payout day the same day in every zone", () => {
    expect(formatPayoutDay("2031-10-20")).toBe("Mon, 20 Oct 2031");
    expect(formatPayoutDay("nope")).toBe("—");
  });
});
