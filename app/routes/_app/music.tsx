import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/music";

export const meta = () => [{ title: "Music Library | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="Music Library" description="Royalty-free tracks licensed for your Shorts." />
      <EmptyState title="The music library opens soon">
        <p>Search, previews, favorites and licences arrive with the music library. The demo tracks are already stored and counted on your dashboard.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
