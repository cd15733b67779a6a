import { Download, FileBadge } from "~/ui/icons";
import { useEffect, useRef } from "react";
import { Link, useFetcher } from "react-router";
import { type ActionFailure, isActionFailure } from "~/lib/errors";
import { toast } from "~/ui/toaster";
import { type LicenceSummary, licenceCertificatePath } from "../licence-code";

// 'Use this track' on a library row: posts intent=use to /music/licences (the licence is recorded
// once per creator and track; a second click answers the same licence), then the browser downloads
// the file from the licence's download address. Without JavaScript the form posts as a page and
// /music/licences shows the licence with its download link. 'Link a channel first' comes with a
// link to /channels. docs/decisions/0116.

/** What the /music/licences action answers to intent=use. */
export type UseTrackResult = { ok: true; licence: LicenceSummary; created: boolean; downloadUrl: string } | ActionFailure;

export const USE_TRACK_ACTION = "/music/licences";

export function isUseTrackSuccess(value: unknown): value is Extract<UseTrackResult, { ok: true }> {
  return typeof value === "object" && value !== null && (value as { ok?: unknown }).ok === true && "licence" in value;
}

/** Starts the download of a licensed file (an attachment: the page stays where it is). */
function startDownload(url: string) {
  const a = document.createElement("a");
  a.href = url;
  a.download = "";
  a.rel = "noopener";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export function UseTrackButton({ track }: { track: { id: string; title: string; artist: string } }) {
  const fetcher = useFetcher<UseTrackResult>();
  const busy = fetcher.state !== "idle";
  const data = fetcher.data;
  const handled = useRef<unknown>(null);

  useEffect(() => {
    if (!data || handled.current === data || fetcher.state !== "idle") return;
    handled.current = data;
    if (isUseTrackSuccess(data)) {
      startDownload(data.downloadUrl);
      toast.success(data.created ? "Licence recorded" : "You already have this licence", {
        description: `${data.licence.code}: your download of “${track.title}” is starting.`,
      });
    } else if (isActionFailure(data)) {
      toast.error(data.toast.title, { description: data.toast.description });
    }
  }, [data, fetcher.state, track.title]);

  const failure = isActionFailure(data) ? data : null;
  const success = isUseTrackSuccess(data) ? data : null;
  const channelLink = typeof failure?.details?.link === "string" ? failure.details.link : null;

  return (
    <div className="relative flex flex-col items-end gap-1">
      <fetcher.Form method="post" action={USE_TRACK_ACTION}>
        <input type="hidden" name="intent" value="use" />
        <input type="hidden" name="trackId" value={track.id} />
        <button
          type="submit"
          disabled={busy}
          aria-label={`Use this track: ${track.title} by ${track.artist}`}
          title="Use this track: get a licence and download the file"
          className="inline-flex h-10 w-10 shrink-0 items-center justify-center gap-1.5 rounded-full bg-slate-900 text-sm font-semibold text-white hover:bg-slate-700 disabled:opacity-60 sm:w-auto sm:px-4"
        >
          <Download className={`h-4 w-4 ${busy ? "animate-pulse motion-reduce:animate-none" : ""}`} aria-hidden="true" />
          <span className="hidden sm:inline">{busy ? "Preparing…" : "Use"}</span>
          <span className="hidden xl:inline">{busy ? "" : " this track"}</span>
        </button>
      </fetcher.Form>
      {channelLink ? (
        <p
          role="alert"
          className="absolute top-full right-0 z-10 mt-1 w-44 rounded-md border border-red-200 bg-white p-2 text-left text-xs text-red-800 shadow-md"
        >
          <Link to={channelLink} className="font-semibold underline underline-offset-2">
            {failure?.toast.title ?? "Link a channel first"}
          </Link>{" "}
          to use tracks.
        </p>
      ) : null}
      {success ? (
        <Link
          to={licenceCertificatePath(success.licence.code)}
          className="inline-flex items-center gap-1 text-xs font-medium text-slate-700 underline underline-offset-2 hover:text-slate-900"
        >
          <FileBadge className="h-3.5 w-3.5" aria-hidden="true" />
          <span className="sr-only sm:not-sr-only">Certificate</span>
          <span className="sr-only"> of {track.title}</span>
        </Link>
      ) : null}
    </div>
  );
}

/** The library header's way to 'My licences'. */
export function MyLicencesLink() {
  return (
    <Link
      to={USE_TRACK_ACTION}
      className="inline-flex h-10 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-100"
    >
      <FileBadge className="h-4 w-4" aria-hidden="true" />
      My licences
    </Link>
  );
}
