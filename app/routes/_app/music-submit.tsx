import { requireMusicPartner } from "~/modules/accounts/guards.server";
import { comingSoonPage } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/music-submit";

export async function loader(args: Route.LoaderArgs) {
  await requireMusicPartner(args);
  return null;
}

const page = comingSoonPage({
  title: "Submit Music",
  description: "Send tracks for review by our team.",
  empty: "Track submission opens soon",
  text: "Uploading audio and covers for review arrives with the music library.",
});

export const meta = page.meta;
export const ErrorBoundary = page.ErrorBoundary;
export default page.Page;
