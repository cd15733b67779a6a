import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { comingSoonPage } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/music";

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

const page = comingSoonPage({
  title: "Music Library",
  description: "Royalty-free tracks licensed for your Shorts.",
  empty: "The music library opens soon",
  text: "Search, previews, favorites and licences arrive with the music library. The demo tracks are already stored and counted on your dashboard.",
});

export const meta = page.meta;
export const ErrorBoundary = page.ErrorBoundary;
export default page.Page;
