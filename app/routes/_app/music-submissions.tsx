import { Link, useNavigation } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireMusicPartner } from "~/modules/accounts/guards.server";
import { SubmissionsList } from "~/modules/music/components/submissions-list";
import { SubmissionsUsage } from "~/modules/music/components/submissions-usage";
import { partnerSubmissions, withdrawSubmission } from "~/modules/music/music.server";
import { partnerSubmissionSchema, WITHDRAW_MESSAGES } from "~/modules/music/schema";
import { parseForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { FailureAlert, useActionFailure } from "~/ui/action-failure";
import { buttonClass } from "~/ui/button";
import { EmptyState } from "~/ui/empty-state";
import { PageHeader } from "~/ui/page-header";
import { Section } from "~/ui/section";
import type { Route } from "./+types/music-submissions";

// A music partner's submissions: status and the reviewer's note; for tracks in the library their
// licences and distinct creators, and licences per week (spec section 2: music partners only).
// A submission in review can be withdrawn: a link to ?confirm=withdraw&id=… opens the confirm step
// (works without JavaScript), whose form posts intent "withdraw" (issue 42 §5, decision 0323).

export const meta = () => [{ title: "Music Submissions | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const user = await requireMusicPartner(args);
  const url = new URL(args.request.url);
  const withdrawing = url.searchParams.get("confirm") === "withdraw" ? url.searchParams.get("id") : null;
  return { ...(await partnerSubmissions(actorOf(user))), withdrawing };
});

export const action = domainAction(async (args: Route.ActionArgs) => {
  const user = await requireMusicPartner(args);
  const input = await parseForm(args.request, partnerSubmissionSchema);
  await withdrawSubmission(actorOf(user), args.request, input.id);
  return redirectWithToast(args.request, "/music/submissions", { type: "success", ...WITHDRAW_MESSAGES.withdrawn });
}, WITHDRAW_MESSAGES.failedTitle);

const MB = 1024 * 1024;

export default function MusicSubmissions({ loaderData, actionData }: Route.ComponentProps) {
  const { tracks, usage, storage, withdrawing } = loaderData;
  const failure = useActionFailure(actionData);
  const busy = useNavigation().state === "submitting";
  const published = tracks.filter((t) => t.status === "published").length;
  const inReview = tracks.filter((t) => t.status === "in_review").length;
  return (
    <>
      <PageHeader
        title="Music Submissions"
        description="Your submitted tracks, their review status and how creators use them."
        actions={
          <Link to="/music/submit" className={buttonClass.primary}>
            Submit a track
          </Link>
        }
      />
      {tracks.length === 0 ? (
        <EmptyState title="No submissions yet">
          <p>
            Tracks you submit appear here with their review status.{" "}
            <Link to="/music/submit" className="font-medium text-brand-700 underline">
              Submit your first track
            </Link>
            .
          </p>
        </EmptyState>
      ) : (
        <div className="space-y-8">
          <FailureAlert failure={failure} className="" />
          <p className="text-sm text-slate-600">
            {published} published · {inReview} in review · storage {Math.ceil(storage.usedBytes / MB)} MB of {Math.round(storage.quotaBytes / MB)} MB used
          </p>
          <SubmissionsUsage usage={usage} />
          <Section id="submissions-heading" title="Your tracks">
            <div className="mt-3">
              <SubmissionsList tracks={tracks} withdrawing={withdrawing} busy={busy} />
            </div>
          </Section>
        </div>
      )}
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
