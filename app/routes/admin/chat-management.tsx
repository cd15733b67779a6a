import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireAdmin } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/chat-management";

export const meta = () => [{ title: "Chat Management | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="Chat Management" description="Rooms, messages and mutes." />
      <EmptyState title="Chat management opens soon">
        <p>Room management and moderation arrive with the chat feature.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
