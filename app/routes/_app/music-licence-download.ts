import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { downloadLicensedTrack } from "~/modules/music/music.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/music-licence-download";

// GET /music/licences/:code/download — the licensed file as an attachment named
// 'Artist - Title (Shortbeat licence SB-…).wav': the licence's owner only (404 otherwise), while the
// track is in the library. 401/403 JSON like the other resource routes. docs/decisions/0116.
export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const user = await requireApiUser(args, { approved: true });
  return downloadLicensedTrack(actorOf(user), args.params.code);
});
