import { requireAdmin } from "~/modules/accounts/guards.server";
import { comingSoonPage } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/user-retention";

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return null;
}

const page = comingSoonPage({
  title: "User Retention",
  description: "Sign-ups, funnel and cohorts.",
  empty: "Retention reports open soon",
  text: "Weekly sign-ups, the activation funnel and cohort tables will be shown here.",
});

export const meta = page.meta;
export const ErrorBoundary = page.ErrorBoundary;
export default page.Page;
