import { formatDate, formatDateTime } from "~/lib/dates";
import { useTimeZone } from "~/ui/time-zone";

// An instant shown in the person's time zone ("Dates are kept in UTC and shown in the viewer's time
// zone"). The zone is known to the server (the `tz` cookie, app/ui/time-zone.tsx), so the server's
// HTML and the hydrated page write the same text: no flash from "2026-12-06" to "6 Dec 2026"
// (issue 42 §4, docs/decisions/0314, replacing 0125's UTC-then-local switch). Days that are days (a
// payout date) and months are not instants: show them with formatDay, never shifted.

/** `<time>` for an instant in the person's zone; the UTC text as its title. */
export function LocalTime({ iso, withTime = false, className }: { iso: string | null | undefined; withTime?: boolean; className?: string }) {
  const zone = useTimeZone();
  if (!iso) return <span className={className}>—</span>;
  const text = withTime ? formatDateTime(iso, zone) : formatDate(iso, zone);
  return (
    <time dateTime={iso} title={`${formatDateTime(iso)} UTC`} className={className}>
      {text}
    </time>
  );
}
