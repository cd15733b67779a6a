import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { comingSoonPage } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/community-chat";

export async function loader(args: Route.LoaderArgs) {
  await requireApprovedUser(args);
  return null;
}

const page = comingSoonPage({
  title: "Community Chat",
  description: "Talk with other creators.",
  empty: "Chat opens soon",
  text: "Community rooms with live messages arrive with the chat feature.",
});

export const meta = page.meta;
export const ErrorBoundary = page.ErrorBoundary;
export default page.Page;
