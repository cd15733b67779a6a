import { GeneralErrorBoundary } from "~/components/error-screen";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { ComingSoon } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/referrals";

export const meta = () => [{ title: "Referrals | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

export default function Page() {
  return (
    <ComingSoon title="Referrals" description="Invite creators with your link." empty="Referrals open soon">
      Your referral link and the people who joined through it will be shown here.
    </ComingSoon>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
