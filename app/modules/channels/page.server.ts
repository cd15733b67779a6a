import { authorize, type Actor } from "~/lib/permissions";
import { socialHandlesOf } from "./handles.server";
import { listChannels } from "./links.server";
import { listSocialAccounts } from "./social-accounts.server";
import { listSubmissions } from "./submissions.server";

// What /channels shows. The two lists load side by side, and one failing does not hide the other:
// the page shows 'Failed to load channels' or 'Failed to load submissions' with the reason.

export async function channelsPage(actor: Actor) {
  authorize(actor, "channel", "list");
  const [channels, submissions, handles, socialAccounts] = await Promise.allSettled([
    listChannels(actor),
    listSubmissions(actor),
    socialHandlesOf(actor.id),
    listSocialAccounts(actor),
  ]);
  const reason = (r: PromiseRejectedResult) => {
    console.error("channels page load failed", r.reason);
    return r.reason instanceof Error ? r.reason.message : "Unknown error";
  };
  return {
    channels: channels.status === "fulfilled" ? channels.value : [],
    channelsError: channels.status === "rejected" ? reason(channels) : null,
    submissions: submissions.status === "fulfilled" ? submissions.value : [],
    submissionsError: submissions.status === "rejected" ? reason(submissions) : null,
    // The TikTok / Instagram handles campaign videos are checked against (decision 0265).
    handles: handles.status === "fulfilled" ? handles.value : { tiktok: null, instagram: null },
    // The linked TikTok / Instagram accounts that prove ownership and read views (decisions 0299, 0300).
    socialAccounts: socialAccounts.status === "fulfilled" ? socialAccounts.value : [],
  };
}
