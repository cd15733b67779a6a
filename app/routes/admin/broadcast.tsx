import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireAdmin } from "~/server/guards.server";
import type { Route } from "./+types/broadcast";

export const meta = () => [{ title: "Broadcast | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="Broadcast" description="Send a notification." />
      <EmptyState title="Broadcast">
        <p>Being built.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
