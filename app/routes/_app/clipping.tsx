import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/clipping";

export const meta = () => [{ title: "Clipping | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="Clipping" description="Clippers cut clips from your source videos (70% clipper, 30% creator by default)." />
      <EmptyState title="Clipping opens soon">
        <p>Your clipper invite link, linked clippers and your source folder will be managed here.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
