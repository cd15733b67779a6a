import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { startTrackPreview } from "~/modules/music/music.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/music.audio.$id";

// GET/HEAD /music/audio/:id — a track's preview, streamed from R2 with HTTP Range (the player's
// <audio> element seeks with Range requests). Signed-in approved users only: 401 without a
// session, 403 before approval (JSON, like the other resource routes). docs/decisions/0105.
export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const preview = startTrackPreview(args, args.params.id); // joins the session lookup's batch
  const user = await requireApiUser(args, { approved: true });
  return preview.audio(actorOf(user));
});
