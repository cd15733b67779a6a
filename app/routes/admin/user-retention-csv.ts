import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { inactiveUsersCsv } from "~/modules/growth/growth.server";
import { retentionQuerySchema } from "~/modules/growth/schema";
import { csvResponse } from "~/platform/csv-response.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/user-retention-csv";

// The inactive users matching /user-retention's filters, as CSV (admins only).
export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const admin = await requireApiUser(args, { admin: true });
  const query = retentionQuerySchema.parse(Object.fromEntries(new URL(args.request.url).searchParams));
  const csv = await inactiveUsersCsv(actorOf(admin), query);
  const day = new Date().toISOString().slice(0, 10);
  return csvResponse(`inactive-users-${query.inactiveDays}d-${day}.csv`, csv);
});
