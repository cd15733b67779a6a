import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireAgencyAccess } from "~/server/guards.server";
import type { Route } from "./+types/agency-dashboard";

export const meta = () => [{ title: "Agency | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireAgencyAccess(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="Agency" description="Your agency's links, tokens, managers and roster." />
      <EmptyState title="Agency dashboard">
        <p>Being built.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
