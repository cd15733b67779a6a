import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireAdmin } from "~/server/guards.server";
import type { Route } from "./+types/verifications";

export const meta = () => [{ title: "Channel verifications | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="Channel verifications" description="Manual channel submissions to review." />
      <EmptyState title="Verifications">
        <p>Being built.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
