import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { startTrackPreview } from "~/modules/music/music.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/music.cover.$id";

// GET/HEAD /music/cover/:id — a track's cover image from R2 (type from its stored metadata,
// nosniff), under the same rules as its audio. docs/decisions/0105.
export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const preview = startTrackPreview(args, args.params.id); // joins the session lookup's batch
  const user = await requireApiUser(args, { approved: true });
  return preview.cover(actorOf(user));
});
