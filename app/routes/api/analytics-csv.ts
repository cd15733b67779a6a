import { parseRange } from "~/modules/channels/analytics";
import { analyticsExport } from "~/modules/channels/channels.server";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { csvResponse } from "~/platform/csv-response.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/analytics-csv";

// CSV export of what /analytics shows for the same range: the signed-in user's channels only.
export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const user = await requireApiUser(args, { approved: true });
  const range = parseRange(new URL(args.request.url).searchParams.get("range"));
  const { filename, csv } = await analyticsExport(actorOf(user), range);
  return csvResponse(filename, csv);
});
