import { Link } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { isActionFailure } from "~/lib/errors";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireMusicPartner } from "~/modules/accounts/guards.server";
import { resubmitTrack, submissionBodyLimit, trackToResubmit } from "~/modules/music/music.server";
import { SubmissionHistory } from "~/modules/music/components/submission-history";
import { SubmitForm } from "~/modules/music/components/submit-form";
import { RESUBMIT_MESSAGES } from "~/modules/music/messages";
import { readForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { buttonClass } from "~/ui/button";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/music-resubmit";

// A music partner sends their rejected track back for review with changes (issue 30): the
// reviewer's note and the track's history above the submit form, filled in, files optional. Only
// the partner's own rejected track (404 for anyone else's, 409 once it is no longer rejected).
// docs/decisions/0260.

export const meta = () => [{ title: "Resubmit a track | Shortbeat" }];

/** The hourly limit's Retry-After reaches the browser (document and `.data` requests). */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const user = await requireMusicPartner(args);
  return trackToResubmit(actorOf(user), args.params.id);
});

export const action = domainAction(async (args: Route.ActionArgs) => {
  const user = await requireMusicPartner(args);
  const form = await readForm(args.request, submissionBodyLimit());
  await resubmitTrack(actorOf(user), args.request, args.params.id, form);
  return redirectWithToast(args.request, "/music/submissions", { type: "success", ...RESUBMIT_MESSAGES.resubmitted });
}, RESUBMIT_MESSAGES.failedTitle);

export default function MusicResubmit({ loaderData, actionData }: Route.ComponentProps) {
  const { track, storage } = loaderData;
  const failure = isActionFailure(actionData) ? actionData : null;
  const rejection = [...track.history].reverse().find((e) => e.kind === "rejected");
  return (
    <>
      <PageHeader title="Resubmit a track" description={`${track.title} by ${track.artist}: change what the reviewer noted and send it back for review.`} />
      <div className="mb-6 grid max-w-3xl gap-4">
        {track.status === "rejected" && (track.reviewNote ?? rejection?.note) ? (
          <div className="rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-950" data-testid="rejection-reason">
            <p className="font-semibold">Why it was not approved</p>
            <p className="mt-1 break-words">{track.reviewNote ?? rejection?.note}</p>
          </div>
        ) : null}
        <section className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" aria-labelledby="resubmit-history-heading">
          <h2 id="resubmit-history-heading" className="mb-3 text-base font-semibold text-slate-900">
            History
          </h2>
          <SubmissionHistory title={track.title} submittedAt={track.createdAt} events={track.history} />
        </section>
      </div>
      {track.status === "rejected" ? (
        <SubmitForm key={track.id} storage={storage} failure={failure} resubmit={track} />
      ) : (
        <div role="status" className="max-w-3xl rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-800 shadow-sm">
          <p>{RESUBMIT_MESSAGES.notRejected}</p>
          <Link to="/music/submissions" className={`${buttonClass.secondary} mt-3`}>
            My submissions
          </Link>
        </div>
      )}
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
