import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/referrals";

export const meta = () => [{ title: "Referrals | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="Referrals" description="Invite creators with your link." />
      <EmptyState title="Referrals open soon">
        <p>Your referral link and the people who joined through it will be shown here.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
