import { GeneralErrorBoundary } from "~/components/error-screen";
import { requireAdmin } from "~/modules/accounts/guards.server";
import { ComingSoon } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/chat-management";

export const meta = () => [{ title: "Chat Management | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return null;
}

export default function Page() {
  return (
    <ComingSoon title="Chat Management" description="Rooms, messages and mutes." empty="Chat management opens soon">
      Room management and moderation arrive with the chat feature.
    </ComingSoon>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
