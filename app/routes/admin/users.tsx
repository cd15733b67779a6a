import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireAdmin } from "~/server/guards.server";
import type { Route } from "./+types/users";

export const meta = () => [{ title: "Admin | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="Admin" description="Users, approvals and bans." />
      <EmptyState title="Admin console">
        <p>Being built.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
