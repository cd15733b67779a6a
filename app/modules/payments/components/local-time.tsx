import { useEffect, useState } from "react";
import { formatInZone, formatUtc } from "../local-time";

// An instant shown in the viewer's time zone: UTC on the server and before hydration (the same
// text as app/lib/dates.ts elsewhere), the browser's zone after. docs/decisions/0125.

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

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
