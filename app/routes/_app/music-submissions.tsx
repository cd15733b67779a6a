import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireMusicPartner } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/music-submissions";

export const meta = () => [{ title: "Music Submissions | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireMusicPartner(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="Music Submissions" description="Your submitted tracks and their review status." />
      <EmptyState title="No submissions yet">
        <p>Your submissions and their review notes will be listed here.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
