import { GeneralErrorBoundary } from "~/components/error-screen";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { ComingSoon } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/campaigns";

export const meta = () => [{ title: "Campaigns | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

export default function Page() {
  return (
    <ComingSoon title="Campaigns" description="Optional paid promotions, usually paid per 1,000 views." empty="No live campaigns">
      Campaigns are opt-in; when one goes live you can join it here. Payout is up to 60 days after a campaign ends.
    </ComingSoon>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
