import { requireAdmin } from "~/modules/accounts/guards.server";
import { comingSoonPage } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/chat-management";

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return null;
}

const page = comingSoonPage({
  title: "Chat Management",
  description: "Rooms, messages and mutes.",
  empty: "Chat management opens soon",
  text: "Room management and moderation arrive with the chat feature.",
});

export const meta = page.meta;
export const ErrorBoundary = page.ErrorBoundary;
export default page.Page;
