import { Form, Link, useLocation } from "react-router";
import { formatDate } from "~/lib/dates";
import { hrefWith } from "~/lib/href";
import { ConfirmActions } from "~/modules/admin/components/console";
import { ConfirmDialog } from "~/ui/confirm-dialog";
import { Badge, type Tone } from "~/ui/badge";
import { buttonClass } from "~/ui/button";
import { type TrackEvent, type TrackFacts, type TrackHistory, trackFactsLine } from "../library";
import { TRACK_STATUS_LABELS } from "../messages";
import { PlayButton } from "./play-button";
import { SubmissionHistory } from "./submission-history";

// The partner's submissions as cards: a play button (the shell's player; the audio route lets a
// partner hear every submission of their own, whatever its status), status, the reviewer's note (or
// the withdrawal reason), a rejected track's 'Resubmit with changes', the rounds of a resubmitted
// track, and for tracks that reached the library, licences and distinct creators. A track in review
// has 'Withdraw', a link to the confirm step (?confirm=withdraw&id=…; decision 0323).

/** A partner's track: its facts, its history and its use (submissions.server.ts partnerSubmissions). */
export type SubmissionView = TrackFacts & TrackHistory & { licences: number; creators: number; peaks: string; coverUrl: string | null; history: TrackEvent[] };

const TONE: Record<SubmissionView["status"], Tone> = { in_review: "amber", published: "green", rejected: "red", withdrawn: "slate" };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function SubmissionsList({ tracks, withdrawing = null, busy = false }: { tracks: SubmissionView[]; withdrawing?: string | null; busy?: boolean }) {
  const { pathname, search } = useLocation();
  const cancelTo = hrefWith(pathname, search, { confirm: null, id: null });
  // Only a track still in review is asked about (a stale link shows nothing).
  const asking = withdrawing ? tracks.find((t) => t.id === withdrawing && t.status === "in_review") : undefined;
  return (
    <>
      <ul className="space-y-3" aria-label="Your submissions">
        {tracks.map((t) => {
          const reached = t.status === "published" || t.status === "withdrawn";
          return (
            <li key={t.id} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="submission">
              <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
                <div className="flex min-w-0 items-start gap-3">
                  <PlayButton track={t} />
                  <div className="min-w-0">
                    <h3 className="truncate text-base font-semibold text-slate-900">{t.title}</h3>
                    <p className="text-sm text-slate-700">
                      {t.artist} · {trackFactsLine(t, true)}
                    </p>
                    <p className="mt-1 text-xs text-slate-600">
                      Submitted {formatDate(t.createdAt)}
                      {t.publishedAt ? ` · published ${formatDate(t.publishedAt)}` : ""}
                      {t.withdrawnAt ? ` · withdrawn ${formatDate(t.withdrawnAt)}` : ""}
                      {t.status === "rejected" && t.reviewedAt ? ` · reviewed ${formatDate(t.reviewedAt)}` : ""}
                    </p>
                  </div>
                </div>
                <div className="flex shrink-0 flex-wrap items-center gap-2 sm:flex-col sm:items-end">
                  <Badge tone={TONE[t.status]}>{TRACK_STATUS_LABELS[t.status]}</Badge>
                  {reached ? (
                    <p className="text-sm text-slate-800" data-testid="licence-count">
                      <strong>{plural(t.licences, "licence", "licences")}</strong> · {plural(t.creators, "creator", "creators")}
                    </p>
                  ) : null}
                </div>
              </div>
              {t.reviewNote ? (
                <p className={`mt-3 rounded-md p-3 text-sm text-slate-800 ${t.status === "rejected" ? "bg-red-50" : "bg-slate-50"}`}>
                  <span className="font-semibold">{t.status === "rejected" ? "Rejected:" : "Reviewer's note:"}</span> {t.reviewNote}
                </p>
              ) : null}
              {t.status === "rejected" ? (
                <div className="mt-3 flex flex-wrap items-center gap-2">
                  <Link to={`/music/submissions/${t.id}/resubmit`} className={buttonClass.secondary}>
                    Resubmit with changes<span className="sr-only"> ({t.title})</span>
                  </Link>
                  <span className="text-xs text-slate-600">Fix what the reviewer noted; your track goes back to review and keeps its history.</span>
                </div>
              ) : null}
              {t.status === "in_review" ? (
                <div className="mt-3 flex flex-wrap items-center gap-2">
                  <Link to={hrefWith(pathname, search, { confirm: "withdraw", id: t.id })} preventScrollReset className={buttonClass.secondary}>
                    Withdraw<span className="sr-only"> ({t.title})</span>
                  </Link>
                </div>
              ) : null}
              {t.history.some((e) => e.kind === "resubmitted") ? (
                <div className="mt-3">
                  <h4 className="mb-2 text-sm font-semibold text-slate-900">History</h4>
                  <SubmissionHistory title={t.title} submittedAt={t.createdAt} events={t.history} />
                </div>
              ) : null}
              {t.withdrawReason ? (
                <p className="mt-3 rounded-md bg-slate-50 p-3 text-sm text-slate-800">
                  <span className="font-semibold">Withdrawn:</span> {t.withdrawReason}. Licences already taken stay valid.
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      {asking ? (
        <ConfirmDialog title={`Withdraw “${asking.title}”?`} cancelTo={cancelTo}>
          <Form method="post" action={cancelTo} preventScrollReset>
            <p className="text-sm text-slate-700">
              It leaves the review queue and its audio and cover are deleted. To offer it again, submit it as a new track.
            </p>
            <input type="hidden" name="intent" value="withdraw" />
            <input type="hidden" name="id" value={asking.id} />
            <ConfirmActions cancelTo={cancelTo} danger disabled={busy}>
              Withdraw submission
            </ConfirmActions>
          </Form>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
