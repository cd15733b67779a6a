import { createContext, type ReactNode, useContext, useEffect, useState } from "react";
import { DEFAULT_TIME_ZONE, TIME_ZONE_COOKIE, isTimeZone } from "~/lib/dates";

// The person's time zone, known to the server (docs/decisions/0314): the root loader reads the `tz`
// cookie, so the server's HTML and the browser's first render write the same dates (no flash of
// UTC, no hydration mismatch). The browser sets the cookie from its own zone; on the very first
// visit, before the cookie exists, the dates switch once from UTC to the person's zone.

const TimeZoneContext = createContext<string>(DEFAULT_TIME_ZONE);

/** Max-Age of the `tz` cookie: a year, renewed whenever the zone changes. */
const COOKIE_MAX_AGE_S = 365 * 24 * 3600;

export function TimeZoneProvider({ zone, children }: { zone: string; children: ReactNode }) {
  const [current, setCurrent] = useState(zone);
  useEffect(() => {
    const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!isTimeZone(browser) || browser === zone) return;
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser we support
    document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(browser)}; path=/; max-age=${COOKIE_MAX_AGE_S}; samesite=lax`;
    setCurrent(browser);
  }, [zone]);
  return <TimeZoneContext.Provider value={current}>{children}</TimeZoneContext.Provider>;
}

/** The time zone dates are shown in (UTC outside a TimeZoneProvider). */
export function useTimeZone(): string {
  return useContext(TimeZoneContext);
}
