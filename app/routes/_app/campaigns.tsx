import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/campaigns";

export const meta = () => [{ title: "Campaigns | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="Campaigns" description="Optional paid promotions, usually paid per 1,000 views." />
      <EmptyState title="No live campaigns">
        <p>Campaigns are opt-in; when one goes live you can join it here. Payout is up to 60 days after a campaign ends.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
