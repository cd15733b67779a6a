/**
 * Where an action sends the browser back to: the page it was posted from (also for `.data`
 * requests), with some query parameters changed (null or "" removes one).
 */
export function pageUrl(request: Request, changes: Record<string, string | null> = {}): string {
  const url = new URL(request.url);
  const pathname = url.pathname.replace(/\.data$/, "").replace(/\/_root$/, "/") || "/";
  const params = new URLSearchParams(url.search);
  params.delete("_routes");
  params.delete("index");
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === "") params.delete(k);
    else params.set(k, v);
  }
  const qs = params.toString();
  return qs ? `${pathname}?${qs}` : pathname;
}
