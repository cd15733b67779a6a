import { GeneralErrorBoundary } from "~/components/error-screen";
import { requireAdmin } from "~/modules/accounts/guards.server";
import { ComingSoon } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/user-retention";

export const meta = () => [{ title: "User Retention | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return null;
}

export default function Page() {
  return (
    <ComingSoon title="User Retention" description="Sign-ups, funnel and cohorts." empty="Retention reports open soon">
      Weekly sign-ups, the activation funnel and cohort tables will be shown here.
    </ComingSoon>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
