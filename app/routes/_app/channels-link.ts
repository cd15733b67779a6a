import { data, redirect } from "react-router";
import { DomainError } from "~/lib/errors";
import type { ToastInput } from "~/lib/toast";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApprovedUser } from "~/modules/accounts/guards.server";
import { clearSocialLinkCookie, completeSocialLink } from "~/modules/channels/channels.server";
import { SOCIAL_LABELS, type SocialPlatform } from "~/modules/channels/messages";
import { setToastCookie } from "~/platform/toast.server";
import type { Route } from "./+types/channels-link";

// Instagram and TikTok return the browser here after their login (?code&state, or ?error)
// (decisions 0299, 0300): the module links the account, then /channels shows the toast. The flow
// cookie is cleared whatever the outcome. Register https://<origin>/channels/link/<platform> with each.
export async function loader(args: Route.LoaderArgs) {
  const platform = args.params.platform;
  if (platform !== "instagram" && platform !== "tiktok") throw data("Not Found", { status: 404 });
  const user = await requireApprovedUser(args);
  const p: SocialPlatform = platform;
  const headers = new Headers();
  headers.append("Set-Cookie", await clearSocialLinkCookie(args.request, p));
  let message: ToastInput;
  try {
    const { username } = await completeSocialLink(actorOf(user), args.request, p);
    message = {
      type: "success",
      title: `${SOCIAL_LABELS[p]} linked`,
      description: `${username ?? "Your account"} is linked. Your ${SOCIAL_LABELS[p]} videos are now checked at once.`,
    };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    message = { type: "error", title: error.title ?? `Could not link ${SOCIAL_LABELS[p]}`, description: error.message };
  }
  headers.append("Set-Cookie", await setToastCookie(args.request, message));
  return redirect("/channels", { headers });
}
