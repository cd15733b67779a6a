import { data } from "react-router";
import { z } from "zod";
import { runPayoutDay } from "~/modules/payments/payments.server";
import { parseForm } from "~/platform/body.server";
import { devToolsEnabled } from "~/platform/env.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/payout-day";

// The payout-day job run by a test's clock (development builds, DEV_TOOLS only): POST date=YYYY-MM-DD
// runs `runPayoutDay` as the daily cron would on that day (tests/e2e/payments.spec.ts).
const schema = z.object({
  date: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "date must be YYYY-MM-DD" }),
});

export const action = domainResource(async ({ request }: Route.ActionArgs) => {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  const input = await parseForm(request, schema);
  const run = await runPayoutDay(new Date(`${input.date}T04:00:00.000Z`));
  return Response.json({ ok: true, ...run });
});
