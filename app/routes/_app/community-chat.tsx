import { GeneralErrorBoundary } from "~/components/error-screen";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { ComingSoon } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/community-chat";

export const meta = () => [{ title: "Community Chat | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

export default function Page() {
  return (
    <ComingSoon title="Community Chat" description="Talk with other creators." empty="Chat opens soon">
      Community rooms with live messages arrive with the chat feature.
    </ComingSoon>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
