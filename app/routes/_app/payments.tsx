import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/payments";

export const meta = () => [{ title: "Payments | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="Payments" description="Your earnings and payouts." />
      <EmptyState title="No earnings yet">
        <p>Payouts are made on or around the 18th of each month, once we have received the funds from the platform. Your statement will be shown here.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
