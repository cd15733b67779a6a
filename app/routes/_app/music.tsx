import { GeneralErrorBoundary } from "~/components/error-screen";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { ComingSoon } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/music";

export const meta = () => [{ title: "Music Library | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

export default function Page() {
  return (
    <ComingSoon title="Music Library" description="Royalty-free tracks licensed for your Shorts." empty="The music library opens soon">
      Search, previews, favorites and licences arrive with the music library. The demo tracks are already stored and counted on your dashboard.
    </ComingSoon>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
