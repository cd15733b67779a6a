import { GeneralErrorBoundary } from "~/components/error-screen";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { ComingSoon } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/clipping";

export const meta = () => [{ title: "Clipping | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

export default function Page() {
  return (
    <ComingSoon title="Clipping" description="Clippers cut clips from your source videos (70% clipper, 30% creator by default)." empty="Clipping opens soon">
      Your clipper invite link, linked clippers and your source folder will be managed here.
    </ComingSoon>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
