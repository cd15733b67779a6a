import { Link } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireMusicPartner } from "~/modules/accounts/guards.server";
import { SubmissionsList } from "~/modules/music/components/submissions-list";
import { SubmissionsUsage } from "~/modules/music/components/submissions-usage";
import { partnerSubmissions } from "~/modules/music/music.server";
import { domainLoader } from "~/platform/http.server";
import { buttonClass } from "~/ui/button";
import { EmptyState } from "~/ui/empty-state";
import { PageHeader } from "~/ui/page-header";
import { Section } from "~/ui/section";
import type { Route } from "./+types/music-submissions";

// A music partner's submissions: status and the reviewer's note; for tracks in the library their
// licences and distinct creators, and licences per week (spec section 2: music partners only).

export const meta = () => [{ title: "Music Submissions | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const user = await requireMusicPartner(args);
  return partnerSubmissions(actorOf(user));
});

const MB = 1024 * 1024;

export default function MusicSubmissions({ loaderData }: Route.ComponentProps) {
  const { tracks, usage, storage } = loaderData;
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
          <p className="text-sm text-slate-600">
            {published} published · {inReview} in review · storage {Math.ceil(storage.usedBytes / MB)} MB of {Math.round(storage.quotaBytes / MB)} MB used
          </p>
          <SubmissionsUsage usage={usage} />
          <Section id="submissions-heading" title="Your tracks">
            <div className="mt-3">
              <SubmissionsList tracks={tracks} />
            </div>
          </Section>
        </div>
      )}
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
