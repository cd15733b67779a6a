import { RowList } from "~/ui/row-list";
import { useSearchParams } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireAdmin } from "~/modules/accounts/guards.server";
import { type Decision, PublishedRow, RecentDecision, ReviewCard, ReviewDialog } from "~/modules/music/components/review-queue";
import { decideTrack, reviewQueue } from "~/modules/music/music.server";
import { REVIEW_TITLES, reviewSchema } from "~/modules/music/schema";
import { parseForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { EmptyState } from "~/ui/empty-state";
import { PageHeader } from "~/ui/page-header";
import { Section } from "~/ui/section";
import type { Route } from "./+types/music";
import { FailureAlert, useActionFailure } from "~/ui/action-failure";

// The admin console's music review: tracks in review (play, approve, reject with a note), the
// published tracks (withdraw with a reason) and the latest decisions. docs/decisions/0113.

export const meta = () => [{ title: "Music review | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const admin = await requireAdmin(args);
  return reviewQueue(actorOf(admin));
});

const DONE = {
  approve: (t: string) => ({ title: "Track published", description: `${t} is in the music library. The partner has been notified.` }),
  reject: (t: string) => ({ title: "Track rejected", description: `${t} was rejected. The partner has been notified.` }),
  withdraw: (t: string) => ({ title: "Track withdrawn", description: `${t} left the music library. The partner has been notified.` }),
} as const;

export const action = domainAction(async (args: Route.ActionArgs) => {
  const admin = await requireAdmin(args);
  const decision = await parseForm(args.request, reviewSchema);
  const track = await decideTrack(actorOf(admin), args.request, decision);
  return redirectWithToast(args.request, "/admin/music", { type: "success", ...DONE[decision.intent](track.title) });
}, REVIEW_TITLES);

export default function MusicReview({ loaderData, actionData }: Route.ComponentProps) {
  const { queue, published, recent } = loaderData;
  const [params] = useSearchParams();
  const failure = useActionFailure(actionData);
  const fieldError = failure?.errors.note ?? failure?.errors.reason;
  const reviewId = params.get("review") ?? (fieldError ? (failure?.values?.trackId ?? null) : null);
  const asked = (params.get("decision") ?? failure?.intent ?? "approve") as Decision;
  const decision: Decision = ["approve", "reject", "withdraw"].includes(asked) ? asked : "approve";
  const reviewing = reviewId ? [...queue, ...published].find((t) => t.id === reviewId) : undefined;

  return (
    <>
      <PageHeader title="Music review" description="Tracks sent by music partners, oldest first. Approved tracks join the library at once." />
      <FailureAlert failure={fieldError ? null : failure} />

      <Section
        id="music-queue-heading"
        title={
          <>
            Waiting for review <span className="text-slate-500">({queue.length})</span>
          </>
        }
      >
        {queue.length === 0 ? (
          <div className="mt-3">
            <EmptyState title="Nothing to review">
              <p>No track is waiting for review.</p>
            </EmptyState>
          </div>
        ) : (
          <ul className="mt-3 space-y-3">
            {queue.map((t) => (
              <ReviewCard key={t.id} track={t} />
            ))}
          </ul>
        )}
      </Section>

      <Section id="music-published-heading" title="Published tracks" className="mt-10">
        <RowList items={published} empty="No published tracks yet.">
          {(t) => <PublishedRow key={t.id} track={t} />}
        </RowList>
      </Section>

      <Section id="music-recent-heading" title="Recent rejections and withdrawals" className="mt-10">
        <RowList items={recent} empty="None yet." card={false}>
          {(t) => <RecentDecision key={t.id} track={t} />}
        </RowList>
      </Section>

      {reviewing ? (
        <ReviewDialog
          track={reviewing}
          decision={reviewing.status === "published" ? "withdraw" : decision === "withdraw" ? "approve" : decision}
          error={fieldError}
        />
      ) : null}
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
