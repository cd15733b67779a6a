import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { comingSoonPage } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/clipping";

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

const page = comingSoonPage({
  title: "Clipping",
  description: "Clippers cut clips from your source videos (70% clipper, 30% creator by default).",
  empty: "Clipping opens soon",
  text: "Your clipper invite link, linked clippers and your source folder will be managed here.",
});

export const meta = page.meta;
export const ErrorBoundary = page.ErrorBoundary;
export default page.Page;
