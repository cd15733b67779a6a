import { requireMusicPartner } from "~/modules/accounts/guards.server";
import { comingSoonPage } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/music-submissions";

export async function loader(args: Route.LoaderArgs) {
  await requireMusicPartner(args);
  return null;
}

const page = comingSoonPage({
  title: "Music Submissions",
  description: "Your submitted tracks and their review status.",
  empty: "No submissions yet",
  text: "Your submissions and their review notes will be listed here.",
});

export const meta = page.meta;
export const ErrorBoundary = page.ErrorBoundary;
export default page.Page;
