import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireAdmin } from "~/server/guards.server";
import type { Route } from "./+types/agencies";

export const meta = () => [{ title: "Agencies | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="Agencies" description="Applications and agency status." />
      <EmptyState title="Agencies">
        <p>Being built.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
