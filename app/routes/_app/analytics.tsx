import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireApprovedUser } from "~/server/guards.server";
import type { Route } from "./+types/analytics";

export const meta = () => [{ title: "Analytics | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="Analytics" description="Subscribers, views and videos over time." />
      <EmptyState title="No data yet">
        <p>Analytics is being built.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
