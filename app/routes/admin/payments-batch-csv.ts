import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { isMonth } from "~/modules/payments/calendar";
import { payoutBatchCsv } from "~/modules/payments/payments.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/payments-batch-csv";

// A payout batch as CSV for the bank (admins only).
export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const user = await requireApiUser(args, { admin: true });
  const batch = args.params.batch.replace(/\.csv$/, "");
  if (!isMonth(batch)) return new Response("Not found", { status: 404 });
  const { filename, csv } = await payoutBatchCsv(actorOf(user), batch);
  return new Response(csv, {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "private, no-store" },
  });
});
