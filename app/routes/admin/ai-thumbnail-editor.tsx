import { requireAdmin } from "~/modules/accounts/guards.server";
import { comingSoonPage } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/ai-thumbnail-editor";

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return null;
}

const page = comingSoonPage({
  title: "AI Thumbnail Editor",
  description: "Design thumbnails in the browser.",
  empty: "The thumbnail editor opens soon",
  text: "Cropping, text layers and export arrive with the editor.",
});

export const meta = page.meta;
export const ErrorBoundary = page.ErrorBoundary;
export default page.Page;
