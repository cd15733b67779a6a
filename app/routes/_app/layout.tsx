import { Outlet } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-screen";
import { Shell } from "~/components/shell";
import { getOptionalUser } from "~/modules/accounts/guards.server";
import { shellData } from "~/modules/accounts/accounts.server";
import type { Route } from "./+types/layout";

// The signed-in shell, one instance for the app's pages and the admin area (routes/admin/layout
// is nested in it): moving between them keeps the shell, its focus and its notification socket.
//
// It decides nothing: every page below runs its own guard (a .data request may ask for one
// route's loader alone), and the admin layout runs the admin guard. It only reads the session
// (memoized per request, no extra round trip). A child's redirect is the response whenever one
// is thrown, so the guards' own answers (the admin guard's "Authentication Required" toast, the
// banned notice, /pending-approval) are what a signed-out, banned or unapproved visitor gets.
export async function loader(args: Route.LoaderArgs) {
  const user = await getOptionalUser(args);
  return user && !user.isBanned ? shellData(args.request, user) : null;
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  // No user: a page's guard has answered with a redirect, so this never renders a page.
  if (!loaderData) return null;
  return (
    <Shell {...loaderData}>
      <Outlet />
    </Shell>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
