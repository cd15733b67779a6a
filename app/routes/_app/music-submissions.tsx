import { GeneralErrorBoundary } from "~/components/error-screen";
import { requireMusicPartner } from "~/modules/accounts/guards.server";
import { ComingSoon } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/music-submissions";

export const meta = () => [{ title: "Music Submissions | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireMusicPartner(args);
  return null;
}

export default function Page() {
  return (
    <ComingSoon title="Music Submissions" description="Your submitted tracks and their review status." empty="No submissions yet">
      Your submissions and their review notes will be listed here.
    </ComingSoon>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
