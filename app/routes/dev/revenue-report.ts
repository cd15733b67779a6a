import { data } from "react-router";
import { z } from "zod";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { importReportObject } from "~/modules/payments/payments.server";
import { parseForm } from "~/platform/body.server";
import { devToolsEnabled } from "~/platform/env.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/revenue-report";

// The bench's start of a revenue report already in the MEDIA bucket (development builds, DEV_TOOLS
// only; issue 45 §3, docs/decisions/0334): POST month=YYYY-MM&objectKey=imports/… as a signed-in
// admin starts the RevenueImportWorkflow on it and answers { reportId }; its progress is then
// GET /admin/payments/report?id=<reportId> (rows read, matched, problems, bytes read, status).
const schema = z.object({
  month: z.string().regex(/^\d{4}-\d{2}$/, { message: "month must be YYYY-MM" }),
  objectKey: z
    .string()
    .trim()
    .regex(/^imports\/[A-Za-z0-9._-]{1,200}$/, { message: "objectKey must be imports/<name>" }),
  fileName: z.string().trim().max(200).optional(),
});

export const action = domainResource(async (args: Route.ActionArgs) => {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  const actor = actorOf(await requireApiUser(args, { admin: true }));
  const input = await parseForm(args.request, schema);
  return Response.json({ ok: true, reportId: await importReportObject(actor, input) });
});
