import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatTime } from "~/lib/dates";
import { monthLabel } from "~/modules/payments/calendar";

// /payments at 100,000 creators (issue 45 §3, docs/performance.md): UTC dates and month labels are
// written without an Intl formatter now. They must read exactly as Intl's en-GB output did.

const intlParts = new Intl.DateTimeFormat("en-GB", {
  timeZone: "UTC",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});
const SHORT = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const intlMonth = new Intl.DateTimeFormat("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });

describe("UTC dates without a formatter", () => {
  it("formatDate, formatDateTime and formatTime in UTC read as Intl's en-GB parts", () => {
    for (let i = 0; i < 2_000; i++) {
      const d = new Date(Date.UTC(1995, 0, 1) + (Math.floor(i * 7_919_113.7 * 60_000) % (50 * 365 * 86_400_000)));
      const p = Object.fromEntries(intlParts.formatToParts(d).map((x) => [x.type, x.value]));
      const iso = d.toISOString();
      p.month = SHORT[Number(p.month) - 1] ?? "";
      expect(formatDate(iso)).toBe(`${Number(p.day)} ${p.month} ${p.year}`);
      expect(formatDateTime(iso, "UTC")).toBe(`${Number(p.day)} ${p.month} ${p.year}, ${p.hour}:${p.minute}`);
      expect(formatTime(iso)).toBe(`${p.hour}:${p.minute}`);
    }
  });

  it("monthLabel reads as Intl's en-GB long month and year, and refuses a month that is not one", () => {
    for (let y = 1990; y <= 2040; y++) {
      for (let m = 1; m <= 12; m++) {
        const month = `${y}-${String(m).padStart(2, "0")}`;
        expect(monthLabel(month)).toBe(intlMonth.format(new Date(Date.UTC(y, m - 1, 1))));
      }
    }
    expect(() => monthLabel("nonsense")).toThrow(RangeError);
  });
});
