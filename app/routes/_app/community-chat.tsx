import { GeneralErrorBoundary } from "~/components/error-screen";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { chatPage } from "~/modules/chat/chat.server";
import { ChatView } from "~/modules/chat/components/chat-view";
import { domainLoader } from "~/platform/http.server";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/community-chat";

// /community-chat (issue 17): rooms with unread counts, the chosen room's history and live
// messages (the room's Durable Object, /api/chat/socket), sending through /api/chat.
// docs/decisions/0160.

export const meta = () => [{ title: "Community Chat | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const user = await requireApprovedUser(args);
  const slug = new URL(args.request.url).searchParams.get("room");
  return chatPage(actorOf(user), slug && /^[a-z0-9-]{1,60}$/.test(slug) ? slug : slug ? "__unknown__" : null);
});

export default function CommunityChat({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader title="Community Chat" description="Talk with other creators and the Shortbeat team." />
      {/* A fresh view per room: its socket, history and composer belong to that room. */}
      <ChatView key={loaderData.room?.id ?? "none"} page={loaderData} />
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
