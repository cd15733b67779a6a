import { GeneralErrorBoundary } from "~/components/error-screen";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { ComingSoon } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/payments";

export const meta = () => [{ title: "Payments | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

export default function Page() {
  return (
    <ComingSoon title="Payments" description="Your earnings and payouts." empty="No earnings yet">
      Payouts are made on or around the 18th of each month, once we have received the funds from the platform. Your statement will be shown here.
    </ComingSoon>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
