import { GeneralErrorBoundary } from "~/components/error-screen";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireAdmin } from "~/modules/accounts/guards.server";
import { systemStatusPage } from "~/modules/admin/admin.server";
import { domainLoader } from "~/platform/http.server";
import { Badge } from "~/ui/badge";
import { Card } from "~/ui/card";
import { LocalTime } from "~/ui/local-time";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/system-status";

// What the operator has configured, in one place (docs/decisions/0312): each outside service, which
// of its settings are set (never their values), the last success, the last error, a quota pause and
// the alert the admins got. `npm run doctor` prints the same from the command line.

export const meta = () => [{ title: "System status | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const admin = await requireAdmin(args);
  return systemStatusPage(actorOf(admin));
});

export default function SystemStatus({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader title="System status" description="Outside services: what is configured, when each last worked, and what to set when something is missing." />
      <div className="grid gap-4 md:grid-cols-2">
        {loaderData.services.map((s) => (
          <Card key={s.id} className="min-w-0">
            <section aria-labelledby={`service-${s.id}`}>
              <div className="flex items-center justify-between gap-2">
                <h2 id={`service-${s.id}`} className="text-base font-semibold text-slate-900">
                  {s.label}
                </h2>
                <Badge tone={!s.configured ? "red" : s.fix ? "amber" : "green"}>
                  {!s.configured ? "Missing settings" : s.fix ? "Check settings" : "Configured"}
                </Badge>
              </div>
              <ul className="mt-3 space-y-1 text-sm">
                {s.settings.map((x) => (
                  <li key={x.name} className="flex justify-between gap-x-3">
                    <code className="min-w-0 break-all text-slate-800">{x.name}</code>
                    <span className={`text-right ${x.problem ? "text-red-700" : "text-slate-600"}`}>{x.problem ?? (x.set ? "set" : "not set (optional)")}</span>
                  </li>
                ))}
              </ul>
              <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm text-slate-700">
                <dt>Last success</dt>
                <dd>{s.lastSuccessAt ? <LocalTime iso={s.lastSuccessAt} withTime /> : "never seen"}</dd>
                <dt>Last error</dt>
                <dd className="min-w-0 break-words">
                  {s.lastError ? (
                    <>
                      {s.lastError} (<LocalTime iso={s.lastErrorAt} withTime />)
                    </>
                  ) : (
                    "none"
                  )}
                </dd>
                <dt>Quota</dt>
                <dd>
                  {s.pausedUntil ? (
                    <>
                      paused until <LocalTime iso={s.pausedUntil} withTime />
                    </>
                  ) : (
                    "not paused"
                  )}
                </dd>
              </dl>
              {s.alert ? <p className="mt-3 text-sm font-medium break-words text-red-700">Admins alerted: {s.alert} (see the audit log)</p> : null}
              {s.fix ? <p className="mt-3 text-sm text-slate-700 [overflow-wrap:anywhere]">What to set: {s.fix}</p> : null}
            </section>
          </Card>
        ))}
      </div>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
