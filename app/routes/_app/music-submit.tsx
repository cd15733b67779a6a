import { GeneralErrorBoundary } from "~/components/error-screen";
import { isActionFailure } from "~/lib/errors";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireMusicPartner } from "~/modules/accounts/guards.server";
import { partnerStorage, submissionBodyLimit, submitTrack } from "~/modules/music/music.server";
import { SubmitForm } from "~/modules/music/components/submit-form";
import { SUBMIT_MESSAGES } from "~/modules/music/schema";
import { readForm } from "~/platform/body.server";
import { domainAction, domainLoader } from "~/platform/http.server";
import { redirectWithToast } from "~/platform/toast.server";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/music-submit";

// Music partners submit a track for review (spec section 2: music partners only; admins without
// the partner flag are refused, docs/decisions/0070). The body is capped at both files' limits
// (docs/decisions/0110).

export const meta = () => [{ title: "Submit Music | Shortbeat" }];

/** The hourly limit's Retry-After reaches the browser (document and `.data` requests). */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const user = await requireMusicPartner(args);
  // A fresh one-time key per visit: the same form posted twice files one submission.
  return { submissionKey: crypto.randomUUID(), storage: await partnerStorage(actorOf(user)) };
});

export const action = domainAction(async (args: Route.ActionArgs) => {
  const user = await requireMusicPartner(args);
  const form = await readForm(args.request, submissionBodyLimit());
  await submitTrack(actorOf(user), args.request, form);
  return redirectWithToast(args.request, "/music/submissions", { type: "success", ...SUBMIT_MESSAGES.submitted });
}, SUBMIT_MESSAGES.failedTitle);

export default function MusicSubmit({ loaderData, actionData }: Route.ComponentProps) {
  const failure = isActionFailure(actionData) ? actionData : null;
  return (
    <>
      <PageHeader title="Submit Music" description="Send a track for review by our team. Published tracks join the library for creators to use." />
      <SubmitForm key={loaderData.submissionKey} submissionKey={loaderData.submissionKey} storage={loaderData.storage} failure={failure} />
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
