import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { payoutBatchCsv } from "~/modules/payments/payments.server";
import { csvResponse } from "~/platform/csv-response.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/payments-batch-csv";

// GET /admin/payments/batches/:batch(.csv) — a payout run as CSV for the bank: admins only (401/403
// JSON like the other resource routes); an unknown or malformed run is the module's JSON 404.
export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const user = await requireApiUser(args, { admin: true });
  const { filename, csv } = await payoutBatchCsv(actorOf(user), args.params.batch.replace(/\.csv$/, ""));
  return csvResponse(filename, csv);
});
