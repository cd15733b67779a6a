import { Download as DownloadShape } from "lucide";
import { FileBadge } from "~/ui/icons";
import { iconHtml } from "./markup";
import { useEffect, useRef, useState } from "react";
import { Button } from "~/ui/button";
import { Dialog, DialogClose, DialogContent } from "~/ui/dialog";
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

/**
 * The trigger's inside (icon and words), idle and busy: constants given to React whole, one chunk instead
 * of three elements (docs/decisions/0354). The button itself, its state and its names stay React's.
 */
const TRIGGER = {
  idle: { __html: `${iconHtml(DownloadShape, "h-4 w-4 ")}<span class="hidden sm:inline">Use</span><span class="hidden xl:inline"> this track</span>` },
  busy: {
    __html: `${iconHtml(DownloadShape, "h-4 w-4 animate-pulse motion-reduce:animate-none")}<span class="hidden sm:inline">Preparing…</span><span class="hidden xl:inline"></span>`,
  },
};

/** A channel the creator may license a track for ("youtube:<id>" / "manual:<id>" and its title). */
export type ChannelChoice = { value: string; title: string };

export function UseTrackButton({ track, channels = [] }: { track: { id: string; title: string; artist: string }; channels?: readonly ChannelChoice[] }) {
  const fetcher = useFetcher<UseTrackResult>();
  const busy = fetcher.state !== "idle";
  const data = fetcher.data;
  const handled = useRef<unknown>(null);
  // With more than one channel the creator picks which ones the licence covers (decision 0248).
  const [picking, setPicking] = useState(false);
  const [pickError, setPickError] = useState<string | null>(null);
  const trigger = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!data || handled.current === data || fetcher.state !== "idle") return;
    handled.current = data;
    if (isUseTrackSuccess(data)) {
      setPicking(false);
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

  const triggerButton = (type: "submit" | "button", dialog?: { open: boolean; onOpen: () => void }) => (
    <button
      ref={trigger}
      type={type}
      disabled={busy}
      onClick={dialog?.onOpen}
      aria-haspopup={dialog ? "dialog" : undefined}
      aria-expanded={dialog ? dialog.open : undefined}
      aria-label={`Use this track: ${track.title} by ${track.artist}`}
      title="Use this track: get a licence and download the file"
      className="inline-flex h-10 w-10 shrink-0 items-center justify-center gap-1.5 rounded-full bg-slate-900 text-sm font-semibold text-white hover:bg-slate-700 disabled:opacity-60 sm:w-auto sm:px-4"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: constant markup (TRIGGER, 0354)
      dangerouslySetInnerHTML={busy ? TRIGGER.busy : TRIGGER.idle}
    />
  );

  return (
    <div className="relative flex flex-col items-end gap-1">
      {channels.length > 1 ? (
        // The dialog is mounted only while it is open: a closed one on each of the page's rows was a
        // tenth of /music's CPU time per request (docs/decisions/0281). Without a Radix trigger, the
        // button says what it opens, and focus goes back to it when the dialog closes.
        triggerButton("button", { open: picking, onOpen: () => setPicking(true) })
      ) : (
        <fetcher.Form method="post" action={USE_TRACK_ACTION}>
          <input type="hidden" name="intent" value="use" />
          <input type="hidden" name="trackId" value={track.id} />
          {channels.length === 1 && channels[0] ? <input type="hidden" name="channels" value={channels[0].value} /> : null}
          {triggerButton("submit")}
        </fetcher.Form>
      )}
      {picking ? (
        <Dialog open onOpenChange={setPicking}>
          <DialogContent
            title={`Use “${track.title}”`}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              trigger.current?.focus();
            }}
          >
            <fetcher.Form
              method="post"
              action={USE_TRACK_ACTION}
              className="mt-3 space-y-4"
              onSubmit={(e) => {
                const picked = new FormData(e.currentTarget).getAll("channels");
                if (picked.length === 0) {
                  e.preventDefault();
                  setPickError("Choose at least one channel.");
                }
              }}
            >
              <input type="hidden" name="intent" value="use" />
              <input type="hidden" name="trackId" value={track.id} />
              <fieldset aria-describedby={pickError ? `pick-error-${track.id}` : undefined}>
                <legend className="text-sm font-medium text-slate-900">Channels this licence covers</legend>
                <div className="mt-2 space-y-2">
                  {channels.map((c) => (
                    <label key={c.value} className="flex items-center gap-2 text-sm text-slate-800">
                      <input type="checkbox" name="channels" value={c.value} defaultChecked onChange={() => setPickError(null)} className="h-4 w-4" />
                      {c.title}
                    </label>
                  ))}
                </div>
              </fieldset>
              {pickError ? (
                <p id={`pick-error-${track.id}`} role="alert" className="text-sm text-red-700">
                  {pickError}
                </p>
              ) : null}
              <p className="text-sm text-slate-600">The licence and its certificate name these channels. You can add a channel later; none is ever removed.</p>
              <div className="flex flex-wrap justify-end gap-2">
                <DialogClose asChild>
                  <Button type="button" variant="secondary">
                    Cancel
                  </Button>
                </DialogClose>
                <Button type="submit" variant="primary" disabled={busy}>
                  {busy ? "Preparing…" : "Get licence and download"}
                </Button>
              </div>
            </fetcher.Form>
          </DialogContent>
        </Dialog>
      ) : null}
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
