import { data } from "react-router";
import { z } from "zod";
import { payoutRunId, payoutRunStatus, restartPayoutRun, runPayoutDay, startPayoutDay } from "~/modules/payments/payments.server";
import { parseForm } from "~/platform/body.server";
import { devToolsEnabled } from "~/platform/env.server";
import { domainResource } from "~/platform/http.server";
import type { Route } from "./+types/payout-day";

// The payout-day job run by a test's clock (development builds, DEV_TOOLS only): POST date=YYYY-MM-DD
// runs `runPayoutDay` (the whole day in one call) as the browser tests need (tests/e2e/payments.spec.ts);
// with engine=workflow it starts the payout-day Workflow exactly as the daily cron does
// (docs/decisions/0331) and answers the instance id; with restart=1 as well it runs the month's
// existing instance again from its first step, as Cloudflare's engine resumes an instance whose machine
// died, which a local workerd killed mid-run never does (the bench's kill test, docs/decisions/0332);
// GET ?id=<instance id> answers that instance's status and output, for scripts such as a bench.
const schema = z.object({
  date: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "date must be YYYY-MM-DD" }),
  engine: z.enum(["inline", "workflow"]).default("inline"),
  restart: z.enum(["0", "1"]).default("0"),
});

export const loader = domainResource(async ({ request }: Route.LoaderArgs) => {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  const id = new URL(request.url).searchParams.get("id") ?? "";
  const status = /^[A-Za-z0-9_-]{1,100}$/.test(id) ? await payoutRunStatus(id) : null;
  if (!status) throw data("Not Found", { status: 404 });
  return Response.json({ id, ...status });
});

export const action = domainResource(async ({ request }: Route.ActionArgs) => {
  if (!devToolsEnabled()) throw data("Not Found", { status: 404 });
  const input = await parseForm(request, schema);
  const now = new Date(`${input.date}T04:00:00.000Z`);
  if (input.engine === "workflow" && input.restart === "1") {
    const id = payoutRunId(input.date.slice(0, 7));
    if (!(await restartPayoutRun(id))) throw data("Not Found", { status: 404 });
    return Response.json({ ok: true, id, restarted: true });
  }
  if (input.engine === "workflow") {
    const start = await startPayoutDay(now);
    return Response.json({ ok: true, ...start, id: start.batch ? payoutRunId(start.batch) : null });
  }
  const run = await runPayoutDay(now);
  return Response.json({ ok: true, ...run });
});
