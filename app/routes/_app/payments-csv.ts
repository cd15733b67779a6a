import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { statementCsv } from "~/modules/payments/payments.server";
import { csvResponse } from "~/platform/csv-response.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/payments-csv";

// The signed-in person's statement lines as CSV (every month).
export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const user = await requireApiUser(args, { approved: true });
  const { filename, csv } = await statementCsv(actorOf(user));
  return csvResponse(filename, csv);
});
