/** The current page's URL with some query parameters changed (null, undefined or "" removes one). */
export function hrefWith(pathname: string, search: string, changes: Record<string, string | number | null | undefined>): string {
  const params = new URLSearchParams(search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === undefined || v === "") params.delete(k);
    else params.set(k, String(v));
  }
  const qs = params.toString();
  return qs ? `${pathname}?${qs}` : pathname;
}
