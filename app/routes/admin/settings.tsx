import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireAdmin } from "~/server/guards.server";
import type { Route } from "./+types/settings";

export const meta = () => [{ title: "App settings | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="App settings" description="Shares, payout day and limits." />
      <EmptyState title="Settings">
        <p>Being built.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
