import { Outlet } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { Shell } from "~/components/shell";
import { requireUser } from "~/modules/accounts/guards.server";
import { shellData } from "~/modules/accounts/accounts.server";
import type { Route } from "./+types/layout";

// The signed-in shell. Each page below runs its own guard too (a .data request may ask for
// one route's loader alone).
export async function loader(args: Route.LoaderArgs) {
  const user = await requireUser(args);
  return shellData(args.request, user);
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  return (
    <Shell {...loaderData}>
      <Outlet />
    </Shell>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
