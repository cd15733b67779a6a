import { useEffect, useState } from "react";
import { formatDate, formatDateTime } from "~/lib/dates";

// An instant shown in the viewer's time zone ("Dates are kept in UTC and shown in the viewer's time
// zone"). The server and the first paint show UTC (the same text as app/lib/dates.ts elsewhere), so
// hydration matches everywhere; once hydrated, the browser shows its own zone.
// docs/decisions/0125-money-dates-in-the-viewer-zone.md. Days that are days (a payout date) and
// months are not instants: show them with their own formatter, never shifted.

/** "20 Oct 2031" or "20 Oct 2031, 05:17 CEST" in `timeZone` (the browser's when undefined); "—" when not a date. */
export function formatInZone(iso: string | null | undefined, opts: { withTime?: boolean; timeZone?: string } = {}): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "—";
  return dateFormat(opts.withTime === true, opts.timeZone).format(d);
}

/** One formatter per (with time, zone), made on first use: a new Intl object per date was measurable on list pages. */
const formats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(withTime: boolean, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${withTime}|${timeZone ?? ""}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "short",
      year: "numeric",
      ...(withTime ? { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" } : {}),
      timeZone,
    });
    formats.set(key, format);
  }
  return format;
}

/** The server's (UTC) text for the same instant. */
export function formatUtc(iso: string | null | undefined, withTime = false): string {
  return withTime ? formatDateTime(iso) : formatDate(iso);
}

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** `<time>` for an instant: UTC before hydration, the viewer's zone after; the UTC text as its title. */
export function LocalTime({ iso, withTime = false, className }: { iso: string | null | undefined; withTime?: boolean; className?: string }) {
  const hydrated = useHydrated();
  if (!iso) return <span className={className}>—</span>;
  const utc = formatUtc(iso, withTime);
  return (
    <time dateTime={iso} title={utc} className={className} suppressHydrationWarning>
      {hydrated ? formatInZone(iso, { withTime }) : utc}
    </time>
  );
}
