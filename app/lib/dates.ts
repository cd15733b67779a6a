// Dates as the screens show them: one style everywhere ("6 Dec 2026", "6 Dec 2026, 14:05"), in the
// person's time zone, the same text on the server and in the browser (issue 42 §4,
// docs/decisions/0314). The zone comes from the `tz` cookie the browser sets (app/ui/time-zone.tsx),
// checked against Intl's list; UTC until it is known. Month names are ours, not the runtime's: ICU
// versions disagree ("Sep" or "Sept"), and the server's text must be the browser's. CSV exports and
// machine-readable values keep ISO dates.

export const TIME_ZONE_COOKIE = "tz";
export const DEFAULT_TIME_ZONE = "UTC";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

let knownZones: Set<string> | null = null;

/** Whether `zone` is an IANA time zone this runtime knows ("Europe/Berlin", "UTC"). */
export function isTimeZone(zone: string | null | undefined): zone is string {
  if (!zone || zone.length > 64) return false;
  if (zone === "UTC") return true;
  if (!knownZones) {
    const list = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
    knownZones = new Set(list);
  }
  if (knownZones.has(zone)) return true;
  // Aliases (e.g. "Europe/Kiev") are valid zones that the canonical list leaves out.
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: zone });
    return /^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+)*$/.test(zone);
  } catch {
    return false;
  }
}

/** The zone a `Cookie` header names, else UTC. */
export function timeZoneFromCookie(cookieHeader: string | null): string {
  const match = cookieHeader ? /(?:^|;\s*)tz=([^;]*)/.exec(cookieHeader) : null;
  const zone = match ? decodeURIComponent(match[1] ?? "") : null;
  return isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE;
}

const partFormats = new Map<string, Intl.DateTimeFormat>();
/** year, month, day, hour, minute of `d` in `timeZone` (one formatter per zone, made on first use). */
function partsIn(d: Date, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number } {
  // UTC (everyone without a zone cookie, and every admin list) needs no formatter: formatToParts
  // was 1.9 % of /payments' Worker time at 100,000 creators (docs/performance.md).
  if (timeZone === "UTC")
    return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes() };
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      hourCycle: "h23",
    });
    partFormats.set(timeZone, format);
  }
  const out = { year: 0, month: 0, day: 0, hour: 0, minute: 0 };
  for (const p of format.formatToParts(d)) {
    if (p.type === "year" || p.type === "month" || p.type === "day" || p.type === "hour" || p.type === "minute") out[p.type] = Number(p.value);
  }
  return out;
}

function instant(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

const zoneOrUtc = (timeZone: string | undefined) => (isTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE);

/** "6 Dec 2026" for an instant, in `timeZone` (UTC when not given), or "—". */
export function formatDate(iso: string | null | undefined, timeZone?: string): string {
  const d = instant(iso);
  if (!d) return "—";
  const p = partsIn(d, zoneOrUtc(timeZone));
  return `${p.day} ${MONTHS[p.month - 1]} ${p.year}`;
}

/** "6 Dec 2026, 14:05" for an instant, in `timeZone` (UTC when not given), or "—". */
export function formatDateTime(iso: string | null | undefined, timeZone?: string): string {
  const d = instant(iso);
  if (!d) return "—";
  const p = partsIn(d, zoneOrUtc(timeZone));
  return `${p.day} ${MONTHS[p.month - 1]} ${p.year}, ${String(p.hour).padStart(2, "0")}:${String(p.minute).padStart(2, "0")}`;
}

/** "14:05" for an instant in `timeZone`, or "—" (chat lines, today's notifications). */
export function formatTime(iso: string | null | undefined, timeZone?: string): string {
  const d = instant(iso);
  if (!d) return "—";
  const p = partsIn(d, zoneOrUtc(timeZone));
  return `${String(p.hour).padStart(2, "0")}:${String(p.minute).padStart(2, "0")}`;
}

/** "6 Dec 2026" for a calendar day ("2026-12-06"): a day, not an instant, so never shifted. */
export function formatDay(day: string | null | undefined): string {
  const m = day ? /^(\d{4})-(\d{2})-(\d{2})/.exec(day) : null;
  if (!m) return "—";
  return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1]} ${m[1]}`;
}
