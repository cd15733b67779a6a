import { GeneralErrorBoundary } from "~/components/error-screen";
import { requireMusicPartner } from "~/modules/accounts/guards.server";
import { ComingSoon } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/music-submit";

export const meta = () => [{ title: "Submit Music | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireMusicPartner(args);
  return null;
}

export default function Page() {
  return (
    <ComingSoon title="Submit Music" description="Send tracks for review by our team." empty="Track submission opens soon">
      Uploading audio and covers for review arrives with the music library.
    </ComingSoon>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
