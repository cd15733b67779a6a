import { redirect } from "react-router";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { downloadUrl } from "~/modules/clipping/clipping.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/clipping-download";

// GET /clipping/sources/:id/download — the creator or a clipper with access gets a redirect to a
// URL signed for them for a short time (docs/decisions/0152); 404 otherwise.
export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const user = await requireApiUser(args, { approved: true });
  const location = await downloadUrl(actorOf(user), args.params.id);
  return redirect(location, { headers: { "Cache-Control": "private, no-store" } });
});
