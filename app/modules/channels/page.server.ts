import { authorize, type Actor } from "~/lib/permissions";
import { listChannels } from "./links.server";
import { listSubmissions } from "./submissions.server";

// What /channels shows. The two lists load side by side, and one failing does not hide the other:
// the page shows 'Failed to load channels' or 'Failed to load submissions' with the reason.

export async function channelsPage(actor: Actor) {
  authorize(actor, "channel", "list");
  const [channels, submissions] = await Promise.allSettled([listChannels(actor), listSubmissions(actor)]);
  const reason = (r: PromiseRejectedResult) => {
    console.error("channels page load failed", r.reason);
    return r.reason instanceof Error ? r.reason.message : "Unknown error";
  };
  return {
    channels: channels.status === "fulfilled" ? channels.value : [],
    channelsError: channels.status === "rejected" ? reason(channels) : null,
    submissions: submissions.status === "fulfilled" ? submissions.value : [],
    submissionsError: submissions.status === "rejected" ? reason(submissions) : null,
  };
}
