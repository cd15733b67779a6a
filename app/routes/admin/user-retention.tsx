import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireAdmin } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/user-retention";

export const meta = () => [{ title: "User Retention | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="User Retention" description="Sign-ups, funnel and cohorts." />
      <EmptyState title="Retention reports open soon">
        <p>Weekly sign-ups, the activation funnel and cohort tables will be shown here.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
