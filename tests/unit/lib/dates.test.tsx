import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatDay, formatTime, isTimeZone, timeZoneFromCookie } from "~/lib/dates";
import { LocalTime } from "~/ui/local-time";
import { TimeZoneProvider } from "~/ui/time-zone";

// Issue 42 §4 (docs/decisions/0314): one date style, in the person's time zone, the same text on the
// server as in the browser.

const iso = "2031-10-20T03:17:00.000Z";

describe("dates in one style", () => {
  it("writes an instant as '20 Oct 2031' and '20 Oct 2031, 03:17', in the zone asked for", () => {
    expect(formatDate(iso)).toBe("20 Oct 2031");
    expect(formatDateTime(iso)).toBe("20 Oct 2031, 03:17");
    expect(formatDate(iso, "America/Los_Angeles")).toBe("19 Oct 2031");
    expect(formatDateTime(iso, "America/Los_Angeles")).toBe("19 Oct 2031, 20:17");
    expect(formatDateTime(iso, "Asia/Kolkata")).toBe("20 Oct 2031, 08:47");
    expect(formatTime(iso, "Europe/Berlin")).toBe("05:17");
  });

  it("says 'Sep', never 'Sept', whatever the runtime's ICU says, and days stay days", () => {
    expect(formatDate("2026-09-24T12:00:00Z")).toBe("24 Sep 2026");
    expect(formatDay("2026-10-14")).toBe("14 Oct 2026");
    expect(formatDay("2026-09-01")).toBe("1 Sep 2026");
  });

  it("writes '—' for no date or a bad one, and falls back to UTC for an unknown zone", () => {
    expect(formatDate(null)).toBe("—");
    expect(formatDateTime("not a date")).toBe("—");
    expect(formatDay("yesterday")).toBe("—");
    expect(formatDate(iso, "Mars/Olympus")).toBe("20 Oct 2031");
  });
});

describe("the person's zone from the tz cookie", () => {
  it("takes a zone Intl knows and nothing else", () => {
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("<script>")).toBe(false);
    expect(timeZoneFromCookie("a=1; tz=America%2FNew_York; b=2")).toBe("America/New_York");
    expect(timeZoneFromCookie("tz=Nowhere%2FLand")).toBe("UTC");
    expect(timeZoneFromCookie(null)).toBe("UTC");
  });

  it("is what the server's HTML writes, so the browser's first render is the same text (no flash)", () => {
    const html = renderToString(
      <TimeZoneProvider zone="America/Los_Angeles">
        <LocalTime iso={iso} withTime />
      </TimeZoneProvider>,
    );
    expect(html).toContain(">19 Oct 2031, 20:17</time>");
    expect(html).toContain('title="20 Oct 2031, 03:17 UTC"');
  });
});
