import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/community-chat";

export const meta = () => [{ title: "Community Chat | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="Community Chat" description="Talk with other creators." />
      <EmptyState title="Chat opens soon">
        <p>Community rooms with live messages arrive with the chat feature.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
