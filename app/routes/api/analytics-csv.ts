import { analyticsCsv, parseRange } from "~/modules/channels/analytics";
import { analyticsFor } from "~/modules/channels/channels.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/analytics-csv";

// CSV export of what /analytics shows for the same range: the signed-in user's channels only.
export async function loader(args: Route.LoaderArgs) {
  const user = await requireApiUser(args, { approved: true });
  const range = parseRange(new URL(args.request.url).searchParams.get("range"));
  const data = await analyticsFor(user.id, range);
  const lastDay = data.days[data.days.length - 1];
  return new Response(analyticsCsv(data), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="shortbeat-analytics-${range}d-${lastDay}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
