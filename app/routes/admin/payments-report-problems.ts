import { toCsv } from "~/lib/csv";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { reportProblems } from "~/modules/payments/payments.server";
import { csvResponse } from "~/platform/csv-response.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/payments-report-problems";

// GET /admin/payments/report/:id/problems.csv — every problem kept of a revenue report (the first
// 10,000 by line; the count on the screen is exact). Admins only. docs/decisions/0334.
export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const actor = actorOf(await requireApiUser(args, { admin: true }));
  const rows = await reportProblems(actor, args.params.id);
  const csv = toCsv([["line", "kind", "reason"], ...rows.map((r) => [r.line, r.skipped ? "left out" : "problem", r.reason])]);
  return csvResponse(`revenue-report-problems-${args.params.id.slice(0, 8)}.csv`, csv);
});
