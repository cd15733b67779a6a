import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { comingSoonPage } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/payments";

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

const page = comingSoonPage({
  title: "Payments",
  description: "Your earnings and payouts.",
  empty: "No earnings yet",
  text: "Payouts are made on or around the 18th of each month, once we have received the funds from the platform. Your statement will be shown here.",
});

export const meta = page.meta;
export const ErrorBoundary = page.ErrorBoundary;
export default page.Page;
