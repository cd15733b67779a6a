import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireMusicPartner } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/music-submit";

export const meta = () => [{ title: "Submit Music | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireMusicPartner(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="Submit Music" description="Send tracks for review by our team." />
      <EmptyState title="Track submission opens soon">
        <p>Uploading audio and covers for review arrives with the music library.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
