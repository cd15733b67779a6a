import { formatDate, formatDateTime } from "~/lib/dates";

// Money instants (paid at, imported at, funds received, finalized) in the viewer's time zone
// (issue 14: "Dates are kept in UTC and shown in the viewer's time zone"). Client-safe.
// The server renders UTC (app/lib/dates.ts) so the first paint matches everywhere; once hydrated,
// the browser shows its own zone. Payout dates are days of the payout calendar and months are
// months: neither is shifted (docs/decisions/0125-money-dates-in-the-viewer-zone.md).

/** "20 Oct 2031" or "20 Oct 2031, 05:17 CEST" in `timeZone` (the browser's when undefined); "—" when not a date. */
export function formatInZone(iso: string | null | undefined, opts: { withTime?: boolean; timeZone?: string } = {}): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "—";
  return new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    ...(opts.withTime ? { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" } : {}),
    timeZone: opts.timeZone,
  }).format(d);
}

/** The server's (UTC) text for the same instant. */
export function formatUtc(iso: string | null | undefined, withTime = false): string {
  return withTime ? formatDateTime(iso) : formatDate(iso);
}

/** A payout-calendar day (YYYY-MM-DD) as "Mon 20 Oct 2031": a day, the same in every zone. */
export function formatPayoutDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return "—";
  return new Intl.DateTimeFormat("en-GB", { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(d);
}
