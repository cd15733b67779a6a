import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { comingSoonPage } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/campaigns";

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

const page = comingSoonPage({
  title: "Campaigns",
  description: "Optional paid promotions, usually paid per 1,000 views.",
  empty: "No live campaigns",
  text: "Campaigns are opt-in; when one goes live you can join it here. Payout is up to 60 days after a campaign ends.",
});

export const meta = page.meta;
export const ErrorBoundary = page.ErrorBoundary;
export default page.Page;
