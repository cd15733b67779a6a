import { data } from "react-router";
import { invalid } from "~/lib/errors";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireApiUser } from "~/modules/accounts/guards.server";
import { abortReportUpload, completeReportUpload, reportById, startReportUpload, uploadReportPart } from "~/modules/payments/payments.server";
import { REPORT_MESSAGES, REPORT_PART_BYTES } from "~/modules/payments/report-messages";
import { reportUploadSchema } from "~/modules/payments/report-schema";
import { parseFields, readForm } from "~/platform/body.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/payments-report";

// POST /admin/payments/report — a revenue report in parts straight into R2 (issue 45 §1,
// docs/decisions/0334): intent start (month, name, size, the first part as `chunk`), part, complete
// (starts the Workflow), abort. One part per request, far under the Worker's body limit. Admins only.
// GET /admin/payments/report?id=… — the report's progress as JSON.
const BODY_LIMIT = { maxBytes: REPORT_PART_BYTES + 64 * 1024, tooLarge: invalid(REPORT_MESSAGES.badPart) };
const headers = { "Cache-Control": "private, no-store" };

export const action = domainResource(async (args: Route.ActionArgs) => {
  const actor = actorOf(await requireApiUser(args, { admin: true }));
  const input = parseFields(await readForm(args.request, BODY_LIMIT), reportUploadSchema);
  switch (input.intent) {
    case "start":
      return data({ ok: true, ...(await startReportUpload(actor, input)) }, { headers });
    case "part":
      return data({ ok: true, ...(await uploadReportPart(actor, input)) }, { headers });
    case "complete":
      return data({ ok: true, ...(await completeReportUpload(actor, args.request, input.reportId)) }, { headers });
    case "abort":
      await abortReportUpload(actor, input.reportId);
      return data({ ok: true }, { headers });
  }
});

export const loader = domainResource(async (args: Route.LoaderArgs) => {
  const actor = actorOf(await requireApiUser(args, { admin: true }));
  const id = new URL(args.request.url).searchParams.get("id") ?? "";
  return data({ ok: true, report: await reportById(actor, id) }, { headers });
});
