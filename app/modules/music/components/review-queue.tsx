import { Form, Link, useNavigation } from "react-router";
import { formatDate, formatDateTime } from "~/lib/dates";
import { Badge } from "~/ui/badge";
import { buttonClass } from "~/ui/button";
import { ConfirmDialog } from "~/ui/confirm-dialog";
import { inputClass } from "~/ui/field";
import { coverPath, type LibraryRow, type TrackEvent, type TrackHistory, trackFactsLine } from "../library";
import { NOTE_MAX, TRACK_STATUS_LABELS } from "../messages";
import { PlayButton } from "./play-button";
import { SubmissionHistory } from "./submission-history";
import { Waveform } from "./waveform";

// The admin's music review (/admin/music): a card per track in review with its cover, waveform
// and a play button (the shell's player; the audio route lets admins play tracks in review), and
// approve / reject links that open the confirm step as a page state (?review=<id>&decision=…),
// so it works without JavaScript. Published tracks can be withdrawn the same way.

/** A library row with its history, the partner and the reviewer (review.server.ts reviewQueue). */
export type ReviewTrackView = LibraryRow &
  TrackHistory & {
    partnerName: string | null;
    partnerEmail: string | null;
    reviewedByEmail: string | null;
    /** Earlier rounds of a resubmitted track (the queue's tracks only). */
    history?: TrackEvent[];
  };

export type Decision = "approve" | "reject" | "withdraw";

const ACTION_PATH = "/admin/music";

function Cover({ track }: { track: ReviewTrackView }) {
  return track.coverKey ? (
    <img src={coverPath(track.id)} alt="" width={64} height={64} loading="lazy" className="h-16 w-16 shrink-0 rounded-md bg-slate-100 object-cover" />
  ) : (
    <div className="h-16 w-16 shrink-0 rounded-md bg-slate-100" aria-hidden="true" />
  );
}

function Facts({ track }: { track: ReviewTrackView }) {
  return (
    <>
      <p className="text-sm text-slate-700">
        {track.artist} · {trackFactsLine(track, true)}
      </p>
      {track.tags ? <p className="mt-0.5 text-xs text-slate-600">Tags: {track.tags.split(" ").join(", ")}</p> : null}
      <p className="mt-0.5 text-xs text-slate-600">
        {track.partnerName || "Unknown partner"}
        {track.partnerEmail ? ` · ${track.partnerEmail}` : ""} · sent {formatDateTime(track.createdAt)}
      </p>
    </>
  );
}

export function ReviewCard({ track }: { track: ReviewTrackView }) {
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="review-item">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 gap-3">
          <Cover track={track} />
          <div className="min-w-0">
            <h3 className="truncate text-base font-semibold text-slate-900">{track.title}</h3>
            <Facts track={track} />
          </div>
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-2">
          <PlayButton
            track={{
              id: track.id,
              title: track.title,
              artist: track.artist,
              durationSeconds: track.durationSeconds,
              peaks: track.peaks,
              coverUrl: track.coverKey ? coverPath(track.id) : null,
            }}
          />
          <Link to={`?review=${track.id}&decision=approve`} preventScrollReset className={buttonClass.primary}>
            Approve<span className="sr-only"> {track.title}</span>
          </Link>
          <Link to={`?review=${track.id}&decision=reject`} preventScrollReset className={buttonClass.dangerOutline}>
            Reject<span className="sr-only"> {track.title}</span>
          </Link>
        </div>
      </div>
      <Waveform peaks={track.peaks} bars={96} className="mt-3 h-10 w-full" />
      {track.history?.length ? (
        <details className="mt-3 rounded-md bg-slate-50 p-3" open>
          <summary className="cursor-pointer text-sm font-semibold text-slate-900">
            Resubmitted: earlier rounds<span className="sr-only"> of {track.title}</span>
          </summary>
          <div className="mt-2">
            <SubmissionHistory title={track.title} submittedAt={track.createdAt} events={track.history} />
          </div>
        </details>
      ) : null}
    </li>
  );
}

export function PublishedRow({ track }: { track: ReviewTrackView }) {
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="truncate font-medium text-slate-900">
          {track.title} <span className="font-normal text-slate-600">by {track.artist}</span>
        </p>
        <p className="text-xs text-slate-600">
          Published {formatDate(track.publishedAt)} · {track.licenceCount} {track.licenceCount === 1 ? "licence" : "licences"} ·{" "}
          {track.partnerEmail ?? "no partner"}
        </p>
      </div>
      <Link to={`?review=${track.id}&decision=withdraw`} preventScrollReset className={`${buttonClass.dangerOutline} shrink-0`}>
        Withdraw<span className="sr-only"> {track.title}</span>
      </Link>
    </li>
  );
}

export function RecentDecision({ track }: { track: ReviewTrackView }) {
  return (
    <li className="py-2 text-sm">
      <span className="font-medium text-slate-900">{track.title}</span>{" "}
      <Badge tone={track.status === "rejected" ? "red" : "slate"}>{TRACK_STATUS_LABELS[track.status]}</Badge>{" "}
      <span className="text-slate-600">
        {track.reviewNote ?? track.withdrawReason ?? ""} · {formatDateTime(track.reviewedAt)}
        {track.reviewedByEmail ? ` by ${track.reviewedByEmail}` : ""}
      </span>
    </li>
  );
}

const DIALOG = {
  approve: { title: "Publish this track?", button: "Approve and publish", text: "It joins the music library at once; the partner is notified." },
  reject: { title: "Reject this track?", button: "Reject track", text: "The partner is notified with your note." },
  withdraw: {
    title: "Withdraw this track?",
    button: "Withdraw track",
    text: "It leaves the library at once; licences already taken stay valid for videos published before today. The partner is notified with your reason.",
  },
} as const;

export function ReviewDialog({ track, decision, error }: { track: ReviewTrackView; decision: Decision; error?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const d = DIALOG[decision];
  const field = decision === "withdraw" ? "reason" : "note";
  const required = decision !== "approve";
  return (
    <ConfirmDialog title={d.title} cancelTo={ACTION_PATH}>
      <p className="text-sm text-slate-700">
        <strong>{track.title}</strong> by {track.artist}. {d.text}
      </p>
      <Form method="post" action={ACTION_PATH} className="mt-4 space-y-3">
        <input type="hidden" name="intent" value={decision} />
        <input type="hidden" name="trackId" value={track.id} />
        <div>
          <label htmlFor="review-note" className="block text-sm font-medium text-slate-800">
            {decision === "withdraw" ? "Reason" : required ? "Note for the partner" : "Note for the partner (optional)"}
          </label>
          <textarea
            id="review-note"
            name={field}
            required={required}
            maxLength={NOTE_MAX}
            rows={3}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "review-note-error" : undefined}
            className={inputClass}
          />
          {error ? (
            <p id="review-note-error" className="mt-1 text-sm text-red-700">
              {error}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <Link to={ACTION_PATH} replace preventScrollReset className={buttonClass.secondary}>
            Cancel
          </Link>
          <button type="submit" disabled={busy} className={decision === "approve" ? buttonClass.primary : buttonClass.danger}>
            {d.button}
          </button>
        </div>
      </Form>
    </ConfirmDialog>
  );
}
