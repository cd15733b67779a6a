import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireApprovedUser } from "~/server/guards.server";
import type { Route } from "./+types/channels";

export const meta = () => [{ title: "Channels | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="Channels" description="Your linked YouTube channels and manual submissions." />
      <EmptyState title="No channels yet">
        <p>Channel linking is being built.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
